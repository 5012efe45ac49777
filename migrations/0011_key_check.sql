-- The secret key's check value: a known text sealed with the key that seals
-- this database's secrets (store/keycheck.go). Open opens it to tell a key
-- that does not belong to this database at once, rather than on the first
-- page that shows a secret. One row; written on the first Open that finds
-- none, and re-sealed by key rotation with every other sealed value.
CREATE TABLE key_check (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    sealed TEXT NOT NULL
);
