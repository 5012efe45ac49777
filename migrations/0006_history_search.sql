-- Full-text index of exchanges for history search (needs SQLite's FTS5:
-- go-sqlite3 builds it with the sqlite_fts5 tag, which the Makefile sets).
-- One row per exchange, its rowid the request frame's id, holding the
-- stored bodies of the request and the response (their first 16 KiB, as
-- frames.body keeps them). Contentless: the bodies stay in frames alone;
-- contentless_delete lets a deleted exchange leave the index.
CREATE VIRTUAL TABLE exchanges_fts USING fts5(body, content = '', contentless_delete = 1);

-- Kept up to date as the recorder links a response to its request: both
-- frames are stored by then (InsertFrames writes frames before exchanges).
CREATE TRIGGER exchanges_fts_insert AFTER INSERT ON exchanges BEGIN
    INSERT INTO exchanges_fts (rowid, body)
    SELECT new.request_frame_id, CAST(rq.body AS TEXT) || char(10) || CAST(rs.body AS TEXT)
    FROM frames rq, frames rs
    WHERE rq.id = new.request_frame_id AND rs.id = new.response_frame_id;
END;

CREATE TRIGGER exchanges_fts_delete AFTER DELETE ON exchanges BEGIN
    DELETE FROM exchanges_fts WHERE rowid = old.request_frame_id;
END;

-- The exchanges recorded before this migration.
INSERT INTO exchanges_fts (rowid, body)
SELECT e.request_frame_id, CAST(rq.body AS TEXT) || char(10) || CAST(rs.body AS TEXT)
FROM exchanges e
JOIN frames rq ON rq.id = e.request_frame_id
JOIN frames rs ON rs.id = e.response_frame_id;
