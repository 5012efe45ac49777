package store

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend/audit"
)

// TestAuditWriter: events recorded through the background writer are all
// appended, in order; a page reads every event recorded before it; Close
// writes what is queued, and events recorded after it are appended at
// once.
func TestAuditWriter(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	var logged bytes.Buffer
	w := audit.NewWriter(d, slog.New(slog.NewTextHandler(&logged, nil)))
	const n = 300
	for i := range n {
		if err := w.Record(ctx, audit.Event{ActorName: "ada", Via: audit.ViaBrowser, Action: "tool.call", Target: "session 1", Outcome: strings.Repeat("x", i%3+1)}); err != nil {
			t.Fatal(err)
		}
	}
	p, err := w.Page(ctx, audit.Filter{Limit: audit.PageSize})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Events) != audit.PageSize || p.Older == 0 {
		t.Fatalf("the first page after %d records holds %d events (older %d)", n, len(p.Events), p.Older)
	}
	count := 0
	if err := w.Each(ctx, audit.Filter{}, func(audit.Event) error { count++; return nil }); err != nil || count != n {
		t.Fatalf("Each saw %d events (%v), want %d", count, err, n)
	}
	if err := w.Record(ctx, audit.Event{ActorName: "ada", Via: audit.ViaBrowser, Action: "signout"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	w.Close()
	if err := w.Record(ctx, audit.Event{ActorName: "ada", Via: audit.ViaBrowser, Action: "signin"}); err != nil {
		t.Fatalf("Record after Close: %v", err)
	}
	events, err := d.ListAuditEvents(ctx, audit.Filter{Limit: 2})
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
