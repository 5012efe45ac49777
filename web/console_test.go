package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestConsole(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, sdkStdioServer("console-sdk"))
	sess := d.MustAPISession(t, srv.ID)
	token := d.MustCSRF(t)
	path := fmt.Sprintf("/sessions/%d/console", sess.ID)

	tests := []struct {
		name   string
		values url.Values
		want   []string // fragments of the answered card
	}{
		{"request", url.Values{"mode": {"request"}, "method": {"tools/list"}}, []string{`data-outcome="result"`, `data-testid="result-json"`, "echo"}},
		{"request with params", url.Values{"mode": {"request"}, "method": {"tools/call"}, "params": {`{"name":"echo","arguments":{"text":"hi"}}`}},
			[]string{`data-outcome="result"`, "echo: hi"}},
		{"JSON-RPC error", url.Values{"mode": {"request"}, "method": {"no/such/method"}}, []string{`data-outcome="rpc-error"`, "-32601"}},
		{"no method", url.Values{"mode": {"request"}}, []string{`data-testid="error-method"`}},
		{"params not JSON", url.Values{"mode": {"request"}, "method": {"ping"}, "params": {"{nope"}}, []string{`data-testid="error-params"`, "{nope"}},
		{"notification", url.Values{"mode": {"notification"}, "method": {"notifications/roots/list_changed"}}, []string{`data-testid="console-sent"`, "Sent the notification notifications/roots/list_changed"}},
		{"notification without a method", url.Values{"mode": {"notification"}}, []string{`data-testid="error-method"`}},
		{"raw frame", url.Values{"mode": {"raw"}, "raw": {`{"jsonrpc":"1.0","id":"raw-1","method":"ping"`}}, []string{`data-testid="console-sent"`, "Sent 45 bytes"}},
		{"empty raw frame", url.Values{"mode": {"raw"}}, []string{`data-testid="error-raw"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := d.htmxPost(t, path, token, tt.values)
			if r.Status != http.StatusOK {
				t.Fatalf("status %d: %s", r.Status, r.Body)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.Body, w) {
					t.Errorf("the card lacks %q:\n%s", w, r.Body)
				}
			}
		})
	}

	// The malformed raw frame went out byte for byte, and the notification
	// as a notification: a method and no id.
	raw := `{"jsonrpc":"1.0","id":"raw-1","method":"ping"`
	waitFrames(t, d, sess.ID, func(fs []apiFrame) bool {
		sent, notified := false, false
		for _, f := range fs {
			if f.Direction == "out" && (f.BodyText == raw || string(f.Body) == raw) {
				sent = true
			}
			if f.Direction == "out" && f.RPCType == "notification" && f.Method == "notifications/roots/list_changed" {
				notified = true
			}
		}
		return sent && notified
	})
}

func TestAPISendRaw(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, sdkStdioServer("raw-sdk"))
	sess := d.MustAPISession(t, srv.ID)
	path := fmt.Sprintf("/api/v1/sessions/%d/raw", sess.ID)

	send := func(body string) response {
		req := d.newRequest(t, http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return d.do(t, req)
	}
	if r := send(`{"jsonrpc":"2.0","id":"dup","method":"ping"}`); r.Status != http.StatusAccepted || !strings.Contains(r.Body, `"bytes":44`) {
		t.Errorf("raw ping: %d %s", r.Status, r.Body)
	}
	// The answer to a raw request is recorded and linked to it.
	waitFrames(t, d, sess.ID, func(fs []apiFrame) bool {
		for _, f := range fs {
			if f.Direction == "in" && string(f.RPCID) == `"dup"` && f.PairID != 0 {
				return true
			}
		}
		return false
	})
	if r := send(""); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("empty frame: %d %s", r.Status, r.Body)
	}
	if r := d.api(t, http.MethodPost, "/api/v1/sessions/999/raw", map[string]any{}, nil); r.Status != http.StatusConflict {
		t.Errorf("raw frame on a session that is not live: %d %s", r.Status, r.Body)
	}
}
