package web_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/store"
)

// syncBuffer is a bytes.Buffer safe for concurrent use, for logs.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestRecordingFailures makes the database refuse writes, as a full disk
// or a read-only file does, while a session is open. SQLite keeps both
// conditions per connection, so they are simulated with a pragma that
// store.WithConnectionPragmas runs on every connection: max_page_count
// caps the file at its current size (SQLITE_FULL, "database or disk is
// full"); query_only refuses every write (SQLITE_READONLY, "attempt to
// write a readonly database", what a file SQLite cannot write gives). A
// chmod would not do: the tests may run as root, and a descriptor already
// open for writing keeps writing after a chmod anyway.
//
// While writes fail, every page shows a banner, the log says why, and
// calls and new sessions are refused with that reason. Once writes work
// again, calls go through, and every frame accepted before or during the
// failure is stored.
func TestRecordingFailures(t *testing.T) {
	for _, tc := range []struct {
		name, pragma, reason string
	}{
		{"disk full", "PRAGMA max_page_count = 1", "database or disk is full"},
		{"read-only database", "PRAGMA query_only = ON", "attempt to write a readonly database"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var failing atomic.Bool
			logs := &syncBuffer{}
			d := mustDashboardWith(t, dashboardOptions{log: logs, store: []store.Option{store.WithConnectionPragmas(func() []string {
				if failing.Load() {
					return []string{tc.pragma}
				}
				return nil
			})}})
			token := d.MustCSRF(t)
			srv := d.MustAPIServer(t, sdkStdioServer("sdk"))
			sess := d.MustAPISession(t, srv.ID)
			serverPage := fmt.Sprintf("/servers/%d", srv.ID)
			if r := d.get(t, serverPage); r.Status != http.StatusOK || strings.Contains(r.Body, `data-testid="recording-error"`) {
				t.Fatalf("server page before the failure: %d\n%s", r.Status, r.Body)
			}
			d.mustEcho(t, sess.ID, "before")

			// Calls answered before the recorder notices are fine: their
			// frames wait in the recorder until they can be stored.
			failing.Store(true)
			var answered []string
			var refused toolCall
			for i := 0; ; i++ {
				text := fmt.Sprintf("while failing %d %s", i, strings.Repeat("x", 2000))
				r := d.callTool(t, sess.ID, "echo", map[string]any{"text": text}, 0)
				if r.Status == http.StatusOK {
					answered = append(answered, text)
				} else {
					refused = r
					break
				}
				if i == 500 {
					t.Fatal("500 calls went through while the database refuses writes")
				}
			}
			t.Logf("%d calls answered before the recorder noticed", len(answered))
			if refused.Status != http.StatusBadGateway || !strings.Contains(refused.Error, "Recording is failing, so nothing is sent") ||
				!strings.Contains(refused.Error, tc.reason) {
				t.Errorf("refused call: %d %s", refused.Status, refused.Body)
			}

			// The server page carries the banner; the tool card says why
			// the call was refused; the console refuses raw frames too.
			page := d.get(t, serverPage)
			if page.Status != http.StatusOK || !strings.Contains(page.Body, `data-testid="recording-error"`) || !strings.Contains(page.Body, tc.reason) {
				t.Errorf("server page while recording fails: %d\n%s", page.Status, page.Body)
			}
			if r := d.get(t, "/sessions"); !strings.Contains(r.Body, `data-testid="recording-error"`) {
				t.Errorf("the sessions page has no recording banner:\n%s", r.Body)
			}
			card := d.htmxPost(t, fmt.Sprintf("/sessions/%d/tools/call?card=0", sess.ID), token, url.Values{"_tool": {"echo"}, "arg.text": {"card"}})
			if !strings.Contains(card.Body, `data-outcome="failure"`) || !strings.Contains(card.Body, "Recording is failing") {
				t.Errorf("tool card while recording fails: %d\n%s", card.Status, card.Body)
			}
			raw := d.newRequest(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/raw", sess.ID), strings.NewReader(`{"jsonrpc":"2.0","id":99,"method":"ping"}`))
			raw.Header.Set("Content-Type", "application/json")
			if r := d.do(t, raw); r.Status != http.StatusBadGateway || !strings.Contains(r.Body, "Recording is failing") {
				t.Errorf("raw frame while recording fails: %d %s", r.Status, r.Body)
			}
			var openErr apiError
			if r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID), nil, &openErr); r.Status != http.StatusBadGateway ||
				!strings.Contains(openErr.Error, "Recording is failing, so no session is opened") || !strings.Contains(openErr.Error, tc.reason) {
				t.Errorf("new session while recording fails: %d %s", r.Status, r.Body)
			}
			if log := logs.String(); !strings.Contains(log, `level=ERROR msg="recording failed"`) || !strings.Contains(log, tc.reason) {
				t.Errorf("the log does not say that recording fails:\n%s", log)
			}

			// The condition clears: the recorder's retry succeeds, calls work.
			failing.Store(false)
			deadline := time.Now().Add(faultWait)
			for {
				r := d.callTool(t, sess.ID, "echo", map[string]any{"text": "after"}, 0)
				if r.Status == http.StatusOK {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("calls still refused after the database accepts writes again: %d %s", r.Status, r.Body)
				}
				time.Sleep(50 * time.Millisecond)
			}
			if r := d.get(t, serverPage); strings.Contains(r.Body, `data-testid="recording-error"`) {
				t.Errorf("the banner outlived the failure:\n%s", r.Body)
			}

			// Nothing accepted was lost: every answered call's request and
			// result are stored, and frame ids have no gap.
			ctx, cancel := context.WithTimeout(context.Background(), faultWait)
			defer cancel()
			if err := d.rec.Flush(ctx); err != nil {
				t.Fatalf("Flush: %v", err)
			}
			frames, err := d.db.ListFrames(ctx, backend.FrameQuery{SessionID: sess.ID})
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			stored := map[string]int{}
			for _, f := range frames {
				ids = append(ids, f.ID)
				for _, text := range answered {
					if bytes.Contains(f.Body, []byte(text)) {
						stored[text]++
					}
				}
			}
			for _, text := range answered {
				if stored[text] != 2 {
					t.Errorf("call %.20q: %d of its request and result stored", text, stored[text])
				}
			}
			maxID, err := d.db.MaxFrameID(ctx)
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(ids)
			if int64(len(ids)) != maxID || ids[0] != 1 || ids[len(ids)-1] != maxID {
				t.Errorf("stored %d frames with ids %d..%d, want 1..%d without a gap", len(ids), ids[0], ids[len(ids)-1], maxID)
			}
		})
	}
}
