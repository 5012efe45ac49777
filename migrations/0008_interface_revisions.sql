-- Interface revisions: what a server offered (tools, resources, resource
-- templates, prompts; every page of each list) when a session opened,
-- stored only when it differs from the server's previous revision.
-- number counts a server's revisions from 1; listing is the canonical JSON
-- of backend.InterfaceListing and hash its SHA-256 (hex). session_id names
-- the session that listed it. taken_at is Unix nanoseconds.
CREATE TABLE interface_revisions (
    id         INTEGER PRIMARY KEY,
    server_id  INTEGER NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    number     INTEGER NOT NULL,
    session_id INTEGER REFERENCES sessions (id) ON DELETE SET NULL,
    hash       TEXT    NOT NULL,
    listing    TEXT    NOT NULL,
    taken_at   INTEGER NOT NULL,
    UNIQUE (server_id, number)
);
