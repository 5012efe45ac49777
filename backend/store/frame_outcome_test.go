package store

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// TestFrameOutcomeMigrationBackfills applies migration 0021 to frames
// recorded before it: results whose isError is true, however they are
// spelt and wherever in a long body, get is_error; nothing else does.
func TestFrameOutcomeMigrationBackfills(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	d := MustOpenPath(t, path)
	ctx := testContext(t)
	sid := MustCreateSession(t, d, 0, "demo")
	for _, stmt := range []string{`ALTER TABLE frames DROP COLUMN is_error`, `ALTER TABLE frames DROP COLUMN id_clash`,
		`ALTER TABLE frames DROP COLUMN id_clash_frame`, `DELETE FROM migrations WHERE name = '0021_frame_outcome.sql'`} {
		if _, err := d.db.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	long := `{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"` + string(bodyOfSize(backend.MaxBodyPreview+100)) + `"}],"isError":true}}`
	frames := []struct {
		rpcType, body string
		want          bool
	}{
		{"result", `{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}`, true},
		{"result", `{"jsonrpc":"2.0", "id":2, "result": {"isError" : true}}`, true},
		{"result", `{"jsonrpc":"2.0","id":3,"result":{"isError":false}}`, false},
		{"result", `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"\"isError\":true"}]}}`, false},
		{"request", `{"jsonrpc":"2.0","id":5,"method":"x","params":{"isError":true}}`, false},
		{"result", long, true},
		{"result", `{"jsonrpc":"2.0","id":7,"result":{"isError":tru`, false},
	}
	for i, f := range frames {
		head := f.body[:min(len(f.body), backend.MaxBodyPreview)]
		if _, err := d.db.ExecContext(ctx, `INSERT INTO frames (id, session_id, time, direction, kind, rpc_type, rpc_id, method, body, body_size)
			VALUES (?, ?, ?, 'in', 'message', ?, ?, 'tools/call', ?, ?)`, i+1, sid, time.Now().UnixNano(), f.rpcType, i+1, []byte(head), len(f.body)); err != nil {
			t.Fatal(err)
		}
		if len(head) < len(f.body) {
			if _, err := d.db.ExecContext(ctx, `INSERT INTO frame_bodies (frame_id, body) VALUES (?, ?)`, i+1, []byte(f.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d = MustOpenPath(t, path)
	for i, f := range frames {
		got, err := d.GetFrame(ctx, int64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		if got.ToolError != f.want {
			t.Errorf("frame %d (%.60s): ToolError = %t after the migration, want %t", i+1, f.body, got.ToolError, f.want)
		}
	}
}
