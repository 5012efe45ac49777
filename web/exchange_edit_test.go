package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// TestTrafficEntriesReplayAndEdit records an echo on a live session: the
// traffic panel shows its request and response as one entry with Replay
// and Edit and replay; the editor holds the request; what is not a
// JSON-RPC request is refused at the editor and sends nothing; an edited
// request is sent and recorded. A viewer gets neither button, and the
// routes refuse a viewer and a request of another session.
func TestTrafficEntriesReplayAndEdit(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	sess := d.MustAPISession(t, srv.ID)
	other := d.MustAPISession(t, d.MustAPIServer(t, map[string]any{"name": "sdk2", "transport": "http", "url": MustSDKHTTPServer(t, nil)}).ID)
	d.mustEcho(t, sess.ID, "recorded words")
	echoes := func() []string {
		var out []string
		for _, f := range waitFrames(t, d, sess.ID, func([]apiFrame) bool { return true }) {
			var m struct {
				Params struct {
					Name      string            `json:"name"`
					Arguments map[string]string `json:"arguments"`
				} `json:"params"`
			}
			if f.Direction == "out" && f.RPCType == "request" && json.Unmarshal(f.Body, &m) == nil && m.Params.Name == "echo" {
				out = append(out, m.Params.Arguments["text"])
			}
		}
		return out
	}
	var requestID int64
	for _, f := range waitFrames(t, d, sess.ID, func(fs []apiFrame) bool { return len(fs) > 0 && fs[len(fs)-1].Method == "tools/call" }) {
		if f.Direction == "out" && f.Method == "tools/call" {
			requestID = f.ID
		}
	}
	base := fmt.Sprintf("/sessions/%d/exchanges/%d", sess.ID, requestID)

	panel := d.get(t, fmt.Sprintf("/sessions/%d/traffic", sess.ID))
	entry := panel.Body[strings.Index(panel.Body, fmt.Sprintf(`id="exchange-%d"`, requestID)):]
	if next := strings.Index(entry, `<details class="frame`); next > 0 {
		entry = entry[:next]
	}
	for _, want := range []string{`data-status="ok"`, `data-testid="exchange-item">echo<`, fmt.Sprintf(`id="frame-%d"`, requestID),
		`data-direction="in" data-rpc-type="result"`, `hx-post="` + base + `/replay"`, `hx-get="` + base + `/edit"`} {
		if !strings.Contains(entry, want) {
			t.Errorf("the echo's entry lacks %s:\n%s", want, entry)
		}
	}

	form := d.get(t, base+"/edit")
	if form.Status != http.StatusOK || !strings.Contains(form.Body, `data-testid="edit-request"`) || !strings.Contains(form.Body, "recorded words") {
		t.Fatalf("the editor: %d\n%s", form.Status, form.Body)
	}
	refused := []struct{ name, text, says string }{
		{"not JSON", `{"jsonrpc": "2.0",`, "not a JSON object"},
		{"an array", `[1]`, "not a JSON object"},
		{"another version", `{"jsonrpc": "1.0", "method": "ping"}`, `"jsonrpc": "2.0"`},
		{"no method", `{"jsonrpc": "2.0", "id": 1}`, `"method"`},
		{"a method that is a number", `{"jsonrpc": "2.0", "method": 7}`, `"method"`},
		{"params that are an array", `{"jsonrpc": "2.0", "method": "tools/call", "params": [1]}`, `"params"`},
		{"an object as the id", `{"jsonrpc": "2.0", "id": {}, "method": "ping"}`, `"id"`},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			r := d.htmxPost(t, base+"/edit", token, url.Values{"request": {tt.text}})
			if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="edit-request-error"`) || !strings.Contains(r.Body, strings.ReplaceAll(tt.says, `"`, "&#34;")) {
				t.Errorf("sending %s: %d, want an error saying %s\n%s", tt.text, r.Status, tt.says, r.Body)
			}
		})
	}
	if got := echoes(); fmt.Sprint(got) != "[recorded words]" {
		t.Errorf("refused requests were sent: %q", got)
	}
	t.Run("script in the text", func(t *testing.T) {
		r := d.htmxPost(t, base+"/edit", token, url.Values{"request": {`{"jsonrpc":"2.0","method":"<script>alert(1)</script>"}`}})
		if strings.Contains(r.Body, "<script>alert") || !strings.Contains(r.Body, "&lt;script&gt;") {
			t.Errorf("the answer shows the text unescaped:\n%s", r.Body)
		}
	})

	edited := `{"jsonrpc": "2.0", "id": 77, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "edited words"}}}`
	r := d.htmxPost(t, base+"/edit", token, url.Values{"request": {edited}})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, "echo: edited words") || !strings.Contains(r.Body, `data-testid="edit-request"`) {
		t.Errorf("sending the edited request: %d\n%s", r.Status, r.Body)
	}
	if got := echoes(); fmt.Sprint(got) != "[recorded words edited words]" {
		t.Errorf("after sending the edited request the session recorded %q", got)
	}
	if r := d.postForm(t, fmt.Sprintf("/sessions/%d/exchanges/%d/edit", other.ID, requestID), url.Values{"_csrf": {token}, "request": {edited}}); r.Status != http.StatusNotFound {
		t.Errorf("the request sent through another session's address: %d %s, want 404", r.Status, r.Body)
	}

	t.Run("viewer", func(t *testing.T) {
		d.mustAccount(t, "watcher", backend.RoleViewer)
		client := newClient()
		d.mustSignIn(t, client, "watcher")
		panel := d.doWith(t, client, d.newRequest(t, http.MethodGet, fmt.Sprintf("/sessions/%d/traffic", sess.ID), nil))
		if panel.Status != http.StatusOK || !strings.Contains(panel.Body, fmt.Sprintf(`id="exchange-%d"`, requestID)) ||
			strings.Contains(panel.Body, `data-testid="exchange-replay"`) || strings.Contains(panel.Body, `data-testid="exchange-edit"`) {
			t.Errorf("the viewer's panel: %d, want the entry without Replay or Edit and replay\n%s", panel.Status, panel.Body)
		}
		if r := d.doWith(t, client, d.newRequest(t, http.MethodGet, base+"/edit", nil)); r.Status != http.StatusForbidden {
			t.Errorf("a viewer's GET of the editor: %d, want 403", r.Status)
		}
		viewerToken := d.mustCSRFWith(t, client, fmt.Sprintf("/sessions/%d", sess.ID))
		for _, path := range []string{base + "/edit", base + "/replay"} {
			r := d.postFormWith(t, client, path, url.Values{"_csrf": {viewerToken}, "request": {edited}, "session": {fmt.Sprint(sess.ID)}})
			if r.Status != http.StatusForbidden {
				t.Errorf("a viewer's POST %s: %d, want 403", path, r.Status)
			}
		}
		if got := echoes(); fmt.Sprint(got) != "[recorded words edited words]" {
			t.Errorf("a viewer sent requests: %q", got)
		}
	})
}
