-- Sessions imported from an NDJSON export (POST /sessions/import) rather
-- than recorded. imported_from is the uploaded file's name, '' for a
-- recorded session; imported_at is when it was imported (Unix
-- nanoseconds), NULL for a recorded session.
--
-- An imported session is read-only: it is stored closed, never enters the
-- pool, and nothing is sent on it. It belongs to no registered server:
-- server_id is NULL, as for a session whose server was deleted, so that no
-- server page, connect or replay target ever points at it, and server_name
-- is the name the file gives (its lines' serverName; the names joined
-- when the file holds several) or 'imported' when it gives none, so that
-- history search by server finds it. transport is ''. started_at and
-- ended_at are the times of its first and last frames.
ALTER TABLE sessions ADD COLUMN imported_from TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN imported_at INTEGER;
