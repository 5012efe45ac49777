package web_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/mcp-playground/playground/backend"
)

// dialLive opens the live stream of a session with origin (none when "").
func (d *dashboard) dialLive(t *testing.T, sessionID, after int64, origin string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	u := fmt.Sprintf("ws://%s/sessions/%d/live?after=%d", d.Host, sessionID, after)
	conn, resp, err := d.wsDialer().DialContext(ctx, u, h)
	if conn != nil {
		t.Cleanup(func() { conn.Close() })
	}
	return conn, resp, err
}

var frameIDs = regexp.MustCompile(`id="frame-(\d+)"`)

// liveReader reads fragments and remembers the frame ids they carried.
type liveReader struct {
	conn *websocket.Conn
	seen map[int64]bool
	last int64
}

// until reads messages until one satisfies done, failing on timeout,
// duplicate frames or frames out of order.
func (lr *liveReader) until(t *testing.T, what string, done func(msg string) bool) string {
	t.Helper()
	lr.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		_, b, err := lr.conn.ReadMessage()
		if err != nil {
			t.Fatalf("waiting for %s: %v", what, err)
		}
		msg := string(b)
		for _, m := range frameIDs.FindAllStringSubmatch(msg, -1) {
			id, _ := strconv.ParseInt(m[1], 10, 64)
			if lr.seen[id] {
				t.Errorf("frame %d streamed twice", id)
			}
			if id <= lr.last {
				t.Errorf("frame %d streamed after frame %d", id, lr.last)
			}
			lr.seen[id], lr.last = true, id
		}
		if done(msg) {
			return msg
		}
	}
}

func TestLiveStream(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	sess := d.MustAPISession(t, srv.ID)

	t.Run("foreign origin refused", func(t *testing.T) {
		for _, origin := range []string{"http://evil.example", "null", "http://127.0.0.1:1", "https://" + d.Host} {
			conn, resp, err := d.dialLive(t, sess.ID, 0, origin)
			if err == nil {
				conn.Close()
				t.Errorf("Origin %q: upgrade accepted", origin)
				continue
			}
			if !errors.Is(err, websocket.ErrBadHandshake) || resp == nil || resp.StatusCode != http.StatusForbidden {
				t.Errorf("Origin %q: %v (response %+v), want a 403 handshake failure", origin, err, resp)
			}
		}
	})

	t.Run("missing session", func(t *testing.T) {
		_, resp, err := d.dialLive(t, 999, 0, d.URL)
		if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
			t.Errorf("live stream of a missing session: %v %+v", err, resp)
		}
	})

	t.Run("backlog then live frames", func(t *testing.T) {
		conn, _, err := d.dialLive(t, sess.ID, 0, d.URL)
		if err != nil {
			t.Fatalf("dial with our own origin: %v", err)
		}
		lr := &liveReader{conn: conn, seen: map[int64]bool{}}
		lr.until(t, "the initialize backlog", func(msg string) bool {
			return strings.Contains(msg, `data-method="initialize"`) && strings.Contains(msg, `data-rpc-type="result"`)
		})

		r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/requests", sess.ID),
			map[string]any{"method": "tools/call", "params": map[string]any{"name": "echo", "arguments": map[string]any{"text": "live!"}}}, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("call: %d %s", r.Status, r.Body)
		}
		var sawRequest, sawResult bool
		lr.until(t, "the tools/call request and result", func(msg string) bool {
			if strings.Contains(msg, `data-method="tools/call"`) {
				if !strings.Contains(msg, `data-testid="frame"`) {
					t.Errorf("fragment without frame rows: %s", msg)
				}
				sawRequest = sawRequest || strings.Contains(msg, `data-rpc-type="request"`)
				sawResult = sawResult || strings.Contains(msg, `data-rpc-type="result"`)
			}
			return sawRequest && sawResult
		})

		// Closing the session pushes its new state.
		if r := d.api(t, http.MethodDelete, fmt.Sprintf("/api/v1/sessions/%d", sess.ID), nil, nil); r.Status != http.StatusNoContent {
			t.Fatalf("close: %d", r.Status)
		}
		msg := lr.until(t, "the closed status", func(msg string) bool { return strings.Contains(msg, `data-testid="session-status"`) })
		if !strings.Contains(msg, "closed") || !strings.Contains(msg, "closed by the user") {
			t.Errorf("status fragment: %s", msg)
		}
	})
}

// TestLiveStreamResumesAfterAnID opens the live stream after the first
// frame the page shows: the stream sends the frames after it, and none up
// to it, then what is recorded next.
func TestLiveStreamResumesAfterAnID(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	sess := d.MustAPISession(t, srv.ID)
	frames := waitFrames(t, d, sess.ID, func(fs []apiFrame) bool { return len(fs) >= 2 })
	after := frames[0].ID

	conn, _, err := d.dialLive(t, sess.ID, after, "") // no Origin: not a browser
	if err != nil {
		t.Fatal(err)
	}
	// The reader fails on any frame up to after.
	lr := &liveReader{conn: conn, seen: map[int64]bool{}, last: after}
	lr.until(t, fmt.Sprintf("the frames after frame %d", after), func(string) bool {
		for _, f := range frames[1:] {
			if !lr.seen[f.ID] {
				return false
			}
		}
		return true
	})
	d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/requests", sess.ID), map[string]any{"method": "ping"}, nil)
	lr.until(t, "the ping", func(msg string) bool { return strings.Contains(msg, `data-method="ping"`) })
}

func TestLiveStreamEndsOnClose(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	sess := d.MustAPISession(t, srv.ID)
	conn, _, err := d.dialLive(t, sess.ID, 0, d.URL)
	if err != nil {
		t.Fatal(err)
	}
	lr := &liveReader{conn: conn, seen: map[int64]bool{}}
	lr.until(t, "the backlog", func(msg string) bool { return strings.Contains(msg, `data-method="initialize"`) })

	done := make(chan struct{})
	go func() {
		d.web.Close()
		d.web.Close() // idempotent
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Server.Close did not return with a viewer connected")
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		_, _, err := conn.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
			t.Errorf("stream ended with %v, want a going-away close", err)
		}
		break
	}
}

// TestLiveStalledViewerIsCutOff records large frames, each its own event,
// while one viewer reads nothing: once the hub drops that viewer, its
// connection is closed within wsCutOffGrace (it is not left waiting out
// the write deadline), and the viewer that reads gets every frame.
func TestLiveStalledViewerIsCutOff(t *testing.T) {
	start := time.Now()
	cut := &logWatch{what: []byte("live viewer cut off"), base: start}
	d := mustDashboardWith(t, dashboardOptions{log: cut})
	ctx := t.Context()
	sessID, err := d.db.CreateSession(ctx, backend.Session{ServerName: "busy", Transport: backend.TransportStdio,
		Status: backend.SessionOpen, StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	stalled, _, err := d.dialLive(t, sessID, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	reading, _, err := d.dialLive(t, sessID, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	received := make(chan int64, 1<<16)
	go func() {
		defer close(received)
		for {
			_, msg, err := reading.ReadMessage()
			if err != nil {
				return
			}
			for _, m := range frameIDs.FindAllSubmatch(msg, -1) {
				id, _ := strconv.ParseInt(string(m[1]), 10, 64)
				received <- id
			}
		}
	}()
	for d.hub.Subscribers(sessID) < 2 {
		time.Sleep(time.Millisecond)
	}

	// Each frame is committed (and so published) on its own, and the next
	// waits until the reading viewer has it, until the hub drops the viewer
	// that does not read. Paced so, the reader never falls behind however
	// busy the machine, and only the stalled viewer can be dropped. The
	// panel shows a few KiB of a body, so a larger one would fill the socket
	// no sooner, only slower.
	body := []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("x", 4<<10) + `"}}`)
	var recorded int
	for deadline := time.Now().Add(60 * time.Second); d.hub.Subscribers(sessID) == 2; recorded++ {
		if time.Now().After(deadline) {
			t.Fatalf("the stalled viewer was not dropped after %d frames of %d KiB", recorded, len(body)>>10)
		}
		if err := d.rec.Record(sessID, backend.WireFrame{Time: time.Now(), Direction: backend.Inbound, Kind: backend.KindMessage, Body: body}); err != nil {
			t.Fatal(err)
		}
		if err := d.rec.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		select {
		case _, ok := <-received:
			if !ok {
				t.Fatalf("the reading viewer's stream ended after %d frames", recorded)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the reading viewer did not get frame %d", recorded+1)
		}
	}
	dropped := time.Since(start)
	for deadline := time.Now().Add(15 * time.Second); cut.at.Load() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the stalled viewer's connection was not closed")
		}
	}
	// Its writer was stuck: without the cut-off it would wait out the 10 s write deadline.
	if after := time.Duration(cut.at.Load()) - dropped; after > 5*time.Second {
		t.Errorf("the stalled viewer's connection was closed %v after the hub dropped it, want about a second", after)
	}
	if n := d.hub.Subscribers(sessID); n != 1 {
		t.Errorf("the hub feeds %d viewers after the cut, want 1", n)
	}
	// The stalled viewer finds its stream closed once it reads again.
	stalled.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		if _, _, err := stalled.ReadMessage(); err != nil {
			if strings.Contains(err.Error(), "timeout") {
				t.Errorf("the stalled viewer's connection is still open: %v", err)
			}
			break
		}
	}
	// The reading viewer got every frame and is still fed.
	if err := d.rec.Record(sessID, backend.WireFrame{Time: time.Now(), Direction: backend.Inbound, Kind: backend.KindMessage, Body: body}); err != nil {
		t.Fatal(err)
	}
	if err := d.rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case _, ok := <-received:
		if !ok {
			t.Fatalf("the reading viewer's stream ended after the cut, after %d frames", recorded)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the reading viewer got no frame after the cut")
	}
}

// logWatch is a log writer that notes when a line containing what first
// comes, in nanoseconds since base.
type logWatch struct {
	what []byte
	base time.Time
	at   atomic.Int64
}

func (w *logWatch) Write(p []byte) (int, error) {
	if w.at.Load() == 0 && bytes.Contains(p, w.what) {
		w.at.Store(int64(time.Since(w.base)))
	}
	return len(p), nil
}

// TestLiveStreamSaysWhenTheSessionEnds: a page watching a session that
// ends, or that ended before its stream began, is told so, and is given a
// form, with the viewer's CSRF token, to connect the server again.
func TestLiveStreamSaysWhenTheSessionEnds(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	sess := d.MustAPISession(t, srv.ID)
	ended := func(t *testing.T, lr *liveReader) {
		t.Helper()
		msg := lr.until(t, "the end of the session", func(msg string) bool { return strings.Contains(msg, `data-testid="session-ended"`) })
		for _, want := range []string{
			fmt.Sprintf(`id="ws-status-%d" hx-swap-oob="true"`, sess.ID),
			fmt.Sprintf(`id="session-controls-%d" hx-swap-oob="true"`, sess.ID),
			fmt.Sprintf(`action="/servers/%d/connect"`, srv.ID),
			`name="_csrf" value="`,
			"closed by the user",
		} {
			if !strings.Contains(msg, want) {
				t.Errorf("the end-of-session message lacks %s:\n%s", want, msg)
			}
		}
		if strings.Contains(msg, `name="_csrf" value=""`) {
			t.Errorf("the reconnect form carries no CSRF token:\n%s", msg)
		}
	}

	// A browser's viewer holds the CSRF cookie the page set.
	d.MustCSRF(t)
	header := http.Header{"Origin": {d.URL}}
	u, _ := url.Parse(d.URL)
	for _, c := range d.client.Jar.Cookies(u) {
		header.Add("Cookie", c.String())
	}
	dial := func(t *testing.T) *liveReader {
		t.Helper()
		conn, _, err := websocket.DefaultDialer.Dial(fmt.Sprintf("ws://%s/sessions/%d/live", d.Host, sess.ID), header)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return &liveReader{conn: conn, seen: map[int64]bool{}}
	}

	lr := dial(t)
	lr.until(t, "the backlog", func(msg string) bool { return strings.Contains(msg, `data-method="initialize"`) })
	if r := d.api(t, http.MethodDelete, fmt.Sprintf("/api/v1/sessions/%d", sess.ID), nil, nil); r.Status != http.StatusNoContent {
		t.Fatalf("close the session: %d %s", r.Status, r.Body)
	}
	t.Run("while watching", func(t *testing.T) { ended(t, lr) })
	t.Run("after it ended", func(t *testing.T) { ended(t, dial(t)) })
}
