-- What the protocol linter (mcpclient/lint) found wrong with each frame as
-- it was recorded or imported: one row a finding. session_id and time are
-- the frame's, kept here so that a session's count, a server's report and
-- the history's lint: queries read this table alone. spec is the finding's
-- own reference (a schema finding names the definition it broke); the
-- rule's fix is looked up by code.
CREATE TABLE frame_findings (
    frame_id   INTEGER NOT NULL REFERENCES frames (id) ON DELETE CASCADE,
    session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    time       INTEGER NOT NULL,
    code       TEXT NOT NULL,
    severity   TEXT NOT NULL CHECK (severity IN ('error', 'warning', 'info')),
    pointer    TEXT NOT NULL,
    message    TEXT NOT NULL,
    spec       TEXT NOT NULL
);
CREATE INDEX frame_findings_frame ON frame_findings (frame_id);
CREATE INDEX frame_findings_session ON frame_findings (session_id, severity);
CREATE INDEX frame_findings_code ON frame_findings (code, frame_id);
CREATE INDEX frame_findings_severity ON frame_findings (severity, frame_id);
