package store

import (
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// TestServerEraDefault: the store is where an unset era becomes legacy. A
// server created or updated without an era reads back legacy, from
// GetServer and ListServers, after reopening the file; a set era is kept.
func TestServerEraDefault(t *testing.T) {
	ctx := testContext(t)
	path := t.TempDir() + "/era.db"
	d := MustOpenPath(t, path)

	bareID := MustCreateServer(t, d, stdioServer("no era"))
	modern := stdioServer("modern")
	modern.Era = backend.EraModern
	modernID := MustCreateServer(t, d, modern)
	cleared := stdioServer("cleared")
	cleared.Era = backend.EraAuto
	clearedID := MustCreateServer(t, d, cleared)
	cleared.ID, cleared.Era = clearedID, ""
	if err := d.UpdateServer(ctx, cleared); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	d = MustOpenPath(t, path)
	want := map[int64]backend.Era{bareID: backend.EraLegacy, modernID: backend.EraModern, clearedID: backend.EraLegacy}
	for id, era := range want {
		if s, err := d.GetServer(ctx, id); err != nil || s.Era != era {
			t.Errorf("GetServer(%d).Era = %q, %v; want %q", id, s.Era, err, era)
		}
	}
	list, err := d.ListServers(ctx)
	if err != nil || len(list) != len(want) {
		t.Fatalf("ListServers = %d servers, %v", len(list), err)
	}
	for _, s := range list {
		if s.Era != want[s.ID] {
			t.Errorf("ListServers: %s has era %q, want %q", s.Name, s.Era, want[s.ID])
		}
	}
}
