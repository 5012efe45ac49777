-- Collections of saved example calls. An example keeps the request it
-- makes (method and params, a JSON object or NULL) and the answer it
-- expects: snapshot_kind says whether snapshot is a result or a JSON-RPC
-- error object ({"code","message","data"}); expect_is_error is the
-- result's isError. volatile is a JSON array of JSON Pointers (segments may
-- be "*") that the comparison ignores. position orders the examples of a
-- collection. Times are Unix nanoseconds.
CREATE TABLE collections (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE,
    description TEXT    NOT NULL DEFAULT '',
    created_at  INTEGER NOT NULL
);

CREATE TABLE examples (
    id              INTEGER PRIMARY KEY,
    collection_id   INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    position        INTEGER NOT NULL,
    name            TEXT    NOT NULL,
    description     TEXT    NOT NULL DEFAULT '',
    method          TEXT    NOT NULL,
    params          TEXT,
    snapshot_kind   TEXT    NOT NULL CHECK (snapshot_kind IN ('result', 'error')),
    snapshot        TEXT    NOT NULL,
    volatile        TEXT    NOT NULL DEFAULT '[]',
    expect_is_error INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    UNIQUE (collection_id, name)
);
CREATE INDEX examples_collection ON examples (collection_id, position);

-- One run of a collection (all of it or one example) on a session.
-- finished_at is NULL while it runs.
CREATE TABLE collection_runs (
    id            INTEGER PRIMARY KEY,
    collection_id INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    session_id    INTEGER REFERENCES sessions (id) ON DELETE SET NULL,
    server_name   TEXT    NOT NULL DEFAULT '',
    started_at    INTEGER NOT NULL,
    finished_at   INTEGER,
    passed        INTEGER NOT NULL DEFAULT 0,
    failed        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX collection_runs_collection ON collection_runs (collection_id, id);

-- How each example fared in a run. outcome is pass, fail (the answer
-- differs from the snapshot: diff is a JSON array of changes) or error (no
-- answer came: message says why). example_name keeps the report readable
-- after the example is deleted.
CREATE TABLE run_results (
    id                INTEGER PRIMARY KEY,
    run_id            INTEGER NOT NULL REFERENCES collection_runs (id) ON DELETE CASCADE,
    example_id        INTEGER REFERENCES examples (id) ON DELETE SET NULL,
    example_name      TEXT    NOT NULL,
    outcome           TEXT    NOT NULL CHECK (outcome IN ('pass', 'fail', 'error')),
    message           TEXT    NOT NULL DEFAULT '',
    diff              TEXT    NOT NULL DEFAULT '[]',
    latency_ns        INTEGER NOT NULL DEFAULT 0,
    response_frame_id INTEGER REFERENCES frames (id) ON DELETE SET NULL
);
CREATE INDEX run_results_run ON run_results (run_id, id);
