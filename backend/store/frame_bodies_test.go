package store

import (
	"bytes"
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/migrations"
)

// bodyOfSize is a body of n bytes whose every byte tells its place.
func bodyOfSize(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(i%26)
	}
	return b
}

func TestLargeBodiesAreReadOnlyWhenAskedFor(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	sid := MustCreateSession(t, d, 0, "s")
	sizes := []int{0, 10, backend.MaxBodyPreview, backend.MaxBodyPreview + 1, 3 << 20}
	var frames []backend.Frame
	for i, n := range sizes {
		frames = append(frames, backend.Frame{ID: int64(i + 1), SessionID: sid, Time: time.Now(), Direction: mcpclient.Inbound,
			Kind: mcpclient.KindMessage, Body: bodyOfSize(n)})
	}
	if err := d.InsertFrames(ctx, frames, nil); err != nil {
		t.Fatal(err)
	}
	var inFrames int
	if err := d.db.GetContext(ctx, &inFrames, `SELECT MAX(length(body)) FROM frames`); err != nil || inFrames != backend.MaxBodyPreview {
		t.Errorf("the frames table holds bodies of up to %d bytes (%v), want %d", inFrames, err, backend.MaxBodyPreview)
	}

	whole, err := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range whole {
		if !bytes.Equal(f.Body, frames[i].Body) || f.BodySize != sizes[i] || f.Partial() {
			t.Errorf("frame %d read whole: %d bytes (size %d), want %d", f.ID, len(f.Body), f.BodySize, sizes[i])
		}
		got, err := d.GetFrame(ctx, f.ID)
		if err != nil || !bytes.Equal(got.Body, frames[i].Body) {
			t.Errorf("GetFrame(%d): %d bytes, %v; want %d", f.ID, len(got.Body), err, sizes[i])
		}
	}
	for _, preview := range []int{100, backend.MaxBodyPreview, backend.MaxBodyPreview * 4} {
		previews, err := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid, BodyPreview: preview})
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range previews {
			want := frames[i].Body[:min(sizes[i], preview, backend.MaxBodyPreview)]
			if !bytes.Equal(f.Body, want) || f.BodySize != sizes[i] || f.Size() != sizes[i] || f.Partial() != (len(want) < sizes[i]) {
				t.Errorf("frame %d with a %d-byte preview: %d bytes (size %d, partial %v), want %d of %d",
					f.ID, preview, len(f.Body), f.BodySize, f.Partial(), len(want), sizes[i])
			}
		}
	}

	// A session's deletion takes the large bodies with it.
	if _, err := d.db.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, sid); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := d.db.GetContext(ctx, &left, `SELECT COUNT(*) FROM frame_bodies`); err != nil || left != 0 {
		t.Errorf("%d large bodies (%v) outlive their session", left, err)
	}
}

// TestFrameBodiesMigrationMovesLargeBodies opens a database made before
// frame_bodies existed and finds its bodies, large and small, whole.
func TestFrameBodiesMigrationMovesLargeBodies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	ctx := context.Background()
	old, err := sql.Open("sqlite3", DSN(path))
	if err != nil {
		t.Fatal(err)
	}
	init, err := fs.ReadFile(migrations.FS, "0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	small, large := []byte(`{"jsonrpc":"2.0","method":"x"}`), bodyOfSize(1<<20)
	for _, stmt := range []struct {
		sql  string
		args []any
	}{
		{string(init), nil},
		{`CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`, nil},
		{`INSERT INTO migrations VALUES ('0001_init.sql', 1)`, nil},
		{`INSERT INTO sessions (id, server_name, transport, status, started_at) VALUES (1, 's', 'stdio', 'closed', 1)`, nil},
		{`INSERT INTO frames (id, session_id, time, direction, kind, body) VALUES (1, 1, 1, 'in', 'message', ?), (2, 1, 2, 'in', 'message', ?)`, []any{small, large}},
	} {
		if _, err := old.ExecContext(ctx, stmt.sql, stmt.args...); err != nil {
			t.Fatalf("%.60s: %v", stmt.sql, err)
		}
	}
	old.Close()

	d := MustOpenPath(t, path)
	frames, err := d.ListFrames(ctx, backend.FrameQuery{SessionID: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 2 || !bytes.Equal(frames[0].Body, small) || !bytes.Equal(frames[1].Body, large) ||
		frames[0].BodySize != len(small) || frames[1].BodySize != len(large) {
		t.Fatalf("after the migration: %d frames, want the small and the large body whole", len(frames))
	}
	var inFrames int
	if err := d.db.GetContext(ctx, &inFrames, `SELECT length(body) FROM frames WHERE id = 2`); err != nil || inFrames != backend.MaxBodyPreview {
		t.Errorf("the migrated large frame keeps %d bytes (%v) in frames, want %d", inFrames, err, backend.MaxBodyPreview)
	}
}
