-- interrupted is 1 for a run the playground stopped in the middle of (a
-- crash, a kill): the next start ends it with the results stored so far.
ALTER TABLE collection_runs ADD COLUMN interrupted INTEGER NOT NULL DEFAULT 0;
