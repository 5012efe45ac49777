-- Full-text index of exchanges for history search (needs SQLite's FTS5:
-- go-sqlite3 builds it with the sqlite_fts5 tag, which the Makefile sets).
-- One row per exchange, its rowid the request frame's id, holding the
-- stored bodies of the request and the response (their first 16 KiB, as
-- frames.body keeps them). Contentless: the bodies stay in frames alone;
-- contentless_delete lets a deleted exchange leave the index.
CREATE VIRTUAL TABLE exchanges_fts USING fts5(body, content = '', contentless_delete = 1);

-- Exchanges not yet in the index. Indexing as the recorder commits would
-- halve its rate (FTS5 is fastest in large batches), so a trigger only
-- queues each new exchange here, and the store indexes the queue in large
-- batches in the background and before each search (store.IndexHistory).
CREATE TABLE exchanges_fts_pending (
    request_frame_id INTEGER PRIMARY KEY
);

CREATE TRIGGER exchanges_fts_queue AFTER INSERT ON exchanges BEGIN
    INSERT OR IGNORE INTO exchanges_fts_pending (request_frame_id) VALUES (new.request_frame_id);
END;

CREATE TRIGGER exchanges_fts_delete AFTER DELETE ON exchanges BEGIN
    DELETE FROM exchanges_fts WHERE rowid = old.request_frame_id;
    DELETE FROM exchanges_fts_pending WHERE request_frame_id = old.request_frame_id;
END;

-- The exchanges recorded before this migration, indexed like new ones.
INSERT INTO exchanges_fts_pending (request_frame_id) SELECT request_frame_id FROM exchanges;
