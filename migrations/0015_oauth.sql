-- OAuth sign-in to HTTP servers (backend/oauth*.go). Times are Unix
-- nanoseconds. Every secret (client secrets, tokens) is sealed with the
-- database's key (store/secrets.go) and re-sealed by key rotation.

-- A client registered with an authorization server (issuer) for one
-- redirect URI: pre-registered by a person, registered dynamically
-- (RFC 7591) or named by a client ID metadata document. client_secret is
-- sealed, or '' for a public client.
CREATE TABLE oauth_clients (
    id            INTEGER PRIMARY KEY,
    issuer        TEXT    NOT NULL,
    redirect_uri  TEXT    NOT NULL,
    client_id     TEXT    NOT NULL,
    client_secret TEXT    NOT NULL DEFAULT '',
    method        TEXT    NOT NULL CHECK (method IN ('preregistered', 'dcr', 'cimd')),
    created_at    INTEGER NOT NULL,
    UNIQUE (issuer, redirect_uri)
);

-- A server's OAuth settings: a pre-registered client (client_secret
-- sealed, or '') and the scopes to ask for instead of those the server
-- names (space-separated; '' asks for the server's).
CREATE TABLE server_oauth (
    server_id     INTEGER PRIMARY KEY REFERENCES servers (id) ON DELETE CASCADE,
    client_id     TEXT    NOT NULL DEFAULT '',
    client_secret TEXT    NOT NULL DEFAULT '',
    scopes        TEXT    NOT NULL DEFAULT '',
    updated_at    INTEGER NOT NULL
);

-- What a person's sign-in to a server obtained. token is sealed JSON
-- (access and refresh tokens, expiry, and the client to refresh with);
-- scopes is a JSON array. A shared grant serves every teammate without
-- a grant of their own for the server.
CREATE TABLE oauth_grants (
    server_id   INTEGER NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    issuer      TEXT    NOT NULL,
    client_id   TEXT    NOT NULL,
    scopes      TEXT    NOT NULL DEFAULT '[]',
    token       TEXT    NOT NULL,
    expires_at  INTEGER NOT NULL DEFAULT 0,
    has_refresh INTEGER NOT NULL DEFAULT 0,
    shared      INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (server_id, user_id)
);

-- One sign-in (or token refresh) and its recorded steps, secrets
-- redacted before they are stored. The header and checks columns hold
-- JSON; ended_at is 0 while the flow runs.
CREATE TABLE oauth_flows (
    id         INTEGER PRIMARY KEY,
    server_id  INTEGER NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    issuer     TEXT    NOT NULL DEFAULT '',
    status     TEXT    NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
    err        TEXT    NOT NULL DEFAULT '',
    started_at INTEGER NOT NULL,
    ended_at   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX oauth_flows_server ON oauth_flows (server_id, id);

CREATE TABLE oauth_steps (
    id              INTEGER PRIMARY KEY,
    flow_id         INTEGER NOT NULL REFERENCES oauth_flows (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,
    kind            TEXT    NOT NULL,
    title           TEXT    NOT NULL,
    method          TEXT    NOT NULL DEFAULT '',
    url             TEXT    NOT NULL DEFAULT '',
    request_header  TEXT    NOT NULL DEFAULT '{}',
    request_body    TEXT    NOT NULL DEFAULT '',
    status          INTEGER NOT NULL DEFAULT 0,
    response_header TEXT    NOT NULL DEFAULT '{}',
    response_body   TEXT    NOT NULL DEFAULT '',
    err             TEXT    NOT NULL DEFAULT '',
    checks          TEXT    NOT NULL DEFAULT '[]',
    elapsed_ns      INTEGER NOT NULL DEFAULT 0,
    at              INTEGER NOT NULL,
    rerun_of        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX oauth_steps_flow ON oauth_steps (flow_id, seq);
