-- The last call made from the dashboard of each item (tool, prompt,
-- resource) of each server: the arguments the user sent (never HTTP
-- headers) and how it ended. response_frame_id names the stored response,
-- from which the page rebuilds the outcome; it is NULL when no response
-- came (outcome failure or cancelled; summary then says why). called_at is
-- Unix nanoseconds.
CREATE TABLE last_calls (
    server_id         INTEGER NOT NULL REFERENCES servers (id) ON DELETE CASCADE,
    kind              TEXT    NOT NULL CHECK (kind IN ('tool', 'prompt', 'resource')),
    name              TEXT    NOT NULL,
    arguments         TEXT    NOT NULL,
    session_id        INTEGER REFERENCES sessions (id) ON DELETE SET NULL,
    response_frame_id INTEGER REFERENCES frames (id) ON DELETE SET NULL,
    outcome           TEXT    NOT NULL,
    summary           TEXT    NOT NULL DEFAULT '',
    called_at         INTEGER NOT NULL,
    PRIMARY KEY (server_id, kind, name)
);
