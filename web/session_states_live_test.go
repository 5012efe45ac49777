package web_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// dialStates opens the live feed of session states at path with origin.
func (d *dashboard) dialStates(t *testing.T, dialer *websocket.Dialer, path, origin string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	if origin != "" {
		h.Set("Origin", origin)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, resp, err := dialer.DialContext(ctx, "ws://"+d.Host+path, h)
	if conn != nil {
		t.Cleanup(func() { conn.Close() })
	}
	return conn, resp, err
}

// TestSessionStatesFeed follows the top bar's feed and a sessions list's
// feed while a server with a script in its name connects and disconnects:
// both say so, escaped; the feed refuses foreign origins, people not
// signed in and malformed rows.
func TestSessionStatesFeed(t *testing.T) {
	d := MustDashboard(t)
	const name = `<img src=x onerror=alert(1)>"sdk`
	srv := d.MustAPIServer(t, map[string]any{"name": name, "transport": "http", "url": MustSDKHTTPServer(t, nil)})

	for _, tt := range []struct {
		name   string
		dialer *websocket.Dialer
		path   string
		origin string
		status int
	}{
		{"foreign origin", d.wsDialer(), "/live/sessions", "http://evil.example", http.StatusForbidden},
		{"not signed in", &websocket.Dialer{HandshakeTimeout: 5 * time.Second}, "/live/sessions", d.URL, http.StatusUnauthorized},
		{"rows not ids", d.wsDialer(), "/live/sessions?rows=1,x", d.URL, http.StatusUnprocessableEntity},
		{"servers not ids", d.wsDialer(), "/live/sessions?servers=-1", d.URL, http.StatusUnprocessableEntity},
		{"too many rows", d.wsDialer(), "/live/sessions?rows=" + strings.Repeat("1,", 200) + "1", d.URL, http.StatusUnprocessableEntity},
	} {
		t.Run(tt.name, func(t *testing.T) {
			conn, resp, err := d.dialStates(t, tt.dialer, tt.path, tt.origin)
			if err == nil {
				conn.Close()
				t.Fatal("upgrade accepted")
			}
			if !errors.Is(err, websocket.ErrBadHandshake) || resp == nil || (resp.StatusCode != tt.status && !(tt.status == http.StatusUnauthorized && resp.StatusCode/100 == 3)) {
				t.Errorf("%v (response %+v), want %d", err, resp, tt.status)
			}
		})
	}

	bar, _, err := d.dialStates(t, d.wsDialer(), "/live/sessions", d.URL)
	if err != nil {
		t.Fatal(err)
	}
	read := func(conn *websocket.Conn, what string, done func(string) bool) string {
		t.Helper()
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		for {
			_, b, err := conn.ReadMessage()
			if err != nil {
				t.Fatalf("waiting for %s: %v", what, err)
			}
			if msg := string(b); done(msg) {
				return msg
			}
		}
	}
	read(bar, "the top bar as it is", func(msg string) bool { return strings.Contains(msg, `id="connected-servers"`) })
	sess := d.MustAPISession(t, srv.ID)
	msg := read(bar, "the top bar with the server", func(msg string) bool { return strings.Contains(msg, "sdk</a>") })
	if strings.Contains(msg, "<img") || !strings.Contains(msg, "&lt;img src=x onerror=alert(1)&gt;&#34;sdk") {
		t.Errorf("the server's name is not escaped: %s", msg)
	}
	rows, _, err := d.dialStates(t, d.wsDialer(), fmt.Sprintf("/live/sessions?rows=%d", sess.ID), d.URL)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the feed subscribes
	if r := d.api(t, http.MethodDelete, fmt.Sprintf("/api/v1/sessions/%d", sess.ID), nil, nil); r.Status/100 != 2 {
		t.Fatalf("disconnect: %d %s", r.Status, r.Body)
	}
	read(bar, "the top bar without the server", func(msg string) bool {
		return strings.Contains(msg, `id="connected-servers"`) && !strings.Contains(msg, "sdk</a>")
	})
	read(rows, "the row's new state", func(msg string) bool {
		return strings.Contains(msg, fmt.Sprintf(`id="session-state-%d"`, sess.ID)) && strings.Contains(msg, "closed")
	})
}
