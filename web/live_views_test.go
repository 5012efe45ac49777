package web_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/web"
)

// mustRecordedSession opens a session of no server, to record into.
func mustRecordedSession(t *testing.T, d *dashboard) int64 {
	t.Helper()
	id, err := d.db.CreateSession(context.Background(), backend.Session{ServerName: "watched", Transport: backend.TransportHTTP,
		Status: backend.SessionOpen, StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// dialLiveAs opens the live stream of a session with dialer (whose cookie
// names who watches), query added to ?after=0.
func (d *dashboard) dialLiveAs(t *testing.T, dialer *websocket.Dialer, sessionID int64, query string) *liveReader {
	t.Helper()
	conn, _, err := dialer.Dial(fmt.Sprintf("ws://%s/sessions/%d/live?after=0%s", d.Host, sessionID, query), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &liveReader{conn: conn, seen: map[int64]bool{}}
}

// viewerDialer signs a new viewer-role account in and returns a dialer
// with its cookie.
func (d *dashboard) viewerDialer(t *testing.T, name string) *websocket.Dialer {
	t.Helper()
	d.mustAccount(t, name, backend.RoleViewer)
	client := newClient()
	d.mustSignIn(t, client, name)
	return &websocket.Dialer{Jar: client.Jar, HandshakeTimeout: 5 * time.Second}
}

// waitSubscribers waits until n streams follow the session.
func (d *dashboard) waitSubscribers(t *testing.T, sessionID int64, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); d.hub.Subscribers(sessionID) < n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d streams follow session %d, want %d", d.hub.Subscribers(sessionID), sessionID, n)
		}
	}
}

// recordOne records f in the session and waits until it is committed.
func (d *dashboard) recordOne(t *testing.T, sessionID int64, f backend.WireFrame) {
	t.Helper()
	if err := d.rec.Record(sessionID, f); err != nil {
		t.Fatal(err)
	}
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// framesMessage reads lr's messages until one carries a frame, and
// returns it.
func framesMessage(t *testing.T, lr *liveReader, what string) string {
	t.Helper()
	return lr.until(t, what, func(msg string) bool { return frameIDs.MatchString(msg) })
}

// TestLiveViewersOfTwoRolesGetTheirOwnView has an admin and a viewer watch
// one session while a request with secrets in its HTTP exchange is
// recorded: each gets the frames with the secrets redacted, the admin with
// the controls to send it again, the viewer without them.
func TestLiveViewersOfTwoRolesGetTheirOwnView(t *testing.T) {
	d := MustDashboard(t)
	sessID := mustRecordedSession(t, d)
	admin := d.dialLiveAs(t, d.wsDialer(), sessID, "")
	viewer := d.dialLiveAs(t, d.viewerDialer(t, "watcher"), sessID, "")
	d.waitSubscribers(t, sessID, 2)

	d.recordOne(t, sessID, backend.WireFrame{Time: time.Now(), Kind: backend.KindMessage, Direction: backend.Outbound,
		Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}`),
		HTTP: &backend.HTTPInfo{Method: http.MethodPost, URL: "http://127.0.0.1:1/mcp?api_key=url-secret",
			Header: http.Header{"Authorization": {"Bearer header-secret"}, "Mcp-Session-Id": {"visible-session"}}}})

	for _, w := range []struct {
		who       string
		lr        *liveReader
		mayReplay bool
	}{{"admin", admin, true}, {"viewer", viewer, false}} {
		msg := framesMessage(t, w.lr, "the request, as "+w.who)
		for _, secret := range []string{"header-secret", "url-secret"} {
			if strings.Contains(msg, secret) {
				t.Errorf("%s was sent %q: %s", w.who, secret, msg)
			}
		}
		if !strings.Contains(msg, backend.RedactedValue) || !strings.Contains(msg, "visible-session") {
			t.Errorf("%s got no redacted header beside the session id: %s", w.who, msg)
		}
		if got := strings.Contains(msg, `data-testid="exchange-replay"`); got != w.mayReplay {
			t.Errorf("%s offered Replay: %v, want %v: %s", w.who, got, w.mayReplay, msg)
		}
		if !strings.Contains(msg, `data-testid="exchange-permalink"`) {
			t.Errorf("%s got no permalink: %s", w.who, msg)
		}
	}
}

// TestLiveFramesRenderOncePerView has five streams in three views (admins,
// viewers, admins filtering outbound frames) watch a session while
// requests are recorded one batch at a time: each batch renders once per
// view, not per stream, and the streams of one view get the same bytes.
func TestLiveFramesRenderOncePerView(t *testing.T) {
	renders, restore := web.CountFrameRenders()
	t.Cleanup(restore) // after the dashboard's streams have ended
	d := MustDashboard(t)
	sessID := mustRecordedSession(t, d)
	viewers := d.viewerDialer(t, "watcher")
	views := [][]*liveReader{
		{d.dialLiveAs(t, d.wsDialer(), sessID, ""), d.dialLiveAs(t, d.wsDialer(), sessID, "")},
		{d.dialLiveAs(t, viewers, sessID, ""), d.dialLiveAs(t, viewers, sessID, "")},
		{d.dialLiveAs(t, d.wsDialer(), sessID, "&dir=out")},
	}
	batches := d.hub.Subscribe(sessID)
	defer batches.Close()
	d.waitSubscribers(t, sessID, 6)
	before := renders()

	const requests = 4
	for i := range requests {
		d.recordOne(t, sessID, backend.WireFrame{Time: time.Now(), Kind: backend.KindMessage, Direction: backend.Outbound,
			Body: fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo"}}`, i)})
		for v, streams := range views {
			var first string
			for j, lr := range streams {
				msg := framesMessage(t, lr, fmt.Sprintf("request %d in view %d", i, v))
				if j == 0 {
					first = msg
				} else if msg != first {
					t.Errorf("view %d: two streams got different messages:\n%s\n%s", v, first, msg)
				}
			}
		}
	}
	events := 0
	for events < requests {
		select {
		case ev := <-batches.C:
			if len(ev.Frames) > 0 {
				events++
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%d batches of frames seen, want %d", events, requests)
		}
	}
	if got, want := renders()-before, int64(len(views)*events); got != want {
		t.Errorf("%d batches to 5 streams in %d views rendered %d times, want %d", events, len(views), got, want)
	}
}
