package backend_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/mcpclient"
)

// TestRecorderKeepsDuplicateIDs sends two requests with one id before
// either is answered: both stay pending, the clash is stored on the second
// request and on the first response (paired with the oldest request), and
// the second response pairs with the second request.
func TestRecorderKeepsDuplicateIDs(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	rec := backendtest.MustRecorder(t, db, backend.NewHub(0))
	sid := MustSession(t, db)
	t0 := time.Unix(0, time.Now().UnixNano())
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	MustRecord(t, rec, sid,
		msg(mcpclient.Outbound, at(0), `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"a"}}`),
		msg(mcpclient.Outbound, at(1), `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`),
		msg(mcpclient.Inbound, at(4), `{"jsonrpc":"2.0","id":5,"result":{"content":[]}}`),
		msg(mcpclient.Inbound, at(9), `{"jsonrpc":"2.0","id":5,"result":{"tools":[]}}`),
		// A third use of the id after both were answered is no clash.
		msg(mcpclient.Outbound, at(10), `{"jsonrpc":"2.0","id":5,"method":"ping"}`),
	)
	MustFlush(t, rec)
	frames, err := db.ListFrames(backendtest.Context(t), backend.FrameQuery{SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 5 {
		t.Fatalf("stored %d frames, want 5", len(frames))
	}
	first, second, answer1, answer2, third := frames[0], frames[1], frames[2], frames[3], frames[4]
	ms := int64(time.Millisecond)
	for _, c := range []struct {
		name      string
		f         backend.Frame
		method    string
		pair      int64
		latency   int64
		clash     backend.IDClash
		clashWith int64
	}{
		{"first request", first, "tools/call", answer1.ID, 4 * ms, "", 0},
		{"second request", second, "tools/list", answer2.ID, 8 * ms, backend.ClashDuplicate, first.ID},
		{"first response", answer1, "tools/call", first.ID, 4 * ms, backend.ClashAmbiguous, second.ID},
		{"second response", answer2, "tools/list", second.ID, 8 * ms, "", 0},
		{"third request", third, "ping", 0, 0, "", 0},
	} {
		if c.f.Method != c.method || c.f.PairID != c.pair || c.f.LatencyNS != c.latency || c.f.Clash != c.clash || c.f.ClashFrameID != c.clashWith {
			t.Errorf("%s: method %q pair %d latency %d clash %q with %d; want %q %d %d %q %d", c.name,
				c.f.Method, c.f.PairID, c.f.LatencyNS, c.f.Clash, c.f.ClashFrameID, c.method, c.pair, c.latency, c.clash, c.clashWith)
		}
	}
	if want := "duplicate id: request " + strconv.FormatInt(first.ID, 10) + " still pending"; second.ClashNote() != want {
		t.Errorf("second request's note = %q, want %q", second.ClashNote(), want)
	}
}

// TestRecorderStoresToolErrors checks that the recorder decides once
// whether a result is a tool's failure and stores it, so that the error
// filter finds it however the server spelt it.
func TestRecorderStoresToolErrors(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	rec := backendtest.MustRecorder(t, db, backend.NewHub(0))
	sid := MustSession(t, db)
	now := time.Now()
	MustRecord(t, rec, sid,
		msg(mcpclient.Inbound, now, `{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}`),
		msg(mcpclient.Inbound, now, "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"isError\"\n:\ttrue}}"),
		msg(mcpclient.Inbound, now, `{"jsonrpc":"2.0","id":3,"result":{"\u0069sError":true}}`),
		msg(mcpclient.Inbound, now, `{"jsonrpc":"2.0","id":4,"result":{"isError":false}}`),
		msg(mcpclient.Inbound, now, `{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"\"isError\":true"}]}}`),
		msg(mcpclient.Inbound, now, `{"jsonrpc":"2.0","method":"notifications/message","params":{"isError":true}}`),
	)
	MustFlush(t, rec)
	frames, err := db.ListFrames(backendtest.Context(t), backend.FrameQuery{SessionID: sid, Filter: backend.FrameFilter{Errors: true}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range frames {
		if !f.ToolError {
			t.Errorf("frame %s kept by the error filter without ToolError", f.RPCID)
		}
		got = append(got, f.RPCID)
	}
	if len(got) != 3 || got[0] != "1" || got[1] != "2" || got[2] != "3" {
		t.Errorf("tool errors stored: %v, want [1 2 3]", got)
	}
}

// gatedStore holds every InsertFrames until open is closed.
type gatedStore struct {
	backend.FrameStore
	open chan struct{}
}

func (s *gatedStore) InsertFrames(ctx context.Context, frames []backend.Frame, exchanges []backend.Exchange) error {
	<-s.open
	return s.FrameStore.InsertFrames(ctx, frames, exchanges)
}

// TestRequestWatchBeforeCommit checks that a watched request learns its
// frame ids and its response's while the store has committed nothing,
// and that Committed returns once that response is stored.
func TestRequestWatchBeforeCommit(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	gate := &gatedStore{FrameStore: db, open: make(chan struct{})}
	ctx := backendtest.Context(t)
	rec, err := backend.NewRecorder(ctx, gate, backend.NewHub(0), backendtest.Logger(t), backend.RecorderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	letWrite := func() { once.Do(func() { close(gate.open) }) }
	defer rec.Close()
	defer letWrite() // before the recorder's Close, which commits
	sid := MustSession(t, db)

	w := rec.WatchRequest(sid, "3")
	defer w.Close()
	now := time.Now()
	MustRecord(t, rec, sid,
		msg(mcpclient.Outbound, now, `{"jsonrpc":"2.0","id":2,"method":"ping"}`),
		msg(mcpclient.Outbound, now, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`),
		msg(mcpclient.Inbound, now, `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`),
		msg(mcpclient.Inbound, now, `{"jsonrpc":"2.0","id":3,"result":{"tools":[]}}`),
	)
	req, resp, err := w.Answered(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if resp != req+2 {
		t.Fatalf("Answered = %d, %d; want a request and the response two frames later", req, resp)
	}
	if n, err := db.CountFrames(ctx, sid); err != nil || n != 0 {
		t.Fatalf("%d frames stored (%v) before the store was let write, want 0", n, err)
	}

	committed := make(chan error, 1)
	go func() {
		_, _, err := w.Committed(ctx)
		committed <- err
	}()
	select {
	case err := <-committed:
		t.Fatalf("Committed returned (%v) before the store wrote", err)
	case <-time.After(20 * time.Millisecond):
	}
	letWrite()
	if err := <-committed; err != nil {
		t.Fatal(err)
	}
	f, err := db.GetFrame(ctx, resp)
	if err != nil || f.PairID != req || f.Method != "tools/list" {
		t.Fatalf("stored response = %+v, %v; want paired with %d", f, err, req)
	}
}
