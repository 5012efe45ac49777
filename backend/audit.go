package backend

import (
	"context"
	"encoding/json"
	"time"
)

// How a request reached the dashboard, as the audit log records it.
const (
	ViaBrowser   = "browser"   // a browser session cookie
	ViaToken     = "token"     // a personal API token
	ViaCLI       = "cli"       // a playground subcommand run on the host
	ViaAnonymous = "anonymous" // nobody signed in (sign-in, first-admin setup)
)

// AuditOK is the outcome of an action that succeeded.
const AuditOK = "ok"

// AuditPageSize is the most events one page of the audit log holds.
const AuditPageSize = 200

// AuditEvent is one entry of the audit log: who did what to which thing,
// when, through which door, and how it went. Events are only ever
// appended: nothing in the product changes or removes one.
type AuditEvent struct {
	ID        int64
	At        time.Time
	ActorID   int64  // the account, or 0 for nobody signed in
	ActorName string // the name at the time (for a failed sign-in, the name tried)
	Via       string // ViaBrowser, ViaToken, ViaCLI or ViaAnonymous
	Client    string // the client's address
	Action    string // e.g. "server.create", "tool.call", "signin.failed"
	Target    string // e.g. "server 3 (Demo server)", "session 12"
	// Details is a JSON object: the request's fields with secrets
	// redacted.
	Details json.RawMessage
	Outcome string // AuditOK, or the status and the error
}

// AuditFilter selects audit events. Zero fields select everything.
type AuditFilter struct {
	Actor  string    // the actor's name, exactly (case-insensitive)
	Action string    // a prefix of the action: "server" selects server.create, server.delete, …
	Text   string    // a substring of the actor, client, action, target, details or outcome
	Since  time.Time // events at or after
	Until  time.Time // events before
	// Before selects events with a smaller id (keyset paging, newest
	// first); 0 starts with the newest.
	Before int64
	// Limit is the most events to return, at most AuditPageSize (0 or
	// more: AuditPageSize).
	Limit int
}

// AuditStore keeps the audit log. It offers no way to change or remove an
// event.
type AuditStore interface {
	// AppendAuditEvent stores e (its ID is ignored) and returns it with
	// its ID.
	AppendAuditEvent(ctx context.Context, e AuditEvent) (AuditEvent, error)
	// ListAuditEvents returns the events f selects, newest (highest id)
	// first, at most f.Limit of them.
	ListAuditEvents(ctx context.Context, f AuditFilter) ([]AuditEvent, error)
}

// AuditLog records and reads the audit log.
type AuditLog struct {
	store AuditStore
	now   func() time.Time
}

// NewAuditLog returns the audit log kept in store.
func NewAuditLog(store AuditStore) *AuditLog {
	return &AuditLog{store: store, now: time.Now}
}

// Record appends e, stamped with the current time (unless e.At is set);
// empty Details become {} and an empty Outcome AuditOK.
func (l *AuditLog) Record(ctx context.Context, e AuditEvent) error {
	if e.At.IsZero() {
		e.At = l.now()
	}
	if len(e.Details) == 0 {
		e.Details = json.RawMessage("{}")
	}
	if e.Outcome == "" {
		e.Outcome = AuditOK
	}
	_, err := l.store.AppendAuditEvent(ctx, e)
	return err
}

// AuditPage is one page of the audit log, newest first.
type AuditPage struct {
	Events []AuditEvent
	// Older is the AuditFilter.Before of the next (older) page, 0 when
	// this is the last one.
	Older int64
}

// Page returns the events f selects, starting at f.Before, at most
// f.Limit (bounded by AuditPageSize) of them.
func (l *AuditLog) Page(ctx context.Context, f AuditFilter) (AuditPage, error) {
	if f.Limit <= 0 || f.Limit > AuditPageSize {
		f.Limit = AuditPageSize
	}
	want := f.Limit
	f.Limit++ // one more says whether there is an older page
	events, err := l.store.ListAuditEvents(ctx, f)
	if err != nil {
		return AuditPage{}, err
	}
	p := AuditPage{Events: events}
	if len(events) > want {
		p.Events = events[:want]
		p.Older = p.Events[want-1].ID
	}
	return p, nil
}

// Each calls fn with every event f selects, newest first, reading the log
// one page at a time; it stops at fn's first error and returns it.
func (l *AuditLog) Each(ctx context.Context, f AuditFilter, fn func(AuditEvent) error) error {
	for {
		p, err := l.Page(ctx, f)
		if err != nil {
			return err
		}
		for _, e := range p.Events {
			if err := fn(e); err != nil {
				return err
			}
		}
		if p.Older == 0 {
			return nil
		}
		f.Before = p.Older
	}
}
