package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// routePath fills a route's parameters: a parameter after "servers" or
// "sessions" with ids[that segment], other parameters with "1", and a
// wildcard with wildcard.
func routePath(path string, ids map[string]string, wildcard string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		switch {
		case strings.HasPrefix(s, ":"):
			segs[i] = "1"
			if id, ok := ids[segs[i-1]]; ok {
				segs[i] = id
			}
		case strings.HasSuffix(s, "*"):
			segs[i] = strings.TrimSuffix(s, "*") + wildcard
		}
	}
	return strings.Join(segs, "/")
}

// isSafeMethod reports whether method changes nothing by definition.
func isSafeMethod(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

// TestFormPostsNeedTheTokenWhateverFetchMetadataSays posts to every
// state-changing route of the router without a CSRF token, with the
// fetch-metadata headers of a same-origin request. A page that frames the
// dashboard makes exactly such requests when it tricks someone into
// clicking, so they must be refused: the token alone shows that the
// dashboard's own page sent the form. JSON API calls are the exception
// (isAPIRequest), but not when they come as a form.
func TestFormPostsNeedTheTokenWhateverFetchMetadataSays(t *testing.T) {
	d := MustDashboard(t)
	touched := filepath.Join(t.TempDir(), "touched")
	victim := d.MustAPIServer(t, map[string]any{"name": "touch", "transport": "stdio", "command": "touch", "args": []string{touched}})
	sdk := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	live := d.MustAPISession(t, sdk.ID)
	ids := map[string]string{"servers": fmt.Sprint(victim.ID), "sessions": fmt.Sprint(live.ID)}
	// What each form would send, so that a handler reached would act.
	bodies := map[string]url.Values{
		"/servers":                           {"name": {"forged"}, "transport": {"stdio"}, "command": {"touch"}, "args": {touched}},
		"/servers/:id":                       {"name": {"renamed"}, "transport": {"stdio"}, "command": {"touch"}, "args": {touched}},
		"/sessions/:id/tools/call":           {"_tool": {"echo"}, "arg.text": {"forged"}},
		"/sessions/:id/console":              {"mode": {"request"}, "method": {"ping"}},
		"/sessions/:id/inputs/:input":        {"_action": {"accept"}},
		"/api/v1/servers":                    {"name": {"forged"}, "transport": {"stdio"}, "command": {"touch"}},
		"/api/v1/sessions/:id/requests":      {"method": {"ping"}},
		"/api/v1/sessions/:id/raw":           {"raw": {`{"jsonrpc":"2.0","id":"x","method":"ping"}`}},
		"/api/v1/sessions/:id/inputs/:input": {"action": {"accept"}},
	}
	servers := func() string {
		var list []apiServer
		d.api(t, http.MethodGet, "/api/v1/servers", nil, &list)
		return fmt.Sprintf("%+v", list)
	}
	before := servers()

	metadata := []struct {
		name   string
		header map[string]string
	}{
		{"same-origin", map[string]string{"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "navigate", "Origin": d.URL}},
		{"typed URL", map[string]string{"Sec-Fetch-Site": "none"}},
		{"no metadata", nil},
	}
	var n int
	for _, r := range d.web.Routes() {
		if isSafeMethod(r.Method) {
			continue
		}
		path := routePath(r.Path, ids, "x")
		for _, m := range metadata {
			n++
			t.Run(r.Method+" "+r.Path+" "+m.name, func(t *testing.T) {
				body, ok := bodies[r.Path]
				if !ok {
					// A form sends a body when it has a field; a bodyless
					// request is a script's (isAPIRequest).
					body = url.Values{"x": {"1"}}
				}
				req := d.newRequest(t, r.Method, path, strings.NewReader(body.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				for k, v := range m.header {
					req.Header.Set(k, v)
				}
				if resp := d.do(t, req); resp.Status != http.StatusForbidden && resp.Status != http.StatusBadRequest {
					t.Errorf("%s %s without a CSRF token (%s) = %d, want it refused with 403 or 400: %.300s", r.Method, path, m.name, resp.Status, resp.Body)
				}
			})
		}
	}
	if n < 3*10 {
		t.Errorf("only %d state-changing requests were tried; does the router list its routes?", n)
	}

	if _, err := os.Stat(touched); err == nil {
		t.Errorf("a forged post started the touch server: %s exists", touched)
	}
	if after := servers(); after != before {
		t.Errorf("forged posts changed the registry:\nbefore %s\nafter  %s", before, after)
	}
	if !d.pool.IsLive(live.ID) {
		t.Error("a forged post closed the session")
	}
	frames, err := d.db.ListFrames(t.Context(), live.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if f.Direction == "out" && (f.Method == "tools/call" || f.Method == "ping") {
			t.Errorf("a forged post sent %s on the session", f.Method)
		}
	}
}
