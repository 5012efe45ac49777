-- The connection doctor's diagnosis of a failed connect (backend.Diagnosis
-- as JSON, the server's secrets already redacted), kept with its session so
-- that the server's page shows it after a restart too.
CREATE TABLE session_diagnoses (
    session_id INTEGER PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    diagnosis  TEXT NOT NULL
);
