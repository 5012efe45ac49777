package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// TestAPIRefusesBodiesThatAreNotJSON enumerates the router's JSON API
// routes that may change state and sends each, with an admin's token, the
// body that would make it act under every Content-Type but
// application/json (text/plain, none, a form): each is a 415 with a JSON
// error, its body unread, and nothing happens.
func TestAPIRefusesBodiesThatAreNotJSON(t *testing.T) {
	d := MustDashboard(t)
	touched := filepath.Join(t.TempDir(), "touched")
	sdk := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	live := d.MustAPISession(t, sdk.ID)
	ids := map[string]string{"servers": fmt.Sprint(sdk.ID), "sessions": fmt.Sprint(live.ID)}
	bodies := map[string]string{
		"/api/v1/servers":                    `{"name":"forged","transport":"stdio","command":"touch","args":["` + touched + `"]}`,
		"/api/v1/sessions/:id/requests":      `{"method":"ping"}`,
		"/api/v1/sessions/:id/raw":           `{"jsonrpc":"2.0","id":"x","method":"ping"}`,
		"/api/v1/sessions/:id/inputs/:input": `{"result":{"action":"accept"}}`,
		"/api/v1/collections/import":         `{"format":"playground-collection","version":1,"name":"forged","examples":[]}`,
	}
	before := registrySnapshot(t, d)
	sessionsBefore, err := d.db.ListSessions(t.Context(), 0, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}

	var tried int
	for _, r := range d.web.Routes() {
		if !strings.HasPrefix(r.Path, "/api/") || isSafeMethod(r.Method) {
			continue
		}
		tried++
		body, ok := bodies[r.Path]
		if !ok {
			body = `{}`
		}
		path := routePath(r.Path, ids, "x")
		for _, contentType := range []string{"text/plain", "", "application/x-www-form-urlencoded", "text/plain; charset=utf-8"} {
			t.Run(r.Method+" "+r.Path+" as "+contentType, func(t *testing.T) {
				sent := &countedBody{Reader: strings.NewReader(body)}
				req := httptest.NewRequest(r.Method, d.URL+path, sent)
				req.Header.Set("Authorization", "Bearer "+d.token)
				if contentType != "" {
					req.Header.Set("Content-Type", contentType)
				}
				rec := httptest.NewRecorder()
				d.web.ServeHTTP(rec, req)
				var answer apiError
				if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil || rec.Code != http.StatusUnsupportedMediaType ||
					!strings.Contains(answer.Error, "application/json") {
					t.Errorf("%s %s as %q = %d %s, want 415 with a JSON error naming application/json", r.Method, path, contentType, rec.Code, rec.Body)
				}
				if n := sent.read.Load(); n != 0 {
					t.Errorf("%s %s as %q read %d bytes of the body", r.Method, path, contentType, n)
				}
			})
		}
	}
	if tried < 6 {
		t.Errorf("only %d API routes were tried; does the router list its routes?", tried)
	}

	if _, err := os.Stat(touched); err == nil {
		t.Errorf("a refused body started the touch server: %s exists", touched)
	}
	if after := registrySnapshot(t, d); after != before {
		t.Errorf("refused bodies changed the registry:\nbefore %s\nafter  %s", before, after)
	}
	if !d.pool.IsLive(live.ID) {
		t.Error("a refused body closed the session")
	}
	if sessions, err := d.db.ListSessions(t.Context(), 0, 0, 1000); err != nil || len(sessions) != len(sessionsBefore) {
		t.Errorf("refused bodies opened sessions: %d before, %d after (%v)", len(sessionsBefore), len(sessions), err)
	}
	cols, err := d.db.ListCollections(t.Context())
	if err == nil && len(cols) != 0 {
		t.Errorf("a refused body imported a collection: %+v", cols)
	}
	frames, err := d.db.ListFrames(t.Context(), backend.FrameQuery{SessionID: live.ID})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if f.Direction == "out" && f.Method == "ping" {
			t.Error("a refused body sent ping on the session")
		}
	}

	t.Run("JSON and no body still work", func(t *testing.T) {
		var out map[string]any
		if r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/requests", live.ID), map[string]any{"method": "ping"}, &out); r.Status != http.StatusOK {
			t.Errorf("a JSON request = %d %s", r.Status, r.Body)
		}
		req := d.newRequest(t, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", sdk.ID), nil)
		if r := d.do(t, req); r.Status != http.StatusCreated {
			t.Errorf("a connect without a body or a Content-Type = %d %s", r.Status, r.Body)
		}
	})
}
