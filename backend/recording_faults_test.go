package backend_test

import (
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/mcpclient"
)

// TestPoolRefusesEverySendWhileRecordingFails checks each way the pool
// talks to a server: connecting, listing tools, calls and raw frames are
// all refused, with the reason, while the recorder cannot write, and work
// again once it can.
func TestPoolRefusesEverySendWhileRecordingFails(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	fs := &flakyStore{FrameStore: db}
	hub := backend.NewHub(0)
	rec, err := backend.NewRecorder(backendtest.Context(t), fs, hub, backendtest.Logger(t), backend.RecorderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	pool := backend.NewPool(db, db, rec, hub, backend.NewInbox(hub, time.Minute), backendtest.Logger(t), mcpclient.Implementation{Name: "t", Version: "0"})
	defer pool.Close()
	srvID, err := db.CreateServer(backendtest.Context(t), httpServer("sdk", MustSDKHTTPServer(t)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := backendtest.Context(t)
	sess, err := pool.Connect(ctx, srvID)
	if err != nil {
		t.Fatal(err)
	}
	fs.failing.Store(true)
	if _, err := pool.Call(ctx, sess.ID, "ping", nil); err != nil {
		t.Fatalf("ping before the recorder notices: %v", err)
	}
	for deadline := time.Now().Add(20 * time.Second); rec.Failure() == nil; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the recorder never reported the failure")
		}
	}
	before, err := db.ListSessions(ctx, 0, 0, 100)
	if err != nil {
		t.Fatal(err)
	}

	refused := func(what, prefix string, err error) {
		t.Helper()
		if backend.ErrorCodeOf(err) != backend.EUnavailable || !strings.HasPrefix(backend.ErrorMessageOf(err), prefix) ||
			!strings.Contains(backend.ErrorMessageOf(err), "disk full") {
			t.Errorf("%s while recording fails: %v", what, err)
		}
	}
	_, err = pool.Connect(ctx, srvID)
	refused("Connect", "Recording is failing, so no session is opened: ", err)
	_, err = pool.Tools(ctx, sess.ID, true)
	refused("Tools", "Recording is failing, so nothing is sent: ", err)
	_, err = pool.Call(ctx, sess.ID, "ping", nil)
	refused("Call", "Recording is failing, so nothing is sent: ", err)
	refused("SendRaw", "Recording is failing, so nothing is sent: ", pool.SendRaw(ctx, sess.ID, []byte(`{"jsonrpc":"2.0","method":"x"}`)))
	if after, err := db.ListSessions(ctx, 0, 0, 100); err != nil || len(after) != len(before) {
		t.Errorf("a refused Connect stored a session: %d sessions, then %d (%v)", len(before), len(after), err)
	}

	fs.failing.Store(false)
	if err := rec.Flush(ctx); err != nil {
		t.Fatalf("Flush after recovery: %v", err)
	}
	if tools, err := pool.Tools(ctx, sess.ID, true); err != nil || len(tools) == 0 {
		t.Errorf("Tools after recovery: %v, %v", tools, err)
	}
	if _, err := pool.Call(ctx, sess.ID, "ping", nil); err != nil {
		t.Errorf("Call after recovery: %v", err)
	}
	second, err := pool.Connect(ctx, srvID)
	if err != nil {
		t.Fatalf("Connect after recovery: %v", err)
	}
	if err := pool.Disconnect(ctx, second.ID); err != nil {
		t.Error(err)
	}
}
