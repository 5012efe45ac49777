-- The authorization server (its issuer) that a server's OAuth client
-- secret or private key may be sent to (backend/oauth_issuer.go): the one
-- the client was first used with, or '' until then. A token endpoint of
-- another issuer gets nothing until someone confirms it.
ALTER TABLE server_oauth ADD COLUMN issuer TEXT NOT NULL DEFAULT '';
