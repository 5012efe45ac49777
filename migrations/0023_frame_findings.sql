-- What the protocol linter (mcpclient/lint) found wrong with each frame as
-- it was recorded or imported: one row a finding. session_id and time are
-- the frame's, kept here so that a session's count, a server's report and
-- a server's report reads this table alone. exchange_id is the request
-- frame of the exchange the frame is part of (the frame itself for a
-- request, the request it answers for a response), NULL for other frames:
-- the history's lint: queries walk it newest first. spec is the finding's
-- own reference (a schema finding names the definition it broke); the
-- rule's fix is looked up by code.
CREATE TABLE frame_findings (
    frame_id    INTEGER NOT NULL REFERENCES frames (id) ON DELETE CASCADE,
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    exchange_id INTEGER,
    time        INTEGER NOT NULL,
    code       TEXT NOT NULL,
    severity   TEXT NOT NULL CHECK (severity IN ('error', 'warning', 'info')),
    pointer    TEXT NOT NULL,
    message    TEXT NOT NULL,
    spec       TEXT NOT NULL
);
CREATE INDEX frame_findings_frame ON frame_findings (frame_id);
CREATE INDEX frame_findings_session ON frame_findings (session_id, severity);
CREATE INDEX frame_findings_exchange ON frame_findings (exchange_id) WHERE exchange_id IS NOT NULL;
CREATE INDEX frame_findings_exchange_code ON frame_findings (code, exchange_id) WHERE exchange_id IS NOT NULL;
CREATE INDEX frame_findings_exchange_severity ON frame_findings (severity, exchange_id) WHERE exchange_id IS NOT NULL;
