-- server_id is the server an example was saved from (NULL when it came
-- from a file, or the server is gone): a collection's Run form starts on
-- a session of its examples' usual server.
ALTER TABLE examples ADD COLUMN server_id INTEGER REFERENCES servers (id) ON DELETE SET NULL;
