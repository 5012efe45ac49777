-- The audit log: who did what, through which door, from where, and how it
-- went. Times are Unix nanoseconds.
--
-- actor_id is the account's id when someone signed in, NULL otherwise; it
-- is deliberately not a foreign key, since an event outlives its account
-- and is never changed. actor_name is the name as it was at that moment
-- (for a failed sign-in: the name tried). via is how the request came:
-- browser (session cookie), token (API token), cli (a playground
-- subcommand on the host) or anonymous. client is the client's address.
-- action is a dotted label such as server.create or tool.call; target
-- names what it acted on; details is a JSON object with the request's
-- fields, secrets redacted; outcome is ok or the status and error.
CREATE TABLE audit_events (
    id         INTEGER PRIMARY KEY,
    at         INTEGER NOT NULL,
    actor_id   INTEGER,
    actor_name TEXT    NOT NULL DEFAULT '',
    via        TEXT    NOT NULL CHECK (via IN ('browser', 'token', 'cli', 'anonymous')),
    client     TEXT    NOT NULL DEFAULT '',
    action     TEXT    NOT NULL,
    target     TEXT    NOT NULL DEFAULT '',
    details    TEXT    NOT NULL DEFAULT '{}',
    outcome    TEXT    NOT NULL
);
CREATE INDEX audit_events_at ON audit_events (at);
CREATE INDEX audit_events_actor ON audit_events (actor_name COLLATE NOCASE, id);
CREATE INDEX audit_events_action ON audit_events (action, id);

-- The log is append-only: no code path may change or remove an event, and
-- these triggers make a bug that tried fail instead. REPLACE removes the
-- row it replaces without firing DELETE triggers, so an insert that reuses
-- an id is refused too.
CREATE TRIGGER audit_events_append_only_update BEFORE UPDATE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit events cannot be changed');
END;
CREATE TRIGGER audit_events_append_only_delete BEFORE DELETE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit events cannot be deleted');
END;
CREATE TRIGGER audit_events_append_only_replace BEFORE INSERT ON audit_events
WHEN EXISTS (SELECT 1 FROM audit_events WHERE id = NEW.id)
BEGIN
    SELECT RAISE(ABORT, 'audit events cannot be replaced');
END;
