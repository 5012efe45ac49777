-- What the protocol linter judges an imported session by, from its file:
-- protocol_version (the column recorded sessions already fill at their
-- handshake) is the version the file's frames give, and excerpt is 1 when
-- the session's frames are not one session's whole traffic from its start
-- (the file was a filtered session export or a history export, or held
-- frames of several sessions), so that a linter of its frames leaves out
-- the rules that need every frame, and its export is marked an excerpt
-- again. A recorded session has 0. Sessions imported before this
-- migration keep 0 and their empty version: their files are gone.
ALTER TABLE sessions ADD COLUMN excerpt INTEGER NOT NULL DEFAULT 0;
