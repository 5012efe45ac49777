package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend/audit"
)

// mustAuditEvents appends n events, one a minute from base, alternating
// between two people and two actions, and returns them with their ids.
func mustAuditEvents(t *testing.T, d *DB, base time.Time, n int) []audit.Event {
	t.Helper()
	var out []audit.Event
	for i := range n {
		e := audit.Event{At: base.Add(time.Duration(i) * time.Minute), ActorID: int64(1 + i%2), ActorName: []string{"alice", "bob"}[i%2],
			Via: audit.ViaBrowser, Client: "127.0.0.1", Action: []string{"server.create", "tool.call"}[i%2],
			Target: fmt.Sprintf("server %d", i), Details: json.RawMessage(fmt.Sprintf(`{"n":%d,"note":"50%%_off"}`, i)), Outcome: audit.OK}
		got, err := d.AppendAuditEvent(testContext(t), e)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, got)
	}
	return out
}

func TestAuditEventsListNewestFirstWithFilters(t *testing.T) {
	d := MustOpen(t)
	base := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	all := mustAuditEvents(t, d, base, 10)
	anonymous, err := d.AppendAuditEvent(testContext(t), audit.Event{At: base.Add(time.Hour), ActorName: "mallory", Via: audit.ViaAnonymous,
		Action: "signin.failed", Details: json.RawMessage(`{}`), Outcome: "401 wrong password"})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(events []audit.Event) string {
		var s []string
		for _, e := range events {
			s = append(s, fmt.Sprint(e.ID))
		}
		return strings.Join(s, ",")
	}
	idsOf := func(idx ...int) string {
		var s []string
		for _, i := range idx {
			s = append(s, fmt.Sprint(all[i].ID))
		}
		return strings.Join(s, ",")
	}
	tests := []struct {
		name   string
		filter audit.Filter
		want   string
	}{
		{"everything, newest first", audit.Filter{Limit: 4}, fmt.Sprint(anonymous.ID) + "," + idsOf(9, 8, 7)},
		{"actor, any case", audit.Filter{Actor: "ALICE"}, idsOf(8, 6, 4, 2, 0)},
		{"action prefix", audit.Filter{Action: "tool"}, idsOf(9, 7, 5, 3, 1)},
		{"action prefix is not a substring", audit.Filter{Action: "call"}, ""},
		{"text in the target", audit.Filter{Text: "server 3"}, idsOf(3)},
		{"text in the outcome", audit.Filter{Text: "wrong password"}, fmt.Sprint(anonymous.ID)},
		{"LIKE wildcards are literal", audit.Filter{Text: "%_o", Limit: 2}, idsOf(9, 8)},
		{"a wildcard that is not in the text", audit.Filter{Text: "5_%"}, ""},
		{"time range", audit.Filter{Since: base.Add(2 * time.Minute), Until: base.Add(4 * time.Minute)}, idsOf(3, 2)},
		{"keyset page", audit.Filter{Before: all[5].ID, Actor: "bob"}, idsOf(3, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := d.ListAuditEvents(testContext(t), tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			if ids(got) != tt.want {
				t.Errorf("ids = %s, want %s", ids(got), tt.want)
			}
		})
	}

	got, err := d.ListAuditEvents(testContext(t), audit.Filter{Before: all[1].ID})
	if err != nil || len(got) != 1 {
		t.Fatalf("the oldest event: %v, %v", got, err)
	}
	e := got[0]
	if !e.At.Equal(all[0].At) || e.ActorID != 1 || e.ActorName != "alice" || e.Via != audit.ViaBrowser || e.Client != "127.0.0.1" ||
		e.Action != "server.create" || e.Target != "server 0" || string(e.Details) != `{"n":0,"note":"50%_off"}` || e.Outcome != audit.OK {
		t.Errorf("the event read back differs: %+v", e)
	}
	if got, _ := d.ListAuditEvents(testContext(t), audit.Filter{Actor: "mallory"}); len(got) != 1 || got[0].ActorID != 0 {
		t.Errorf("an anonymous event reads back with an actor id: %+v", got)
	}
}

func TestAuditLogPagesAndEachWalkEveryEventOnce(t *testing.T) {
	d := MustOpen(t)
	all := mustAuditEvents(t, d, time.Now(), 7)
	log := audit.NewLog(d)
	p, err := log.Page(testContext(t), audit.Filter{Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Events) != 3 || p.Events[0].ID != all[6].ID || p.Older != all[4].ID {
		t.Errorf("first page: %d events from %d, older %d; want 3 from %d, older %d", len(p.Events), p.Events[0].ID, p.Older, all[6].ID, all[4].ID)
	}
	last, err := log.Page(testContext(t), audit.Filter{Limit: 3, Before: all[2].ID})
	if err != nil || len(last.Events) != 2 || last.Older != 0 {
		t.Errorf("last page: %+v, %v; want 2 events and no older page", last, err)
	}
	var seen []int64
	if err := log.Each(testContext(t), audit.Filter{Limit: 2}, func(e audit.Event) error {
		seen = append(seen, e.ID)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 7 || seen[0] != all[6].ID || seen[6] != all[0].ID {
		t.Errorf("Each saw %v, want the 7 events newest first", seen)
	}
	if p, err := log.Page(testContext(t), audit.Filter{Limit: 10 * audit.PageSize}); err != nil || len(p.Events) != 7 {
		t.Errorf("a limit above the page size: %d events, %v", len(p.Events), err)
	}
}

func TestAuditEventsCannotBeChangedOrRemoved(t *testing.T) {
	d := MustOpen(t)
	e := mustAuditEvents(t, d, time.Now(), 1)[0]
	for _, q := range []string{
		`UPDATE audit_events SET outcome = 'forged' WHERE id = ?`,
		`DELETE FROM audit_events WHERE id = ?`,
		`INSERT OR REPLACE INTO audit_events (id, at, via, action, outcome) VALUES (?, 0, 'cli', 'forged', 'ok')`,
	} {
		if _, err := d.db.ExecContext(testContext(t), q, e.ID); err == nil || !strings.Contains(err.Error(), "audit events cannot be") {
			t.Errorf("%s: err = %v, want the trigger's refusal", q, err)
		}
	}
	got, err := d.ListAuditEvents(testContext(t), audit.Filter{})
	if err != nil || len(got) != 1 || got[0].Outcome != audit.OK || got[0].Action != "server.create" {
		t.Errorf("after the refused statements: %+v, %v", got, err)
	}
}
