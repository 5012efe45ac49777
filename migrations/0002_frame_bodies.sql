-- Bodies longer than 16 KiB are kept whole in frame_bodies; frames.body then
-- holds only their first 16 KiB, so that listing frames, which shows
-- previews, never reads a large body. frames.body_size is the whole body's
-- length. (16384 is backend.MaxBodyPreview.)
CREATE TABLE frame_bodies (
    frame_id INTEGER PRIMARY KEY REFERENCES frames (id) ON DELETE CASCADE,
    body     BLOB    NOT NULL
);

ALTER TABLE frames ADD COLUMN body_size INTEGER NOT NULL DEFAULT 0;
UPDATE frames SET body_size = length(body);
INSERT INTO frame_bodies (frame_id, body) SELECT id, body FROM frames WHERE body_size > 16384;
UPDATE frames SET body = substr(body, 1, 16384) WHERE body_size > 16384;
