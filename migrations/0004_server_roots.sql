-- The roots a server is offered on roots/list: a JSON array of
-- {"uri": ..., "name": ...} objects (name omitted when empty), in the order
-- the user gave them.
ALTER TABLE servers ADD COLUMN roots TEXT NOT NULL DEFAULT '[]';
