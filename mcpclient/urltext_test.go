package mcpclient

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestErrorsAndNotesDoNotQuoteURLSecrets: error messages and transport
// notes are shown on pages, stored as close reasons and printed by the
// CLI, so the URLs they name carry no userinfo, query or fragment (the
// frames' HTTP info keeps the whole URL, for the store to seal).
func TestErrorsAndNotesDoNotQuoteURLSecrets(t *testing.T) {
	secrets := []string{"us3r-secret", "pw-secret", "query-secret", "frag-secret"}
	withSecrets := func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.UserPassword("us3r-secret", "pw-secret")
		u.RawQuery = "api_key=query-secret"
		u.Fragment = "token=frag-secret"
		return u.String()
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/mcp"
	ln.Close()
	unauthorized := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	streamEnds := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream") // and the stream ends, without an endpoint event
	}))

	tests := []struct {
		name string
		sse  bool
		url  string
		want string // in the error
	}{
		{"refused", false, withSecrets(refused), "connect " + refused + "?…: connection refused"},
		{"refused, HTTP+SSE", true, withSecrets(refused), "connect " + refused + "?…: connection refused"},
		{"invalid URL", false, "ftp://us3r-secret:pw-secret@host/?api_key=query-secret", "invalid server URL"},
		{"endpoint refused, auto falls back to HTTP+SSE", false, withSecrets(unauthorized.URL), "HTTP 401"},
		{"no endpoint event", true, withSecrets(streamEnds.URL + "/sse"), "no endpoint event on " + streamEnds.URL + "/sse"},
		{"HTTP+SSE session", true, withSecrets(fakeSSEServer(t)), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			connect := ConnectHTTP
			if tt.sse {
				connect = ConnectSSE
			}
			c, err := connect(testContext(t), HTTPConfig{URL: tt.url}, Options{Tap: rec.tap, Era: EraAuto})
			var text []string
			if err == nil {
				if tt.want != "" {
					c.Close()
					t.Fatal("connected")
				}
				rec.waitFind(t, Inbound, KindTransport, "messages go to")
				c.Close()
			} else {
				if tt.want == "" || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("err = %q, want it to contain %q", err, tt.want)
				}
				text = append(text, err.Error())
			}
			for _, f := range rec.find(Inbound, KindTransport, "") {
				text = append(text, string(f.Body))
			}
			for _, f := range rec.find(Outbound, KindTransport, "") {
				text = append(text, string(f.Body))
			}
			for _, s := range text {
				for _, secret := range secrets {
					if strings.Contains(s, secret) {
						t.Errorf("%q quotes %s", s, secret)
					}
				}
			}
		})
	}
}
