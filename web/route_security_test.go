package web_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/web"
)

// checkSecurityHeaders fails unless h carries the headers that keep the
// dashboard out of other sites' frames and that forbid inline script.
func checkSecurityHeaders(t *testing.T, what string, h http.Header) {
	t.Helper()
	if h.Get("Content-Security-Policy") == "" {
		t.Errorf("%s: no Content-Security-Policy", what)
	}
	csp := parseCSP(h.Get("Content-Security-Policy"))
	want := map[string]string{
		"default-src":     "'self'",
		"script-src":      "'self'",
		"style-src":       "'self'",
		"frame-ancestors": "'none'",
		"base-uri":        "'none'",
		"object-src":      "'none'",
		"form-action":     "'self'",
	}
	for directive, value := range want {
		if got, ok := csp[directive]; (!ok && len(csp) > 0) || got != value && ok {
			t.Errorf("%s: Content-Security-Policy %s = %q, want %q (the header: %q)", what, directive, got, value, h.Get("Content-Security-Policy"))
		}
	}
	for directive, value := range csp {
		if strings.Contains(value, "'unsafe-") || strings.Contains(value, "*") {
			t.Errorf("%s: Content-Security-Policy %s %s allows too much", what, directive, value)
		}
	}
	if got := h.Get("X-Frame-Options"); got != "DENY" {
		t.Errorf("%s: X-Frame-Options = %q, want DENY", what, got)
	}
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("%s: X-Content-Type-Options = %q, want nosniff", what, got)
	}
	// Policies that never send a page's address to another site.
	if got := h.Get("Referrer-Policy"); !slices.Contains([]string{"no-referrer", "same-origin", "strict-origin"}, got) {
		t.Errorf("%s: Referrer-Policy = %q, want a strict one", what, got)
	}
}

// parseCSP splits a Content-Security-Policy into directive → value.
func parseCSP(policy string) map[string]string {
	out := map[string]string{}
	for _, d := range strings.Split(policy, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		if name != "" {
			out[strings.ToLower(name)] = strings.TrimSpace(value)
		}
	}
	return out
}

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

// TestSecurityHeadersOnEveryAnswer requests every route of the router, and
// the answers given before or instead of one (refusals, errors, static
// files, a refused WebSocket upgrade), and checks that each carries the
// Content-Security-Policy and the other headers that keep other sites from
// framing the dashboard.
func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "nothing", "transport": "stdio", "command": "/bin/true"})
	var sess apiError
	d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID), nil, &sess) // fails, but leaves a session
	if sess.Session == nil {
		t.Fatal("connecting to /bin/true left no session")
	}
	ids := map[string]string{"servers": fmt.Sprint(srv.ID), "sessions": fmt.Sprint(sess.Session.ID)}

	routes := d.web.Routes()
	if len(routes) < 20 {
		t.Fatalf("the router lists %d routes; is Routes the router's list?", len(routes))
	}
	for _, r := range routes {
		path := routePath(r.Path, ids, "app.css")
		t.Run(r.Method+" "+r.Path, func(t *testing.T) {
			req := d.newRequest(t, r.Method, path, strings.NewReader("x=1"))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			resp := d.do(t, req)
			t.Logf("%s %s: %d", r.Method, path, resp.Status)
			checkSecurityHeaders(t, r.Method+" "+path, resp.Header)
		})
	}

	_, port, _ := strings.Cut(d.Host, ":")
	tests := []struct {
		name   string
		method string
		path   string
		header map[string]string
		host   string
		status int
	}{
		{name: "unknown path", method: http.MethodGet, path: "/nothing/here", status: http.StatusNotFound},
		{name: "OPTIONS", method: http.MethodOptions, path: "/", status: http.StatusNoContent},
		{name: "unknown host", method: http.MethodGet, path: "/", host: "evil.example:" + port, status: http.StatusMisdirectedRequest},
		{name: "foreign origin", method: http.MethodPost, path: "/servers", header: map[string]string{"Origin": "http://evil.example"}, status: http.StatusForbidden},
		{name: "no CSRF token", method: http.MethodPost, path: "/servers", status: http.StatusForbidden},
		{name: "missing server", method: http.MethodGet, path: "/servers/999999", status: http.StatusNotFound},
		{name: "missing server, htmx", method: http.MethodGet, path: "/servers/999999", header: map[string]string{"HX-Request": "true"}, status: http.StatusOK},
		{name: "API error", method: http.MethodGet, path: "/api/v1/sessions/999999", status: http.StatusNotFound},
		{name: "API list", method: http.MethodGet, path: "/api/v1/servers", status: http.StatusOK},
		{name: "stylesheet", method: http.MethodGet, path: "/static/app.css", status: http.StatusOK},
		{name: "script", method: http.MethodGet, path: "/static/vendor/htmx.min.js", status: http.StatusOK},
		{name: "missing static file", method: http.MethodGet, path: "/static/nothing.js", status: http.StatusNotFound},
		{name: "refused WebSocket upgrade", method: http.MethodGet, path: "/sessions/" + ids["sessions"] + "/live", header: map[string]string{
			"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13"}, status: http.StatusBadRequest},
		{name: "WebSocket upgrade from another site", method: http.MethodGet, path: "/sessions/" + ids["sessions"] + "/live", header: map[string]string{
			"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
			"Origin": "http://evil.example"}, status: http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := d.newRequest(t, tt.method, tt.path, nil)
			for k, v := range tt.header {
				req.Header.Set(k, v)
			}
			if tt.host != "" {
				req.Host = tt.host
			}
			resp := d.do(t, req)
			if resp.Status != tt.status {
				t.Errorf("%s %s = %d, want %d: %.300s", tt.method, tt.path, resp.Status, tt.status, resp.Body)
			}
			checkSecurityHeaders(t, tt.name, resp.Header)
		})
	}

	t.Run("internal error", func(t *testing.T) {
		d := MustDashboard(t)
		d.db.Close()
		resp := d.get(t, "/sessions")
		if resp.Status != http.StatusInternalServerError {
			t.Errorf("GET /sessions on a closed database = %d, want 500", resp.Status)
		}
		checkSecurityHeaders(t, "internal error", resp.Header)
	})

	t.Run("panic", func(t *testing.T) {
		// Without a registry the server list's handler panics.
		h := web.New(web.Config{Addr: "127.0.0.1:8080"}, web.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
		defer h.Close()
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8080/", nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusInternalServerError {
			t.Errorf("GET / without a registry = %d, want 500", rec.Code)
		}
		checkSecurityHeaders(t, "panic", rec.Header())
	})
}

// TestFormPostsNeedTheTokenWhateverFetchMetadataSays posts to every
// state-changing route of the router without a CSRF token, with the
// fetch-metadata headers of a same-origin request. A page that frames the
// dashboard makes exactly such requests when it tricks someone into
// clicking, so they must be refused: the token alone shows that the
// dashboard's own page sent the form. The JSON API takes no cookie at all:
// a browser's request to it, which carries no API token, is refused as
// unauthenticated.
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
				req.Header.Del("Authorization") // a browser has the session cookie only
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				for k, v := range m.header {
					req.Header.Set(k, v)
				}
				want := []int{http.StatusForbidden, http.StatusBadRequest}
				if strings.HasPrefix(r.Path, "/api/") {
					want = []int{http.StatusUnauthorized}
				}
				if resp := d.do(t, req); !slices.Contains(want, resp.Status) {
					t.Errorf("%s %s without a CSRF token (%s) = %d, want it refused with %v: %.300s", r.Method, path, m.name, resp.Status, want, resp.Body)
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
	frames, err := d.db.ListFrames(t.Context(), backend.FrameQuery{SessionID: live.ID})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if f.Direction == "out" && (f.Method == "tools/call" || f.Method == "ping") {
			t.Errorf("a forged post sent %s on the session", f.Method)
		}
	}
}

// TestOtherSitesCanOnlyLinkToPages requests every GET route of the router
// as another site's page would embed or fetch it (an image, a frame, a
// script's fetch, from another site or from a same-site origin such as the
// apps origin): each is refused before it reaches a handler, so no page
// elsewhere can make the dashboard send MCP requests. A link from another
// site (a top-level navigation) still opens the page.
func TestOtherSitesCanOnlyLinkToPages(t *testing.T) {
	d := MustDashboard(t)
	sdk := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	live := d.MustAPISession(t, sdk.ID)
	ids := map[string]string{"servers": fmt.Sprint(sdk.ID), "sessions": fmt.Sprint(live.ID)}
	sent := func() int64 {
		t.Helper()
		d.rec.Flush(t.Context())
		n, err := d.db.CountFrames(t.Context(), live.ID)
		if err != nil {
			t.Fatal(err)
		}
		return int64(n)
	}
	before := sent()
	embeds := []map[string]string{
		{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"},
		{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"},
		{"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"},
		{"Sec-Fetch-Site": "same-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "script"},
	}
	for _, r := range d.web.Routes() {
		if r.Method != http.MethodGet {
			continue
		}
		path := routePath(r.Path, ids, "app.js")
		for _, h := range embeds {
			req := d.newRequest(t, r.Method, path, nil)
			for k, v := range h {
				req.Header.Set(k, v)
			}
			if resp := d.do(t, req); resp.Status != http.StatusForbidden {
				t.Errorf("GET %s as %v = %d, want 403", path, h, resp.Status)
			}
		}
	}
	if after := sent(); after != before {
		t.Errorf("embedding the pages recorded %d MCP frames", after-before)
	}
	req := d.newRequest(t, http.MethodGet, fmt.Sprintf("/servers/%d/tools", sdk.ID), nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Sec-Fetch-Mode", "navigate")
	req.Header.Set("Sec-Fetch-Dest", "document")
	if resp := d.do(t, req); resp.Status != http.StatusOK {
		t.Errorf("following a link from another site = %d, want 200", resp.Status)
	}
}
