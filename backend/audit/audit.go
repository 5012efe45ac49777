// Package audit keeps the audit log: who did what to which thing, when,
// through which door, and how it went.
package audit

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"
)

// How a request reached the dashboard, as the audit log records it.
const (
	ViaBrowser   = "browser"   // a browser session cookie
	ViaToken     = "token"     // a personal API token
	ViaCLI       = "cli"       // a playground subcommand run on the host
	ViaAnonymous = "anonymous" // nobody signed in (sign-in, first-admin setup)
)

// OK is the outcome of an action that succeeded.
const OK = "ok"

// PageSize is the most events one page of the audit log holds.
const PageSize = 200

// Event is one entry of the audit log: who did what to which thing,
// when, through which door, and how it went. Events are only ever
// appended: nothing in the product changes or removes one.
type Event struct {
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
	Outcome string // OK, or the status and the error
}

// Filter selects audit events. Zero fields select everything.
type Filter struct {
	Actor  string    // the actor's name, exactly (case-insensitive)
	Action string    // a prefix of the action: "server" selects server.create, server.delete, …
	Text   string    // a substring of the actor, client, action, target, details or outcome
	Since  time.Time // events at or after
	Until  time.Time // events before
	// Before selects events with a smaller id (keyset paging, newest
	// first); 0 starts with the newest.
	Before int64
	// Limit is the most events to return, at most PageSize (0 or
	// more: PageSize).
	Limit int
}

// Store keeps the audit log. It offers no way to change or remove an
// event.
type Store interface {
	// AppendAuditEvent stores e (its ID is ignored) and returns it with
	// its ID.
	AppendAuditEvent(ctx context.Context, e Event) (Event, error)
	// AppendAuditEvents stores the events (their IDs ignored), in order,
	// all or none.
	AppendAuditEvents(ctx context.Context, events []Event) error
	// ListAuditEvents returns the events f selects, newest (highest id)
	// first, at most f.Limit of them.
	ListAuditEvents(ctx context.Context, f Filter) ([]Event, error)
}

// Log records and reads the audit log. Made by NewLog it
// appends each event before Record returns; made by NewWriter it
// queues events for one background writer, so that the request an event
// describes does not wait for its row, and readers (Page, Each, Flush) see
// every event recorded before they were called. Recording an event takes
// a lock and appends to a slice: only the first event of a burst wakes the
// writer, which then lingers lingerFor and appends everything queued in
// one transaction, so that a busy API costs the database a write every
// lingerFor, not one per request, and no request pays for a goroutine
// switch.
type Log struct {
	store Store
	now   func() time.Time
	log   *slog.Logger

	// With a writer (writing set): mu guards queued and closed; room is
	// signalled when the writer took the queue; wake (capacity 1) tells
	// the writer there is something to do.
	writing bool
	mu      sync.Mutex
	queued  []queued
	closed  bool
	room    *sync.Cond
	wake    chan struct{}
	written chan struct{} // closed when the writer has drained the queue
}

// queued is an event to append (with the function that completes it, if
// any), or (flushed set) a request to say when every event queued before
// it is written.
type queued struct {
	event   Event
	finish  func(*Event)
	flushed chan struct{}
}

// queueSize bounds the events waiting for the writer; beyond it Record
// waits (it never drops an event). lingerFor is how long the writer
// waits for more events once one arrived, batchSize the most it appends
// in one transaction.
const (
	queueSize = 1024
	lingerFor = 50 * time.Millisecond
	batchSize = 256
)

// NewLog returns the audit log kept in store, appending at once.
func NewLog(store Store) *Log {
	return &Log{store: store, now: time.Now}
}

// NewWriter returns the audit log kept in store with its background
// writer, which logs to log what it cannot append. Close stops the writer
// once the queue is written.
func NewWriter(store Store, log *slog.Logger) *Log {
	l := &Log{store: store, now: time.Now, log: log, writing: true, wake: make(chan struct{}, 1), written: make(chan struct{})}
	l.room = sync.NewCond(&l.mu)
	go l.write()
	return l
}

// signal wakes the writer, or leaves it a wake-up it has not taken yet.
func (l *Log) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// write appends the queued events in order until the log is closed: a
// batch once lingerFor has passed since the first event of a burst, or at
// once when a Flush asks, batchSize events wait, or the log closes.
func (l *Log) write() {
	defer close(l.written)
	linger := time.NewTimer(lingerFor)
	linger.Stop()
	for {
		<-l.wake
		if !l.hurried() {
			linger.Reset(lingerFor)
			select {
			case <-linger.C:
			case <-l.wake:
				linger.Stop()
			}
		}
		items, closed := l.take()
		l.appendItems(items)
		if closed {
			return
		}
	}
}

// hurried reports whether what is queued must be written without
// lingering: the log is closing, a Flush waits, or a batch is full. An
// empty queue is hurried too: there is nothing to linger for.
func (l *Log) hurried() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed || len(l.queued) == 0 || len(l.queued) >= batchSize || l.queued[len(l.queued)-1].flushed != nil
}

// take returns what is queued, emptied from the queue, and whether the
// log is closed (nothing more will be queued).
func (l *Log) take() ([]queued, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	items := l.queued
	l.queued = nil
	l.room.Broadcast()
	return items, l.closed
}

// appendItems completes and appends the events of items in order, in
// transactions of at most batchSize events, and answers each Flush once
// every event before it is written.
func (l *Log) appendItems(items []queued) {
	batch := make([]Event, 0, min(len(items), batchSize))
	for _, item := range items {
		if item.flushed != nil {
			batch = l.appendBatch(batch)
			close(item.flushed)
			continue
		}
		if batch = append(batch, completed(item.event, item.finish)); len(batch) >= batchSize {
			batch = l.appendBatch(batch)
		}
	}
	l.appendBatch(batch)
}

// appendBatch appends the events of batch, logging those it could not,
// and returns batch emptied.
func (l *Log) appendBatch(batch []Event) []Event {
	if len(batch) == 0 {
		return batch
	}
	if err := l.store.AppendAuditEvents(context.Background(), batch); err != nil {
		for _, e := range batch {
			l.log.Error("could not record an audit event", "action", e.Action, "actor", e.ActorName, "target", e.Target, "err", err)
		}
	}
	clear(batch)
	return batch[:0]
}

// Close writes what is queued and stops the writer; later events are
// appended at once. It is idempotent, and does nothing without a writer.
func (l *Log) Close() {
	if !l.writing {
		return
	}
	l.mu.Lock()
	l.closed = true
	l.room.Broadcast()
	l.mu.Unlock()
	l.signal()
	<-l.written
}

// Flush returns once every event recorded before it is written, or ctx
// ends.
func (l *Log) Flush(ctx context.Context) error {
	done := make(chan struct{})
	if !l.enqueue(queued{flushed: done}) {
		return nil // no writer, or one that wrote everything before closing
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// enqueue queues item for the writer, waiting while the queue is full,
// and wakes the writer when item starts a burst or must not wait; false
// when there is no writer running.
func (l *Log) enqueue(item queued) bool {
	if !l.writing {
		return false
	}
	l.mu.Lock()
	for len(l.queued) >= queueSize && !l.closed {
		l.room.Wait()
	}
	if l.closed {
		l.mu.Unlock()
		return false
	}
	l.queued = append(l.queued, item)
	n := len(l.queued)
	l.mu.Unlock()
	if n == 1 || n == batchSize || item.flushed != nil {
		l.signal()
	}
	return true
}

// Record appends e, stamped with the current time (unless e.At is set);
// empty Details become {} and an empty Outcome OK. With a writer it
// queues e and returns nil: the writer logs a failure to append.
func (l *Log) Record(ctx context.Context, e Event) error {
	return l.RecordLater(ctx, e, nil)
}

// RecordLater is Record with finish, which completes e (typically its
// Action and Details, from a request's body) before it is appended: with
// a writer on the writer's goroutine, off the path of the request e
// describes, else at once. finish must use only values it owns (never a
// request's context or anything pooled that is reused once the request
// ends); a nil finish changes nothing.
func (l *Log) RecordLater(ctx context.Context, e Event, finish func(*Event)) error {
	if e.At.IsZero() {
		e.At = l.now()
	}
	if l.enqueue(queued{event: e, finish: finish}) {
		return nil
	}
	_, err := l.store.AppendAuditEvent(ctx, completed(e, finish))
	return err
}

// completed returns e completed by finish (when set), with empty Details
// as {} and an empty Outcome as OK.
func completed(e Event, finish func(*Event)) Event {
	if finish != nil {
		finish(&e)
	}
	if len(e.Details) == 0 {
		e.Details = json.RawMessage("{}")
	}
	if e.Outcome == "" {
		e.Outcome = OK
	}
	return e
}

// Page is one page of the audit log, newest first.
type Page struct {
	Events []Event
	// Older is the Filter.Before of the next (older) page, 0 when
	// this is the last one.
	Older int64
}

// Page returns the events f selects, starting at f.Before, at most
// f.Limit (bounded by PageSize) of them.
func (l *Log) Page(ctx context.Context, f Filter) (Page, error) {
	if err := l.Flush(ctx); err != nil && ctx.Err() != nil {
		return Page{}, err
	}
	if f.Limit <= 0 || f.Limit > PageSize {
		f.Limit = PageSize
	}
	want := f.Limit
	f.Limit++ // one more says whether there is an older page
	events, err := l.store.ListAuditEvents(ctx, f)
	if err != nil {
		return Page{}, err
	}
	p := Page{Events: events}
	if len(events) > want {
		p.Events = events[:want]
		p.Older = p.Events[want-1].ID
	}
	return p, nil
}

// Each calls fn with every event f selects, newest first, reading the log
// one page at a time; it stops at fn's first error and returns it.
func (l *Log) Each(ctx context.Context, f Filter, fn func(Event) error) error {
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
