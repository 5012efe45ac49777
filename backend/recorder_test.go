package backend_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/mcpclient"
)

// msg is a JSON-RPC message frame at t.
func msg(dir mcpclient.Direction, t time.Time, body string) mcpclient.Frame {
	return mcpclient.Frame{Time: t, Direction: dir, Kind: mcpclient.KindMessage, Body: []byte(body)}
}

// MustRecord records f and fails the test on error.
func MustRecord(tb testing.TB, rec *backend.Recorder, sessionID int64, frames ...mcpclient.Frame) {
	tb.Helper()
	for _, f := range frames {
		if err := rec.Record(sessionID, f); err != nil {
			tb.Fatalf("Record: %v", err)
		}
	}
}

// MustFlush waits until everything recorded is committed.
func MustFlush(tb testing.TB, rec *backend.Recorder) {
	tb.Helper()
	if err := rec.Flush(backendtest.Context(tb)); err != nil {
		tb.Fatalf("Flush: %v", err)
	}
}

func TestRecorderPublishesOnlyCommittedFrames(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	hub := backend.NewHub(1 << 16)
	rec := backendtest.MustRecorder(t, db, hub)
	s1, s2 := MustSession(t, db), MustSession(t, db)
	sub1, sub2 := hub.Subscribe(s1), hub.Subscribe(s2)
	defer sub1.Close()
	defer sub2.Close()

	const perSession = 300
	// Check each event the moment it arrives: its frames must already be
	// in the database.
	check := func(sub *backend.Subscription, sessionID int64, got *[]int64, wg *sync.WaitGroup) {
		defer wg.Done()
		ctx := context.Background()
		for ev := range sub.C {
			if ev.SessionID != sessionID {
				t.Errorf("event for session %d on session %d's feed", ev.SessionID, sessionID)
			}
			if len(ev.Frames) == 0 {
				continue
			}
			first := ev.Frames[0].ID
			stored, err := db.ListFrames(ctx, backend.FrameQuery{SessionID: sessionID, AfterID: first - 1, Limit: len(ev.Frames)})
			if err != nil {
				t.Errorf("ListFrames: %v", err)
				return
			}
			var want, have []int64
			for i, f := range ev.Frames {
				if f.SessionID != sessionID {
					t.Errorf("frame %d of session %d published to session %d", f.ID, f.SessionID, sessionID)
				}
				if i > 0 && f.ID <= ev.Frames[i-1].ID {
					t.Errorf("event frames out of order: %d after %d", f.ID, ev.Frames[i-1].ID)
				}
				want = append(want, f.ID)
			}
			for _, f := range stored {
				have = append(have, f.ID)
			}
			if !reflect.DeepEqual(have, want) {
				t.Errorf("published frames %v, but the database holds %v", want, have)
			}
			*got = append(*got, want...)
			if len(*got) == perSession {
				return
			}
		}
	}
	var wg sync.WaitGroup
	var got1, got2 []int64
	wg.Add(2)
	go check(sub1, s1, &got1, &wg)
	go check(sub2, s2, &got2, &wg)

	t0 := time.Now()
	for i := range perSession {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"n":%d}}`, i)
		MustRecord(t, rec, s1, msg(mcpclient.Inbound, t0, body))
		MustRecord(t, rec, s2, msg(mcpclient.Inbound, t0, body))
		if i%50 == 0 {
			time.Sleep(time.Millisecond) // let batches of several sizes form
		}
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("received %d and %d frames, want %d each", len(got1), len(got2), perSession)
	}
	if sub1.Dropped() || sub2.Dropped() {
		t.Error("a subscriber was dropped")
	}
}

func TestRecorderLinksRequestsAndResponses(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	rec := backendtest.MustRecorder(t, db, backend.NewHub(0))
	sid := MustSession(t, db)
	t0 := time.Unix(0, time.Now().UnixNano())
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

	MustRecord(t, rec, sid,
		// 1: our request, 2: its result after 5 ms.
		msg(mcpclient.Outbound, at(0), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
		msg(mcpclient.Inbound, at(5), `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`),
		// 3: the server's request, 4: our answer after 2 ms.
		msg(mcpclient.Inbound, at(10), `{"jsonrpc":"2.0","id":"s1","method":"ping"}`),
		msg(mcpclient.Outbound, at(12), `{"jsonrpc":"2.0","id":"s1","result":{}}`),
		// 5 and 6 share id 7 in opposite directions; 7 answers the server's (6), 8 answers ours (5).
		msg(mcpclient.Outbound, at(20), `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}`),
		msg(mcpclient.Inbound, at(21), `{"jsonrpc":"2.0","id":7,"method":"roots/list"}`),
		msg(mcpclient.Outbound, at(24), `{"jsonrpc":"2.0","id":7,"result":{"roots":[]}}`),
		msg(mcpclient.Inbound, at(30), `{"jsonrpc":"2.0","id":7,"error":{"code":-32601,"message":"Method not found"}}`),
		// 9: a notification; 10: a response to nothing; 11: a parse error reply without id.
		msg(mcpclient.Inbound, at(31), `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`),
		msg(mcpclient.Inbound, at(32), `{"jsonrpc":"2.0","id":999,"result":{}}`),
		msg(mcpclient.Inbound, at(33), `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`),
		// 12: a second response with an id already answered stays unlinked.
		msg(mcpclient.Inbound, at(34), `{"jsonrpc":"2.0","id":1,"result":{}}`),
	)
	MustFlush(t, rec)
	frames, err := db.ListFrames(backendtest.Context(t), backend.FrameQuery{SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 12 {
		t.Fatalf("stored %d frames, want 12", len(frames))
	}
	base := frames[0].ID
	ms := int64(time.Millisecond)
	want := []struct {
		rpcType backend.RPCType
		rpcID   string
		method  string
		pair    int64 // offset of the paired frame +1; 0 for none
		latency int64
	}{
		{backend.RPCRequest, "1", "tools/list", 2, 5 * ms},
		{backend.RPCResult, "1", "tools/list", 1, 5 * ms},
		{backend.RPCRequest, `"s1"`, "ping", 4, 2 * ms},
		{backend.RPCResult, `"s1"`, "ping", 3, 2 * ms},
		{backend.RPCRequest, "7", "tools/call", 8, 10 * ms},
		{backend.RPCRequest, "7", "roots/list", 7, 3 * ms},
		{backend.RPCResult, "7", "roots/list", 6, 3 * ms},
		{backend.RPCError, "7", "tools/call", 5, 10 * ms},
		{backend.RPCNotification, "", "notifications/tools/list_changed", 0, 0},
		{backend.RPCResult, "999", "", 0, 0},
		{backend.RPCError, "", "", 0, 0},
		{backend.RPCResult, "1", "", 0, 0},
	}
	for i, w := range want {
		f := frames[i]
		if f.ID != base+int64(i) {
			t.Fatalf("frame ids not consecutive: %d at %d", f.ID, i)
		}
		var wantPair int64
		if w.pair != 0 {
			wantPair = base + w.pair - 1
		}
		if f.RPCType != w.rpcType || f.RPCID != w.rpcID || f.Method != w.method || f.PairID != wantPair || f.LatencyNS != w.latency {
			t.Errorf("frame %d: type %q id %q method %q pair %d latency %d; want %q %q %q %d %d",
				i+1, f.RPCType, f.RPCID, f.Method, f.PairID, f.LatencyNS, w.rpcType, w.rpcID, w.method, wantPair, w.latency)
		}
	}
}

func TestRecorderStoresNonMessagesRaw(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	rec := backendtest.MustRecorder(t, db, backend.NewHub(0))
	sid := MustSession(t, db)
	info := &mcpclient.HTTPInfo{Method: "POST", URL: "http://127.0.0.1:1/mcp", Status: 500, Header: http.Header{"X-Test": {"1"}}}
	in := []mcpclient.Frame{
		{Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindParseError, Body: []byte("this is not JSON\x00\xff{")},
		{Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage, Body: []byte(`{"jsonrpc":"2.0","id":1,"result"`)},
		{Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage, Body: []byte(`[1,2,3]`)},
		{Time: time.Now(), Direction: mcpclient.Stderr, Kind: mcpclient.KindLog, Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"looks/like/a/request"}`)},
		{Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindTransport, Body: []byte("HTTP 500"), HTTP: info},
		{Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindTransport},
	}
	MustRecord(t, rec, sid, in...)
	MustFlush(t, rec)
	frames, err := db.ListFrames(backendtest.Context(t), backend.FrameQuery{SessionID: sid})
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != len(in) {
		t.Fatalf("stored %d frames, want %d", len(frames), len(in))
	}
	for i, f := range frames {
		if string(f.Body) != string(in[i].Body) || f.Kind != in[i].Kind || f.Direction != in[i].Direction {
			t.Errorf("frame %d = %s %s %q, want %s %s %q", i, f.Direction, f.Kind, f.Body, in[i].Direction, in[i].Kind, in[i].Body)
		}
		if f.RPCType != "" || f.RPCID != "" || f.Method != "" || f.PairID != 0 {
			t.Errorf("frame %d (%s) was classified as JSON-RPC: %+v", i, f.Kind, f)
		}
	}
	if h := frames[4].HTTP; h == nil || !reflect.DeepEqual(*h, *info) {
		t.Errorf("HTTP info = %+v, want %+v", h, info)
	}
}

func TestRecorderForget(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	rec := backendtest.MustRecorder(t, db, backend.NewHub(0))
	gone, kept := MustSession(t, db), MustSession(t, db)
	t0 := time.Now()
	req := msg(mcpclient.Outbound, t0, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	resp := msg(mcpclient.Inbound, t0.Add(time.Millisecond), `{"jsonrpc":"2.0","id":1,"result":{}}`)
	MustRecord(t, rec, gone, req)
	MustRecord(t, rec, kept, req)
	rec.Forget(gone)
	MustRecord(t, rec, gone, resp)
	MustRecord(t, rec, kept, resp)
	MustFlush(t, rec)

	ctx := backendtest.Context(t)
	for sid, wantPaired := range map[int64]bool{gone: false, kept: true} {
		frames, err := db.ListFrames(ctx, backend.FrameQuery{SessionID: sid})
		if err != nil || len(frames) != 2 {
			t.Fatalf("session %d: %d frames, %v", sid, len(frames), err)
		}
		if paired := frames[1].PairID == frames[0].ID && frames[0].PairID == frames[1].ID; paired != wantPaired {
			t.Errorf("session %d: paired %v, want %v (%+v)", sid, paired, wantPaired, frames)
		}
	}
}

func TestRecorderFlushAndClose(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	rec := backendtest.MustRecorder(t, db, backend.NewHub(0))
	sid := MustSession(t, db)
	ctx := backendtest.Context(t)
	count := func() int {
		t.Helper()
		frames, err := db.ListFrames(ctx, backend.FrameQuery{SessionID: sid})
		if err != nil {
			t.Fatal(err)
		}
		return len(frames)
	}
	note := mcpclient.Frame{Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindLog, Body: []byte("line")}

	for range 100 {
		MustRecord(t, rec, sid, note)
	}
	MustFlush(t, rec)
	if n := count(); n != 100 {
		t.Errorf("after Flush: %d frames stored, want 100", n)
	}
	// Flush with nothing pending returns at once.
	MustFlush(t, rec)

	// Close commits everything queued before it.
	for range 3000 {
		MustRecord(t, rec, sid, note)
	}
	if err := rec.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if n := count(); n != 3100 {
		t.Errorf("after Close: %d frames stored, want 3100", n)
	}
	if err := rec.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if err := rec.Record(sid, note); !errors.Is(err, backend.ErrRecorderClosed) {
		t.Errorf("Record after Close = %v, want ErrRecorderClosed", err)
	}
	if err := rec.Flush(ctx); !errors.Is(err, backend.ErrRecorderClosed) {
		t.Errorf("Flush after Close = %v, want ErrRecorderClosed", err)
	}
	rec.Forget(sid) // must not block or panic

	// A new recorder continues the ids after the stored ones.
	rec2 := backendtest.MustRecorder(t, db, backend.NewHub(0))
	MustRecord(t, rec2, sid, note)
	MustFlush(t, rec2)
	if n := count(); n != 3101 {
		t.Errorf("after restart: %d frames stored, want 3101", n)
	}
}

func TestRecorderBurst(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	hub := backend.NewHub(0)
	rec := backendtest.MustRecorder(t, db, hub)
	const sessions, pairsPerSession = 4, 2500 // 20,000 frames
	ids := make([]int64, sessions)
	for i := range ids {
		ids[i] = MustSession(t, db)
	}
	var published atomic.Int64
	var subWG sync.WaitGroup
	subs := make([]*backend.Subscription, sessions)
	for i, sid := range ids {
		subs[i] = hub.Subscribe(sid)
		subWG.Add(1)
		go func(s *backend.Subscription) {
			defer subWG.Done()
			for ev := range s.C {
				published.Add(int64(len(ev.Frames)))
			}
		}(subs[i])
	}

	start := time.Now()
	var wg sync.WaitGroup
	for _, sid := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			for i := range pairsPerSession {
				req := msg(mcpclient.Outbound, t0, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i))
				resp := msg(mcpclient.Inbound, t0.Add(time.Microsecond), fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, i))
				if err := rec.Record(sid, req); err != nil {
					t.Error(err)
					return
				}
				if err := rec.Record(sid, resp); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	MustFlush(t, rec)
	t.Logf("recorded %d frames in %v", sessions*pairsPerSession*2, time.Since(start))

	ctx := backendtest.Context(t)
	for _, sid := range ids {
		frames, err := db.ListFrames(ctx, backend.FrameQuery{SessionID: sid})
		if err != nil {
			t.Fatal(err)
		}
		if len(frames) != 2*pairsPerSession {
			t.Errorf("session %d: %d frames stored, want %d", sid, len(frames), 2*pairsPerSession)
			continue
		}
		unpaired := 0
		for _, f := range frames {
			if f.PairID == 0 || f.LatencyNS != int64(time.Microsecond) {
				unpaired++
			}
		}
		if unpaired != 0 {
			t.Errorf("session %d: %d frames without their pair", sid, unpaired)
		}
	}
	dropped := false
	for _, s := range subs {
		dropped = dropped || s.Dropped()
		s.Close()
	}
	subWG.Wait()
	if want := int64(sessions * pairsPerSession * 2); !dropped && published.Load() != want {
		t.Errorf("published %d frames, want %d", published.Load(), want)
	}
}

// flakyStore fails InsertFrames while failing is set.
type flakyStore struct {
	backend.FrameStore
	failing atomic.Bool
	calls   atomic.Int64
}

func (s *flakyStore) InsertFrames(ctx context.Context, frames []backend.Frame, exchanges []backend.Exchange) error {
	s.calls.Add(1)
	if s.failing.Load() {
		return errors.New("disk full")
	}
	return s.FrameStore.InsertFrames(ctx, frames, exchanges)
}

func TestRecorderRetriesFailedWrites(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	fs := &flakyStore{FrameStore: db}
	fs.failing.Store(true)
	hub := backend.NewHub(0)
	rec, err := backend.NewRecorder(backendtest.Context(t), fs, hub, backendtest.Logger(t), backend.RecorderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	sid := MustSession(t, db)
	sub := hub.Subscribe(sid)
	defer sub.Close()

	MustRecord(t, rec, sid, mcpclient.Frame{Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindLog, Body: []byte("x")})
	deadline := time.Now().Add(5 * time.Second)
	for rec.Failure() == nil {
		if time.Now().After(deadline) {
			t.Fatal("Failure() stayed nil while writes fail")
		}
		time.Sleep(5 * time.Millisecond)
	}
	select {
	case ev := <-sub.C:
		t.Fatalf("an uncommitted frame was published: %+v", ev)
	case <-time.After(80 * time.Millisecond):
	}
	fs.failing.Store(false)
	MustFlush(t, rec) // returns once the retried batch is stored
	if err := rec.Failure(); err != nil {
		t.Errorf("Failure() after a successful retry = %v", err)
	}
	if ev, ok := receive(t, sub); !ok || len(ev.Frames) != 1 {
		t.Errorf("event after the retry = %+v (open %v)", ev, ok)
	}
	if frames, _ := db.ListFrames(backendtest.Context(t), backend.FrameQuery{SessionID: sid}); len(frames) != 1 {
		t.Errorf("stored %d frames, want 1", len(frames))
	}
	if fs.calls.Load() < 2 {
		t.Errorf("InsertFrames called %d times, want retries", fs.calls.Load())
	}
}
