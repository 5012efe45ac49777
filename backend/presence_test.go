package backend_test

import (
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// TestPresence counts each person once with their pages, tells the
// session's viewers of every change, and forgets a page once it leaves
// (leaving twice changes nothing).
func TestPresence(t *testing.T) {
	hub := backend.NewHub(16)
	sub := hub.Subscribe(7)
	defer sub.Close()
	p := backend.NewPresence(hub)
	changed := func(what string) {
		t.Helper()
		select {
		case ev := <-sub.C:
			if !ev.PresenceChanged || ev.SessionID != 7 {
				t.Fatalf("%s: event %+v, want a presence change of session 7", what, ev)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: no presence event", what)
		}
	}

	leaveBob := p.Join(7, "bob", backend.RoleViewer)
	changed("bob joins")
	leaveAlice1 := p.Join(7, "alice", backend.RoleEditor)
	changed("alice joins")
	leaveAlice2 := p.Join(7, "alice", backend.RoleEditor)
	changed("alice opens a second page")
	other := p.Join(8, "carol", backend.RoleAdmin)
	defer other()

	want := []backend.Watcher{{Name: "alice", Role: backend.RoleEditor, Pages: 2}, {Name: "bob", Role: backend.RoleViewer, Pages: 1}}
	if got := p.Watching(7); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("watching 7 = %+v, want %+v", got, want)
	}
	leaveAlice1()
	changed("alice closes a page")
	leaveAlice1()
	leaveBob()
	changed("bob leaves")
	if got := p.Watching(7); len(got) != 1 || got[0].Name != "alice" || got[0].Pages != 1 {
		t.Fatalf("watching 7 after bob left = %+v", got)
	}
	leaveAlice2()
	changed("alice leaves")
	if got := p.Watching(7); len(got) != 0 {
		t.Fatalf("watching 7 after everyone left = %+v", got)
	}
	select {
	case ev := <-sub.C:
		t.Fatalf("leaving twice published %+v", ev)
	default:
	}
}
