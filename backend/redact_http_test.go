package backend_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/mcpclient"
)

// TestRedactHeader: the values of headers with secret names read
// [redacted], whatever their case; the protocol's own and other plain
// headers keep theirs; the header given is not changed.
func TestRedactHeader(t *testing.T) {
	h := http.Header{"Authorization": {"Bearer s3cret-a"}, "Proxy-Authorization": {"Basic s3cret-b"}, "Cookie": {"sid=s3cret-c"},
		"Set-Cookie": {"sid=s3cret-d"}, "Dpop": {"s3cret-e"}, "X-Api-Key": {"s3cret-f"}, "x-session-token": {"s3cret-g"},
		"Content-Type": {"application/json"}, "Mcp-Session-Id": {"sess-1"}, "Www-Authenticate": {`Bearer realm="x"`}, "Dpop-Nonce": {"n-1"}}
	got := backend.RedactHeader(h)
	for name, values := range got {
		if strings.Contains(strings.Join(values, ""), "s3cret") {
			t.Errorf("%s shown as %q", name, values)
		}
	}
	for _, name := range []string{"Content-Type", "Mcp-Session-Id", "Www-Authenticate", "Dpop-Nonce"} {
		if got.Get(name) != h.Get(name) {
			t.Errorf("%s shown as %q, want %q", name, got.Get(name), h.Get(name))
		}
	}
	if h.Get("Authorization") != "Bearer s3cret-a" {
		t.Error("RedactHeader changed the header it was given")
	}
	if backend.RedactHeader(nil) != nil || backend.RedactHTTP(nil) != nil {
		t.Error("nil is not kept nil")
	}
}

// TestRecorderPublishesRedactedHeaders: live events carry frames' HTTP
// info as the store reads it back, secret headers and URL secrets
// redacted, while the store keeps the values to reveal.
func TestRecorderPublishesRedactedHeaders(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	hub := backend.NewHub(1 << 10)
	rec := backendtest.MustRecorder(t, db, hub)
	sid := MustSession(t, db)
	sub := hub.Subscribe(sid)
	defer sub.Close()
	f := msg(mcpclient.Outbound, time.Now(), `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	f.HTTP = &mcpclient.HTTPInfo{Method: "POST", URL: "http://127.0.0.1:1/mcp?token=url-s3cret",
		Header: http.Header{"Authorization": {"Bearer live-s3cret"}, "Accept": {"application/json"}}}
	MustRecord(t, rec, sid, f)
	MustFlush(t, rec)
	var ev backend.Event
	for ev = range sub.C {
		if len(ev.Frames) > 0 {
			break
		}
	}
	got := ev.Frames[0].HTTP
	if got == nil || got.Header.Get("Authorization") != backend.RedactedValue || got.Header.Get("Accept") != "application/json" || strings.Contains(got.URL, "url-s3cret") {
		t.Errorf("published HTTP info = %+v, want it redacted", got)
	}
	if f.HTTP.Header.Get("Authorization") != "Bearer live-s3cret" {
		t.Error("the recorder changed the frame it was handed")
	}
	revealed, err := db.RevealFrameHTTP(backendtest.Context(t), ev.Frames[0].ID)
	if err != nil || revealed.Header.Get("Authorization") != "Bearer live-s3cret" || revealed.URL != f.HTTP.URL {
		t.Errorf("RevealFrameHTTP = %+v, %v; want the header as recorded", revealed, err)
	}
}

// TestRedactorHidesSecretValuesInHeaders: the values of the headers a
// server is configured to send are hidden before a frame is recorded,
// whatever their names, and so is a secret value echoed in a header of a
// plain name; another header of a secret name is kept whole, to be
// sealed; the frame handed in is not changed.
func TestRedactorHidesSecretValuesInHeaders(t *testing.T) {
	r := backend.NewRedactor(backend.Server{Transport: backend.TransportHTTP, URL: "http://127.0.0.1:1/mcp",
		Headers: map[string]string{"Authorization": "Bearer conf-s3cret-value", "x-team": "team-value"}})
	in := mcpclient.Frame{Kind: mcpclient.KindMessage, Body: []byte(`{}`), HTTP: &mcpclient.HTTPInfo{Header: http.Header{
		"X-Echo": {"you sent Bearer conf-s3cret-value"}, "Authorization": {"Bearer conf-s3cret-value"}, "X-Team": {"team-value"},
		"Cookie": {"sid=cookie-value"}, "Accept": {"application/json"}}}}
	out := r.Frame(in)
	h := out.HTTP.Header
	if strings.Contains(h.Get("X-Echo"), "conf-s3cret-value") || h.Get("Authorization") != backend.RedactedValue || h.Get("X-Team") != backend.RedactedValue {
		t.Errorf("header recorded as %v, want the configured values hidden", h)
	}
	if h.Get("Cookie") != "sid=cookie-value" || h.Get("Accept") != "application/json" {
		t.Errorf("header recorded as %v, want the cookie whole for the seal and Accept as it was", h)
	}
	if in.HTTP.Header.Get("X-Echo") != "you sent Bearer conf-s3cret-value" || in.HTTP.Header.Get("Authorization") != "Bearer conf-s3cret-value" {
		t.Error("Frame changed the frame it was handed")
	}
}
