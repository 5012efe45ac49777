package store

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// TestAuditWriter: events recorded through the background writer are all
// appended, in order; a page reads every event recorded before it; Close
// writes what is queued, and events recorded after it are appended at
// once.
func TestAuditWriter(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	var logged bytes.Buffer
	w := backend.NewAuditWriter(d, slog.New(slog.NewTextHandler(&logged, nil)))
	const n = 300
	for i := range n {
		if err := w.Record(ctx, backend.AuditEvent{ActorName: "ada", Via: backend.ViaBrowser, Action: "tool.call", Target: "session 1", Outcome: strings.Repeat("x", i%3+1)}); err != nil {
			t.Fatal(err)
		}
	}
	p, err := w.Page(ctx, backend.AuditFilter{Limit: backend.AuditPageSize})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Events) != backend.AuditPageSize || p.Older == 0 {
		t.Fatalf("the first page after %d records holds %d events (older %d)", n, len(p.Events), p.Older)
	}
	count := 0
	if err := w.Each(ctx, backend.AuditFilter{}, func(backend.AuditEvent) error { count++; return nil }); err != nil || count != n {
		t.Fatalf("Each saw %d events (%v), want %d", count, err, n)
	}
	if err := w.Record(ctx, backend.AuditEvent{ActorName: "ada", Via: backend.ViaBrowser, Action: "signout"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	w.Close()
	if err := w.Record(ctx, backend.AuditEvent{ActorName: "ada", Via: backend.ViaBrowser, Action: "signin"}); err != nil {
		t.Fatalf("Record after Close: %v", err)
	}
	events, err := d.ListAuditEvents(ctx, backend.AuditFilter{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 || events[0].Action != "signin" || events[1].Action != "signout" {
		t.Fatalf("the newest events are %+v, want signin after signout", events)
	}
	if logged.Len() != 0 {
		t.Errorf("the writer logged: %s", logged.String())
	}
}
