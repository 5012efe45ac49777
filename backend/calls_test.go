package backend_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/sdktest"
)

// TestPoolCancelCall runs a call that reports progress and then waits,
// over stdio: its progress reaches the hub under its id, a second call
// with the same id is refused, CancelCall ends it with ErrCallCancelled
// and the client tells the server with notifications/cancelled.
// Cancelling it again, or a call that finished, is harmless; an unknown id
// is not found.
func TestPoolCancelCall(t *testing.T) {
	e := MustEnv(t)
	sess := e.MustConnect(t, e.MustServer(t, sdktest.StdioServer("sdk")))
	sub := e.Hub.Subscribe(sess.ID)
	defer sub.Close()
	ctx := backendtest.Context(t)

	type outcome struct {
		res backend.CallResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := e.Pool.CallWith(ctx, sess.ID, "tools/call", json.RawMessage(`{"name":"progress_hang","arguments":{}}`),
			backend.CallOptions{ID: "c1", Progress: true})
		done <- outcome{res, err}
	}()

	var last backend.CallProgress
	timeout := time.After(10 * time.Second)
	for last.Progress < 2 {
		select {
		case ev := <-sub.C:
			if ev.Progress != nil {
				if ev.Progress.CallID != "c1" {
					t.Fatalf("progress of call %q, want c1", ev.Progress.CallID)
				}
				last = *ev.Progress
			}
		case o := <-done:
			t.Fatalf("the call ended before its progress arrived: %v", o.err)
		case <-timeout:
			t.Fatal("no progress event of the call")
		}
	}
	if last.Total != 2 || last.Message != "step 2" {
		t.Errorf("last progress = %+v, want 2 of 2 with message", last)
	}

	_, err := e.Pool.CallWith(ctx, sess.ID, "tools/call", json.RawMessage(`{"name":"echo","arguments":{"text":"x"}}`), backend.CallOptions{ID: "c1"})
	if backend.ErrorCodeOf(err) != backend.EConflict {
		t.Errorf("a second call with a running id: %v, want a conflict", err)
	}

	if running, err := e.Pool.CancelCall(sess.ID, "c1"); !running || err != nil {
		t.Fatalf("CancelCall(c1) = %v, %v; want true, nil", running, err)
	}
	select {
	case o := <-done:
		if !errors.Is(o.err, backend.ErrCallCancelled) {
			t.Errorf("the cancelled call returned %+v, %v; want ErrCallCancelled", o.res, o.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled call did not return")
	}
	if err := e.Rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := countFrames(t, e, sess.ID, "notifications/cancelled", backend.RPCNotification); n != 1 {
		t.Errorf("%d notifications/cancelled recorded, want 1", n)
	}
	frames, err := e.DB.ListFrames(ctx, backend.FrameQuery{SessionID: sess.ID})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if f.Method == "tools/call" && f.RPCType == backend.RPCRequest && !strings.Contains(string(f.Body), `"progressToken"`) {
			t.Errorf("the tools/call request carries no progressToken: %s", f.Body)
		}
	}

	if running, err := e.Pool.CancelCall(sess.ID, "c1"); running || err != nil {
		t.Errorf("CancelCall(c1) again = %v, %v; want false, nil", running, err)
	}
	res, err := e.Pool.CallWith(ctx, sess.ID, "tools/call", json.RawMessage(`{"name":"echo","arguments":{"text":"x"}}`), backend.CallOptions{ID: "c2"})
	if err != nil || res.Result == nil {
		t.Fatalf("echo: %+v, %v", res, err)
	}
	if running, err := e.Pool.CancelCall(sess.ID, "c2"); running || err != nil {
		t.Errorf("CancelCall of a finished call = %v, %v; want false, nil", running, err)
	}
	if _, err := e.Pool.CancelCall(sess.ID, "never"); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("CancelCall of an unknown call: %v, want not found", err)
	}
}
