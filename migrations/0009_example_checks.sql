-- What an example checks beyond its snapshot, and the values a collection
-- runs with.
--
-- assertions is a JSON array of backend.Assertion objects, captures a JSON
-- array of backend.Capture objects; assertions_only = 1 judges the example
-- by its assertions alone, without comparing the snapshot.
ALTER TABLE examples ADD COLUMN assertions      TEXT    NOT NULL DEFAULT '[]';
ALTER TABLE examples ADD COLUMN captures        TEXT    NOT NULL DEFAULT '[]';
ALTER TABLE examples ADD COLUMN assertions_only INTEGER NOT NULL DEFAULT 0;

-- checks is a JSON array of backend.CheckResult objects: how each
-- assertion fared.
ALTER TABLE run_results ADD COLUMN checks TEXT NOT NULL DEFAULT '[]';

-- total is how many examples the run has (its progress is the number of
-- its results); environment names the environment it ran with, '' none.
ALTER TABLE collection_runs ADD COLUMN total       INTEGER NOT NULL DEFAULT 0;
ALTER TABLE collection_runs ADD COLUMN environment TEXT    NOT NULL DEFAULT '';

-- An environment is a named set of variable values of a collection,
-- chosen when it runs. A secret value is stored sealed (AES-256-GCM under
-- the database's key file, as server secrets are) and never shown again.
CREATE TABLE environments (
    id            INTEGER PRIMARY KEY,
    collection_id INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    name          TEXT    NOT NULL,
    UNIQUE (collection_id, name)
);

CREATE TABLE environment_values (
    environment_id INTEGER NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
    name           TEXT    NOT NULL,
    value          TEXT    NOT NULL,
    secret         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (environment_id, name)
);
