-- How the playground obtains a server's tokens (backend/oauth_settings.go):
-- a person's sign-in in the browser (authorization_code), or the
-- playground's own client credentials (client_credentials), authenticated
-- with the client secret (client_secret_basic) or a private key
-- (private_key_jwt). private_key is the key's PEM, sealed; key_id its JWK
-- thumbprint (RFC 7638), shown in its place. dpop asks for DPoP-bound
-- tokens (RFC 9449).
ALTER TABLE server_oauth ADD COLUMN grant_type TEXT NOT NULL DEFAULT 'authorization_code'
    CHECK (grant_type IN ('authorization_code', 'client_credentials'));
ALTER TABLE server_oauth ADD COLUMN client_auth TEXT NOT NULL DEFAULT 'client_secret_basic'
    CHECK (client_auth IN ('client_secret_basic', 'private_key_jwt'));
ALTER TABLE server_oauth ADD COLUMN private_key TEXT NOT NULL DEFAULT '';
ALTER TABLE server_oauth ADD COLUMN key_id TEXT NOT NULL DEFAULT '';
ALTER TABLE server_oauth ADD COLUMN dpop INTEGER NOT NULL DEFAULT 0;
