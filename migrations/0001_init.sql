-- Registered MCP servers. args is a JSON array; env and headers are JSON
-- objects encrypted by the store (their values can be secrets).
CREATE TABLE servers (
    id         INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL UNIQUE,
    transport  TEXT    NOT NULL CHECK (transport IN ('stdio', 'http', 'sse')),
    era        TEXT    NOT NULL DEFAULT 'legacy' CHECK (era IN ('legacy', 'modern', 'auto')),
    command    TEXT    NOT NULL DEFAULT '',
    args       TEXT    NOT NULL DEFAULT '[]',
    env        TEXT    NOT NULL,
    dir        TEXT    NOT NULL DEFAULT '',
    url        TEXT    NOT NULL DEFAULT '',
    headers    TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

-- One connection to a server. server_name keeps the history readable after
-- the server is deleted (server_id then becomes NULL).
CREATE TABLE sessions (
    id               INTEGER PRIMARY KEY,
    server_id        INTEGER REFERENCES servers (id) ON DELETE SET NULL,
    server_name      TEXT    NOT NULL,
    transport        TEXT    NOT NULL,
    status           TEXT    NOT NULL CHECK (status IN ('connecting', 'open', 'closed', 'failed')),
    close_reason     TEXT    NOT NULL DEFAULT '',
    era              TEXT    NOT NULL DEFAULT '',
    protocol_version TEXT    NOT NULL DEFAULT '',
    peer_name        TEXT    NOT NULL DEFAULT '',
    peer_version     TEXT    NOT NULL DEFAULT '',
    started_at       INTEGER NOT NULL,
    ended_at         INTEGER
);
CREATE INDEX sessions_server ON sessions (server_id, id);

-- Every frame of every session, exactly as it travelled. time is Unix
-- nanoseconds; rpc_type is request, notification, result, error or empty
-- for non-messages; http is a JSON document (its headers encrypted by the
-- store) or NULL.
CREATE TABLE frames (
    id         INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    time       INTEGER NOT NULL,
    direction  TEXT    NOT NULL,
    kind       TEXT    NOT NULL,
    rpc_type   TEXT    NOT NULL DEFAULT '',
    rpc_id     TEXT,
    method     TEXT    NOT NULL DEFAULT '',
    body       BLOB    NOT NULL,
    http       TEXT
);
CREATE INDEX frames_session ON frames (session_id, id);

-- Requests linked to their responses. latency_ns is response time minus
-- request time.
CREATE TABLE exchanges (
    request_frame_id  INTEGER PRIMARY KEY REFERENCES frames (id) ON DELETE CASCADE,
    response_frame_id INTEGER NOT NULL REFERENCES frames (id) ON DELETE CASCADE,
    session_id        INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    method            TEXT    NOT NULL,
    latency_ns        INTEGER NOT NULL
);
CREATE INDEX exchanges_response ON exchanges (response_frame_id);
CREATE INDEX exchanges_session ON exchanges (session_id);

-- Facts about this database, such as whether the demo server was seeded.
CREATE TABLE settings (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
