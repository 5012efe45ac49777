-- People who may use the dashboard, their browser sessions and their
-- personal API tokens. Times are Unix nanoseconds.
--
-- password_hash is a bcrypt hash. role is admin, editor or viewer;
-- disabled_at, when set, is when an admin disabled the account, which
-- then neither signs in nor keeps its sessions and tokens working.
CREATE TABLE users (
    id                  INTEGER PRIMARY KEY,
    name                TEXT    NOT NULL UNIQUE COLLATE NOCASE,
    password_hash       TEXT    NOT NULL,
    role                TEXT    NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
    created_at          INTEGER NOT NULL,
    password_changed_at INTEGER NOT NULL,
    disabled_at         INTEGER
);

-- A browser session: the cookie holds a random token, the table only its
-- SHA-256. It ends at expires_at, or earlier once idle for the idle
-- timeout after last_seen_at (backend.Accounts).
CREATE TABLE web_sessions (
    id           INTEGER PRIMARY KEY,
    token_hash   BLOB    NOT NULL UNIQUE,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    client       TEXT    NOT NULL DEFAULT '',
    created_at   INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    expires_at   INTEGER NOT NULL
);
CREATE INDEX web_sessions_user ON web_sessions (user_id);

-- A personal API token: shown once, stored as its SHA-256. prefix is its
-- first characters, shown so that its owner can tell tokens apart. role is
-- no higher than the owner's; expires_at NULL never expires.
CREATE TABLE api_tokens (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT    NOT NULL,
    token_hash   BLOB    NOT NULL UNIQUE,
    prefix       TEXT    NOT NULL,
    role         TEXT    NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
    created_at   INTEGER NOT NULL,
    expires_at   INTEGER,
    last_used_at INTEGER,
    revoked_at   INTEGER
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);
