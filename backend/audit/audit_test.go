package audit_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend/audit"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/store"
)

// countedAudit is the SQLite store, counting the writes of audit events.
type countedAudit struct {
	*store.DB
	singles, batches atomic.Int64
}

func (s *countedAudit) AppendAuditEvent(ctx context.Context, e audit.Event) (audit.Event, error) {
	s.singles.Add(1)
	return s.DB.AppendAuditEvent(ctx, e)
}

func (s *countedAudit) AppendAuditEvents(ctx context.Context, events []audit.Event) error {
	s.batches.Add(1)
	return s.DB.AppendAuditEvents(ctx, events)
}

func auditEvent(i int) audit.Event {
	return audit.Event{ActorID: 1, ActorName: "ada", Via: audit.ViaToken, Action: "tool.call", Target: fmt.Sprintf("session %d", i)}
}

// TestAuditWriterBatches: a burst of requests is one write of the audit
// log, and a page read right after shows every event of the burst.
func TestAuditWriterBatches(t *testing.T) {
	ctx := backendtest.Context(t)
	db := &countedAudit{DB: backendtest.MustOpenDB(t)}
	log := audit.NewWriter(db, backendtest.Logger(t))
	t.Cleanup(log.Close)
	const n = 100
	for i := range n {
		if err := log.Record(ctx, auditEvent(i)); err != nil {
			t.Fatal(err)
		}
	}
	page, err := log.Page(ctx, audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Events) != n || page.Events[0].Target != fmt.Sprintf("session %d", n-1) || page.Events[n-1].Target != "session 0" {
		t.Fatalf("the page after %d events holds %d, newest %+v", n, len(page.Events), page.Events[0])
	}
	if s, b := db.singles.Load(), db.batches.Load(); s != 0 || b != 1 {
		t.Errorf("%d events took %d single appends and %d batches, want one batch", n, s, b)
	}
}

// TestAuditWriterLingers: an event nobody reads is written on its own
// soon after it was recorded, and Close writes what is still queued.
func TestAuditWriterLingers(t *testing.T) {
	ctx := backendtest.Context(t)
	db := backendtest.MustOpenDB(t)
	log := audit.NewWriter(db, backendtest.Logger(t))
	if err := log.Record(ctx, auditEvent(1)); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		events, err := db.ListAuditEvents(ctx, audit.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if len(events) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("an event recorded 5 s ago is not in the database")
		}
	}
	for i := range 3 {
		if err := log.Record(ctx, auditEvent(2+i)); err != nil {
			t.Fatal(err)
		}
	}
	log.Close()
	events, err := db.ListAuditEvents(ctx, audit.Filter{})
	if err != nil || len(events) != 4 {
		t.Fatalf("after Close the database holds %d events (%v), want 4", len(events), err)
	}
	// Once closed, Record appends at once.
	if err := log.Record(ctx, auditEvent(9)); err != nil {
		t.Fatal(err)
	}
	if events, _ := db.ListAuditEvents(ctx, audit.Filter{}); len(events) != 5 {
		t.Errorf("an event recorded after Close: %d events, want 5", len(events))
	}
}

// TestAuditRecordLater: the function that completes an event runs on the
// writer, not on the recording request's path, and its Action and Details
// are what is stored; without a writer it runs before Record returns.
func TestAuditRecordLater(t *testing.T) {
	ctx := backendtest.Context(t)
	db := backendtest.MustOpenDB(t)
	log := audit.NewWriter(db, backendtest.Logger(t))
	t.Cleanup(log.Close)
	release := make(chan struct{})
	finish := func(e *audit.Event) {
		<-release
		e.Action, e.Details = "tool.call", []byte(`{"name":"echo"}`)
	}
	recorded := make(chan error, 1)
	go func() { recorded <- log.RecordLater(ctx, auditEvent(1), finish) }()
	select {
	case err := <-recorded:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("RecordLater waited for the event to be completed")
	}
	close(release)
	page, err := log.Page(ctx, audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Events) != 1 || page.Events[0].Action != "tool.call" || string(page.Events[0].Details) != `{"name":"echo"}` || page.Events[0].Outcome != audit.OK {
		t.Fatalf("stored %+v, want the completed event", page.Events)
	}

	direct := audit.NewLog(db)
	if err := direct.RecordLater(ctx, auditEvent(2), func(e *audit.Event) { e.Action = "prompt.get" }); err != nil {
		t.Fatal(err)
	}
	if events, _ := db.ListAuditEvents(ctx, audit.Filter{Action: "prompt.get"}); len(events) != 1 || string(events[0].Details) != "{}" {
		t.Errorf("without a writer: %+v, want one prompt.get with {} details", events)
	}
}

// TestAuditWriterQueueBound: past queueSize waiting events Record waits
// for the writer instead of dropping one, and every event is written.
func TestAuditWriterQueueBound(t *testing.T) {
	ctx := backendtest.Context(t)
	db := backendtest.MustOpenDB(t)
	log := audit.NewWriter(db, backendtest.Logger(t))
	const n = 3000 // about three queues' worth
	for i := range n {
		if err := log.Record(ctx, auditEvent(i)); err != nil {
			t.Fatal(err)
		}
	}
	log.Close()
	count := 0
	for before := int64(0); ; {
		events, err := db.ListAuditEvents(ctx, audit.Filter{Before: before, Limit: audit.PageSize})
		if err != nil {
			t.Fatal(err)
		}
		count += len(events)
		if len(events) < audit.PageSize {
			break
		}
		before = events[len(events)-1].ID
	}
	if count != n {
		t.Errorf("%d events recorded, %d written", n, count)
	}
}
