package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// appHTML is the HTML of appServer's app.
const appHTML = `<!doctype html><html><body><p id="app">an app</p><script>parent.postMessage({jsonrpc:"2.0",id:1,method:"ui/initialize",params:{}},"*")</script></body></html>`

// mustAppServer serves, over Streamable HTTP, an MCP App server: the tool
// show has the app ui://show/app.html, whose resource declares a network
// (one entry of which tries to smuggle a directive into the policy); the
// tool hidden may not be called by apps.
func mustAppServer(tb testing.TB) string {
	tb.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "apps-test", Version: "1.0"}, nil)
	show := func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "shown"}}}, nil, nil
	}
	mcp.AddTool(s, &mcp.Tool{Name: "show", Meta: mcp.Meta{"ui": map[string]any{"resourceUri": "ui://show/app.html"}}}, show)
	mcp.AddTool(s, &mcp.Tool{Name: "hidden", Meta: mcp.Meta{"ui": map[string]any{"resourceUri": "ui://show/app.html", "visibility": []string{"model"}}}}, show)
	s.AddResource(&mcp.Resource{URI: "ui://show/app.html", Name: "app", MIMEType: "text/html;profile=mcp-app"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{
				URI: "ui://show/app.html", MIMEType: "text/html;profile=mcp-app", Text: appHTML,
				Meta: mcp.Meta{"ui": map[string]any{"csp": map[string]any{
					"connectDomains":  []string{"https://api.example.com"},
					"resourceDomains": []string{"https://cdn.example.com", "https://x.example; script-src *"},
				}}},
			}}}, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

var appSrcRE = regexp.MustCompile(`src="(https?://[^"]+/apps/([A-Z2-7]+))"`)

// mustOpenApp connects a dashboard to mustAppServer, calls show from its
// card and returns the session id and the app frame's address and token.
func mustOpenApp(t *testing.T, d *dashboard) (sessionID int64, src, token string) {
	t.Helper()
	srv := d.MustAPIServer(t, map[string]any{"name": "apps", "transport": "http", "url": mustAppServer(t)})
	sess := d.MustAPISession(t, srv.ID)
	csrf := d.MustCSRF(t)
	r := d.postForm(t, fmt.Sprintf("/sessions/%d/tools/call", sess.ID), url.Values{"_csrf": {csrf}, "_tool": {"show"}})
	m := appSrcRE.FindStringSubmatch(r.Body)
	if r.Status != http.StatusOK || m == nil {
		t.Fatalf("calling show: %d, no app frame:\n%s", r.Status, r.Body)
	}
	for _, want := range []string{`sandbox="allow-scripts"`, `data-app-bridge="/sessions/`, "shown"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("the outcome lacks %s:\n%s", want, r.Body)
		}
	}
	return sess.ID, m[1], m[2]
}

// TestAppsOrigin checks that an app's HTML is served only by the apps
// origin, under the policy its resource declared, to frames of the
// dashboard only, and only for the Host of the apps origin.
func TestAppsOrigin(t *testing.T) {
	d := MustDashboard(t)
	_, src, token := mustOpenApp(t, d)
	if !strings.HasPrefix(src, d.AppsURL+"/apps/") {
		t.Fatalf("the app is framed from %s, want the apps origin %s", src, d.AppsURL)
	}
	if got := parseCSP(d.get(t, "/").Header.Get("Content-Security-Policy"))["frame-src"]; got != d.AppsURL {
		t.Errorf("the dashboard's frame-src = %q, want the apps origin %s alone", got, d.AppsURL)
	}

	resp := d.get(t, strings.TrimPrefix(src, d.AppsURL)) // the same path on the dashboard
	if resp.Status != http.StatusNotFound || strings.Contains(resp.Body, "an app") {
		t.Errorf("the dashboard answers the app's path with %d: %.200s", resp.Status, resp.Body)
	}

	get := func(path, host string) response {
		req, err := http.NewRequest(http.MethodGet, d.AppsURL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if host != "" {
			req.Host = host
		}
		return d.do(t, req)
	}
	resp = get("/apps/"+token, "")
	if resp.Status != http.StatusOK || resp.Body != appHTML {
		t.Fatalf("GET the app = %d %q", resp.Status, resp.Body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("the app's Content-Type = %q", ct)
	}
	csp := parseCSP(resp.Header.Get("Content-Security-Policy"))
	want := map[string]string{
		"default-src": "'none'",
		"script-src":  "'self' 'unsafe-inline' https://cdn.example.com",
		"style-src":   "'self' 'unsafe-inline' https://cdn.example.com",
		"img-src":     "'self' data: https://cdn.example.com",
		"connect-src": "https://api.example.com",
		"frame-src":   "'none'",
		"object-src":  "'none'",
		"form-action": "'none'",
		"base-uri":    "'self'",
		"sandbox":     "allow-scripts",
		// No http://[::1]:PORT: a CSP source cannot name an IPv6 address,
		// and browsers refuse the whole entry with a console error.
		"frame-ancestors": "http://" + d.Host + " http://localhost:" + strings.Split(d.Host, ":")[1],
	}
	for k, v := range want {
		if csp[k] != v {
			t.Errorf("the app's CSP %s = %q, want %q", k, csp[k], v)
		}
	}
	if strings.Contains(resp.Header.Get("Content-Security-Policy"), "x.example") {
		t.Errorf("a declared entry that is not an origin reached the policy: %s", resp.Header.Get("Content-Security-Policy"))
	}
	if xfo := resp.Header.Get("X-Frame-Options"); xfo != "" {
		t.Errorf("the app carries X-Frame-Options %q, which would keep the dashboard from framing it", xfo)
	}
	if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options = %q", got)
	}

	_, port, _ := strings.Cut(d.AppsHost, ":")
	tests := []struct {
		name, path, host string
		status           int
	}{
		{"foreign host", "/apps/" + token, "evil.example:" + port, http.StatusMisdirectedRequest},
		{"the dashboard's host", "/apps/" + token, d.Host, http.StatusMisdirectedRequest},
		{"unknown token", "/apps/AAAAAAAAAAAAAAAAAAAAAAAAAA", "", http.StatusNotFound},
		{"no token", "/apps/", "", http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := get(tt.path, tt.host)
			if resp.Status != tt.status || strings.Contains(resp.Body, "an app") {
				t.Errorf("GET %s (Host %q) = %d %.200s, want %d", tt.path, tt.host, resp.Status, resp.Body, tt.status)
			}
			if csp := parseCSP(resp.Header.Get("Content-Security-Policy")); csp["default-src"] != "'none'" || csp["frame-ancestors"] != "'none'" {
				t.Errorf("a refusal's CSP is %q", resp.Header.Get("Content-Security-Policy"))
			}
		})
	}

	// The apps origin serves nothing but apps: no route of the dashboard.
	for _, r := range d.web.Routes() {
		path := routePath(r.Path, map[string]string{"servers": "1", "sessions": "1"}, "app.css")
		req, err := http.NewRequest(r.Method, d.AppsURL+path, strings.NewReader("x=1"))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if resp := d.do(t, req); resp.Status != http.StatusNotFound && resp.Status != http.StatusMethodNotAllowed {
			t.Errorf("the apps origin answers the dashboard's %s %s with %d", r.Method, path, resp.Status)
		}
	}
	// And each of its own routes, with a foreign Host, is refused.
	for _, r := range d.web.AppsOrigin().Routes() {
		path := routePath(r.Path, nil, "")
		if resp := get(path, "evil.example:"+port); resp.Status != http.StatusMisdirectedRequest {
			t.Errorf("the apps origin answers %s %s for a foreign Host with %d", r.Method, path, resp.Status)
		}
	}
}

// TestAppsBridge checks that the bridge forwards an app's tools/call and
// resources/read through the recorded session, and refuses requests
// without the CSRF token, for another session, of other methods, and for
// tools the server keeps from apps.
func TestAppsBridge(t *testing.T) {
	d := MustDashboard(t)
	sessionID, _, token := mustOpenApp(t, d)
	csrf := d.MustCSRF(t)
	bridge := fmt.Sprintf("/sessions/%d/apps/bridge", sessionID)
	post := func(path, csrf string, body map[string]any) (response, map[string]json.RawMessage) {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		req := d.newRequest(t, http.MethodPost, path, strings.NewReader(string(b)))
		req.Header.Set("Content-Type", "application/json")
		if csrf != "" {
			req.Header.Set("X-CSRF-Token", csrf)
		}
		resp := d.do(t, req)
		var out map[string]json.RawMessage
		_ = json.Unmarshal([]byte(resp.Body), &out)
		return resp, out
	}
	call := map[string]any{"app": token, "method": "tools/call", "params": map[string]any{"name": "show", "arguments": map[string]any{}}}

	if resp, _ := post(bridge, "", call); resp.Status != http.StatusForbidden {
		t.Errorf("a bridge request without the CSRF token = %d, want 403", resp.Status)
	}
	resp, out := post(bridge, csrf, call)
	if resp.Status != http.StatusOK || !strings.Contains(string(out["result"]), "shown") {
		t.Errorf("the app's tools/call = %d %s", resp.Status, resp.Body)
	}
	resp, out = post(bridge, csrf, map[string]any{"app": token, "method": "resources/read", "params": map[string]any{"uri": "ui://show/app.html"}})
	if resp.Status != http.StatusOK || !strings.Contains(string(out["result"]), "an app") {
		t.Errorf("the app's resources/read = %d %.200s", resp.Status, resp.Body)
	}

	tests := []struct {
		name   string
		path   string
		body   map[string]any
		status int
		code   int
	}{
		{"method outside the allowlist", bridge, map[string]any{"app": token, "method": "tools/list"}, http.StatusForbidden, -32601},
		{"logging/setLevel", bridge, map[string]any{"app": token, "method": "logging/setLevel", "params": map[string]any{"level": "debug"}}, http.StatusForbidden, -32601},
		{"tool kept from apps", bridge, map[string]any{"app": token, "method": "tools/call", "params": map[string]any{"name": "hidden"}}, http.StatusForbidden, -32602},
		{"unknown tool", bridge, map[string]any{"app": token, "method": "tools/call", "params": map[string]any{"name": "nothing"}}, http.StatusNotFound, -32602},
		{"unknown app", bridge, map[string]any{"app": "AAAAAAAAAAAAAAAAAAAAAAAAAA", "method": "tools/call", "params": map[string]any{"name": "show"}}, http.StatusNotFound, -32602},
		{"another session", fmt.Sprintf("/sessions/%d/apps/bridge", sessionID+1), call, http.StatusNotFound, -32602},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, out := post(tt.path, csrf, tt.body)
			var e struct{ Code int }
			_ = json.Unmarshal(out["error"], &e)
			if resp.Status != tt.status || e.Code != tt.code {
				t.Errorf("= %d %s, want %d with JSON-RPC error %d", resp.Status, resp.Body, tt.status, tt.code)
			}
		})
	}

	// The app's call went through the session: it is in the traffic (the
	// card's and the app's tools/call), once the recorder has committed it.
	waitFrames(t, d, sessionID, func(frames []apiFrame) bool {
		calls := 0
		for _, f := range frames {
			if f.Direction == "out" && f.Method == "tools/call" {
				calls++
			}
		}
		return calls == 2
	})
}

// TestAppOnIPv6DashboardSaysWhy calls an app's tool on a dashboard reached
// at [::1]: no Content-Security-Policy can let that page frame the app, so
// the outcome says so and how to reach the dashboard instead, in place of
// a frame that the browser would refuse to show.
func TestAppOnIPv6DashboardSaysWhy(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "apps", "transport": "http", "url": mustAppServer(t)})
	sess := d.MustAPISession(t, srv.ID)
	csrf := d.MustCSRF(t)
	req := d.newRequest(t, http.MethodPost, fmt.Sprintf("/sessions/%d/tools/call", sess.ID), strings.NewReader(url.Values{"_csrf": {csrf}, "_tool": {"show"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	// The client's jar would pick cookies by the Host below: the browser's
	// cookies are added by hand.
	for _, ck := range d.client.Jar.Cookies(req.URL) {
		req.AddCookie(ck)
	}
	req.Host = "[::1]:" + strings.Split(d.Host, ":")[1]
	r := d.doWith(t, http.DefaultClient, req)
	if r.Status != http.StatusOK {
		t.Fatalf("calling show at %s: %d\n%s", req.Host, r.Status, r.Body)
	}
	if appSrcRE.MatchString(r.Body) || !strings.Contains(r.Body, `data-testid="app-error"`) || !strings.Contains(r.Body, "Open the dashboard at localhost or 127.0.0.1 instead.") {
		t.Errorf("at %s the outcome frames the app or does not say why it cannot:\n%s", req.Host, r.Body)
	}
}
