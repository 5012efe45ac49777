package store

import (
	"reflect"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// TestServerRoots stores a server's roots in a real database file and reads
// them back in order, replaced on update, and empty (not nil-vs-missing
// errors) for a server saved without any; they survive reopening.
func TestServerRoots(t *testing.T) {
	ctx := testContext(t)
	path := t.TempDir() + "/roots.db"
	d := MustOpenPath(t, path)

	roots := []backend.Root{{URI: "file:///work/project", Name: "Project (main)"}, {URI: "file:///tmp"}}
	srv := backend.Server{Name: "with roots", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:1/mcp", Roots: roots}
	id := MustCreateServer(t, d, srv)
	bareID := MustCreateServer(t, d, stdioServer("bare"))

	got, err := d.GetServer(ctx, id)
	if err != nil || !reflect.DeepEqual(got.Roots, roots) {
		t.Fatalf("GetServer roots = %+v, %v; want %+v", got.Roots, err, roots)
	}
	if bare, err := d.GetServer(ctx, bareID); err != nil || len(bare.Roots) != 0 {
		t.Errorf("a server saved without roots has %+v, %v", bare.Roots, err)
	}
	var raw string
	if err := d.db.GetContext(ctx, &raw, `SELECT roots FROM servers WHERE id = ?`, bareID); err != nil || raw != "[]" {
		t.Errorf("roots column of a server without roots = %q, %v; want []", raw, err)
	}

	got.Roots = []backend.Root{{URI: "file:///srv/other", Name: "Other"}}
	if err := d.UpdateServer(ctx, got); err != nil {
		t.Fatalf("UpdateServer: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d2 := MustOpenPath(t, path)
	again, err := d2.GetServer(ctx, id)
	if want := []backend.Root{{URI: "file:///srv/other", Name: "Other"}}; err != nil || !reflect.DeepEqual(again.Roots, want) {
		t.Errorf("after update and reopen, roots = %+v, %v; want %+v", again.Roots, err, want)
	}
}
