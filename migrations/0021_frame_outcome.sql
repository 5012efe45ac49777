-- What the recorder decides about a frame once, stored beside it so that
-- filters, history and lint read it rather than decide it again.
-- is_error is 1 on a result whose isError member is true (a tool's failure),
-- decided on the whole body. id_clash is '' or what the frame's JSON-RPC id
-- clashed with: 'duplicate-id' (a request sent while another with the same
-- id was pending) or 'ambiguous-response' (a response whose id named several
-- pending requests); id_clash_frame is that other request's frame.
ALTER TABLE frames ADD COLUMN is_error INTEGER NOT NULL DEFAULT 0;
ALTER TABLE frames ADD COLUMN id_clash TEXT NOT NULL DEFAULT '';
ALTER TABLE frames ADD COLUMN id_clash_frame INTEGER;

UPDATE frames SET is_error = 1 WHERE id IN (
    SELECT f.id FROM frames f LEFT JOIN frame_bodies b ON b.frame_id = f.id
    WHERE f.rpc_type = 'result'
      AND json_type(CASE WHEN json_valid(CAST(COALESCE(b.body, f.body) AS TEXT))
                         THEN CAST(COALESCE(b.body, f.body) AS TEXT) END, '$.result.isError') = 'true'
);
