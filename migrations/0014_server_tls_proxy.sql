-- TLS and proxy settings of http and sse servers (empty for stdio ones).
-- ca_cert holds PEM certificates trusted besides the system's; they are
-- public, so stored as typed. insecure_skip_verify is 1 when any
-- certificate the server presents is accepted. proxy is the URL of the
-- proxy to reach the server through, sealed like url (it can carry
-- user:password), or '' for the environment's proxy settings.
ALTER TABLE servers ADD COLUMN ca_cert TEXT NOT NULL DEFAULT '';
ALTER TABLE servers ADD COLUMN insecure_skip_verify INTEGER NOT NULL DEFAULT 0 CHECK (insecure_skip_verify IN (0, 1));
ALTER TABLE servers ADD COLUMN proxy TEXT NOT NULL DEFAULT '';
