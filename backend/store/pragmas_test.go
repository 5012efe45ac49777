package store

import (
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

func TestWithConnectionPragmasTakesEffectAtOnce(t *testing.T) {
	var pragma atomic.Pointer[string]
	d, err := Open(testContext(t), filepath.Join(t.TempDir(), "playground.db"), WithConnectionPragmas(func() []string {
		if p := pragma.Load(); p != nil {
			return []string{*p}
		}
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := testContext(t)
	sid := MustCreateSession(t, d, 0, "s")
	nextID := int64(1)
	insert := func() error {
		frames := make([]backend.Frame, 20)
		for i := range frames {
			frames[i] = backend.Frame{ID: nextID + int64(i), SessionID: sid, Time: time.Now(), Direction: mcpclient.Inbound,
				Kind: mcpclient.KindLog, Body: []byte(strings.Repeat("x", 1000))}
		}
		err := d.InsertFrames(ctx, frames, nil)
		if err == nil {
			nextID += int64(len(frames))
		}
		return err
	}
	for _, tc := range []struct{ pragma, want string }{
		{"PRAGMA max_page_count = 1", "database or disk is full"},
		{"PRAGMA query_only = ON", "attempt to write a readonly database"},
	} {
		if err := insert(); err != nil {
			t.Fatalf("before %s: %v", tc.pragma, err)
		}
		pragma.Store(&tc.pragma)
		if err := insert(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("insert under %s: %v, want %q", tc.pragma, err, tc.want)
		}
		// Reads still work.
		if _, err := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid}); err != nil {
			t.Errorf("read under %s: %v", tc.pragma, err)
		}
		pragma.Store(nil)
		if err := insert(); err != nil {
			t.Errorf("insert after lifting %s: %v", tc.pragma, err)
		}
	}
	frames, err := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(frames)) != nextID-1 {
		t.Errorf("stored %d frames, want %d", len(frames), nextID-1)
	}
}
