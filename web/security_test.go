package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/web"
)

func TestHostCheck(t *testing.T) {
	d := MustDashboard(t)
	_, port, _ := strings.Cut(d.Host, ":")
	tests := []struct {
		name   string
		path   string
		host   string
		status int
	}{
		{"listen address", "/", d.Host, http.StatusOK},
		{"localhost alias", "/signin", "localhost:" + port, http.StatusOK},
		{"localhost alias upper case", "/signin", "LOCALHOST:" + port, http.StatusOK},
		{"IPv6 loopback alias", "/signin", "[::1]:" + port, http.StatusOK},
		{"rebinding name", "/", "evil.example", http.StatusMisdirectedRequest},
		{"rebinding name with our port", "/", "evil.example:" + port, http.StatusMisdirectedRequest},
		{"loopback on another port", "/", "127.0.0.1:1", http.StatusMisdirectedRequest},
		{"loopback without port", "/", "127.0.0.1", http.StatusMisdirectedRequest},
		{"API", "/api/v1/servers", "evil.example", http.StatusMisdirectedRequest},
		{"static files", "/static/app.css", "evil.example", http.StatusMisdirectedRequest},
		{"live stream", "/sessions/1/live", "evil.example", http.StatusMisdirectedRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := d.newRequest(t, http.MethodGet, tt.path, nil)
			req.Host = tt.host
			r := d.do(t, req)
			if r.Status != tt.status {
				t.Errorf("GET %s with Host %q = %d, want %d: %s", tt.path, tt.host, r.Status, tt.status, r.Body)
			}
		})
	}

	t.Run("refused POST changes nothing", func(t *testing.T) {
		req := d.newRequest(t, http.MethodPost, "/api/v1/servers", strings.NewReader(`{"name":"x","transport":"stdio","command":"true"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Host = "evil.example"
		if r := d.do(t, req); r.Status != http.StatusMisdirectedRequest {
			t.Errorf("status %d", r.Status)
		}
		assertServerCount(t, d, 0)
	})
}

func TestOriginCheck(t *testing.T) {
	d := MustDashboard(t)
	_, port, _ := strings.Cut(d.Host, ":")
	tests := []struct {
		name   string
		origin string
		status int
	}{
		{"none", "", http.StatusOK},
		{"same origin", d.URL, http.StatusOK},
		{"loopback alias", "http://localhost:" + port, http.StatusOK},
		{"foreign site", "http://evil.example", http.StatusForbidden},
		{"foreign site on our port", "http://evil.example:" + port, http.StatusForbidden},
		{"opaque origin", "null", http.StatusForbidden},
		{"other port", "http://127.0.0.1:1", http.StatusForbidden},
		{"not an origin", "javascript:alert(1)", http.StatusForbidden},
		{"origin with a path", d.URL + "/x", http.StatusForbidden},
		{"https on plain HTTP", "https://" + d.Host, http.StatusForbidden},
		{"https loopback alias on plain HTTP", "https://localhost:" + port, http.StatusForbidden},
		{"another scheme", "ftp://" + d.Host, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := d.newRequest(t, http.MethodGet, "/", nil)
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if r := d.do(t, req); r.Status != tt.status {
				t.Errorf("Origin %q: status %d, want %d", tt.origin, r.Status, tt.status)
			}
		})
	}

	t.Run("cross-origin JSON API write refused", func(t *testing.T) {
		req := d.newRequest(t, http.MethodPost, "/api/v1/servers", strings.NewReader(`{"name":"x","transport":"stdio","command":"true"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "http://evil.example")
		if r := d.do(t, req); r.Status != http.StatusForbidden {
			t.Errorf("status %d, want 403", r.Status)
		}
		assertServerCount(t, d, 0)
	})

	t.Run("same-origin JSON API write accepted", func(t *testing.T) {
		req := d.newRequest(t, http.MethodPost, "/api/v1/servers", strings.NewReader(`{"name":"x","transport":"stdio","command":"true"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", d.URL)
		if r := d.do(t, req); r.Status != http.StatusCreated {
			t.Errorf("status %d, want 201: %s", r.Status, r.Body)
		}
		assertServerCount(t, d, 1)
	})
}

func TestCSRF(t *testing.T) {
	valid := func(name string) url.Values {
		return url.Values{"name": {name}, "transport": {"stdio"}, "command": {"/bin/true"}}
	}
	t.Run("no token, no cookie", func(t *testing.T) {
		d := MustDashboard(t)
		r := d.postForm(t, "/servers", valid("a"))
		if r.Status != http.StatusBadRequest && r.Status != http.StatusForbidden {
			t.Errorf("status %d, want 400 or 403", r.Status)
		}
		assertServerCount(t, d, 0)
	})
	t.Run("cookie but no token", func(t *testing.T) {
		d := MustDashboard(t)
		d.MustCSRF(t)
		r := d.postForm(t, "/servers", valid("a"))
		if r.Status != http.StatusBadRequest && r.Status != http.StatusForbidden {
			t.Errorf("status %d, want 400 or 403", r.Status)
		}
		assertServerCount(t, d, 0)
	})
	t.Run("wrong token", func(t *testing.T) {
		d := MustDashboard(t)
		d.MustCSRF(t)
		v := valid("a")
		v.Set("_csrf", "forged")
		if r := d.postForm(t, "/servers", v); r.Status != http.StatusForbidden {
			t.Errorf("status %d, want 403", r.Status)
		}
		assertServerCount(t, d, 0)
	})
	t.Run("token without its cookie", func(t *testing.T) {
		d := MustDashboard(t)
		token := d.MustCSRF(t)
		u, _ := url.Parse(d.URL)
		signedIn := d.client.Jar.Cookies(u)
		d.client.Jar, _ = newJar()
		for _, ck := range signedIn {
			if ck.Name == "playground_session" { // still signed in, without the CSRF cookie
				d.client.Jar.SetCookies(u, []*http.Cookie{ck})
			}
		}
		v := valid("a")
		v.Set("_csrf", token)
		if r := d.postForm(t, "/servers", v); r.Status != http.StatusForbidden {
			t.Errorf("status %d, want 403", r.Status)
		}
		assertServerCount(t, d, 0)
	})
	t.Run("cross-site fetch metadata", func(t *testing.T) {
		d := MustDashboard(t)
		req := d.newRequest(t, http.MethodPost, "/servers", strings.NewReader(valid("a").Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		if r := d.do(t, req); r.Status != http.StatusForbidden {
			t.Errorf("status %d, want 403", r.Status)
		}
		assertServerCount(t, d, 0)
	})
	t.Run("form-encoded API request from a signed-in browser", func(t *testing.T) {
		d := MustDashboard(t)
		req := d.newRequest(t, http.MethodPost, "/api/v1/servers", strings.NewReader(`{"name":"a","transport":"stdio","command":"true"}`))
		req.Header.Del("Authorization")              // a browser sends its cookies, never an API token
		req.Header.Set("Content-Type", "text/plain") // what a cross-site form can send without preflight
		if r := d.do(t, req); r.Status != http.StatusUnauthorized {
			t.Errorf("status %d, want 401: the API takes API tokens only", r.Status)
		}
		assertServerCount(t, d, 0)
	})
	t.Run("token in the form", func(t *testing.T) {
		d := MustDashboard(t)
		v := valid("a")
		v.Set("_csrf", d.MustCSRF(t))
		r := d.postForm(t, "/servers", v)
		if r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/servers/") {
			t.Fatalf("status %d Location %q, want 303 to the server: %s", r.Status, r.Header.Get("Location"), r.Body)
		}
		assertServerCount(t, d, 1)
		if page := d.get(t, r.Header.Get("Location")); page.Status != http.StatusOK || !strings.Contains(page.Body, ">a<") {
			t.Errorf("server page after create: %d", page.Status)
		}
	})
	t.Run("token in the htmx header", func(t *testing.T) {
		d := MustDashboard(t)
		token := d.MustCSRF(t)
		req := d.newRequest(t, http.MethodPost, "/servers", strings.NewReader(valid("b").Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-CSRF-Token", token)
		if r := d.do(t, req); r.Status != http.StatusSeeOther {
			t.Errorf("status %d, want 303: %s", r.Status, r.Body)
		}
		assertServerCount(t, d, 1)
	})
	t.Run("cookie is strict and http-only", func(t *testing.T) {
		d := MustDashboard(t)
		r := d.get(t, "/servers/new")
		c := r.Header.Get("Set-Cookie")
		if !strings.Contains(c, "playground_csrf=") || !strings.Contains(c, "HttpOnly") || !strings.Contains(c, "SameSite=Strict") {
			t.Errorf("Set-Cookie = %q", c)
		}
	})
}

// assertServerCount checks how many servers are registered.
func assertServerCount(t *testing.T, d *dashboard, want int) {
	t.Helper()
	var list []apiServer
	if r := d.api(t, http.MethodGet, "/api/v1/servers", nil, &list); r.Status != http.StatusOK {
		t.Fatalf("list servers: %d %s", r.Status, r.Body)
	}
	if len(list) != want {
		t.Errorf("%d servers registered, want %d: %+v", len(list), want, list)
	}
}

// TestOriginSchemeFollowsTheRequest checks, for pages and the live
// WebSocket, that an Origin's scheme must be the one the request came
// over: from the trusted proxy that says https, the https origin of the
// host is the dashboard's and the http one is not; the base URL's origin
// is the dashboard's even when a request reaches it over plain HTTP.
func TestOriginSchemeFollowsTheRequest(t *testing.T) {
	d := mustDashboardWith(t, dashboardOptions{configure: func(cfg *web.Config, deps *web.Deps) {
		behindProxy(cfg, deps)
		cfg.AllowedHosts = []string{"other.example.com"}
	}})
	sid := d.mustSession(t, "watched")
	tests := []struct {
		name, host, proto, origin string
		ok                        bool
	}{
		{"https through the proxy", "other.example.com", "https", "https://other.example.com", true},
		{"http origin through an https proxy", "other.example.com", "https", "http://other.example.com", false},
		{"https origin over plain HTTP", "other.example.com", "", "https://other.example.com", false},
		{"http origin over plain HTTP", "other.example.com", "", "http://other.example.com", true},
		{"the base URL over plain HTTP", "playground.example.com", "", "https://playground.example.com", true},
		{"the base URL's host with http through an https proxy", "playground.example.com", "https", "http://playground.example.com", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := d.newRequest(t, http.MethodGet, "/signin", nil)
			req.Host = tt.host
			req.Header.Set("Origin", tt.origin)
			if tt.proto != "" {
				req.Header.Set("X-Forwarded-Proto", tt.proto)
			}
			if r := d.do(t, req); (r.Status == http.StatusOK) != tt.ok {
				t.Errorf("GET /signin for %s from %s (X-Forwarded-Proto %q) = %d, want accepted %v", tt.host, tt.origin, tt.proto, r.Status, tt.ok)
			}

			h := http.Header{"Origin": {tt.origin}, "Host": {tt.host}}
			if tt.proto != "" {
				h.Set("X-Forwarded-Proto", tt.proto)
			}
			u, _ := url.Parse(d.URL)
			h.Set("Cookie", cookieHeader(d.client.Jar.Cookies(u)))
			conn, resp, err := d.wsDialer().Dial(fmt.Sprintf("ws://%s/sessions/%d/live", d.Host, sid), h)
			if conn != nil {
				conn.Close()
			}
			// Cookies go by Host: the upgrade for another host comes from
			// nobody signed in, and is refused as such once its origin passed.
			refusedForOrigin := resp != nil && resp.StatusCode == http.StatusForbidden && err != nil
			if refusedForOrigin == tt.ok {
				status := 0
				if resp != nil {
					status = resp.StatusCode
				}
				t.Errorf("the live stream for %s from %s (X-Forwarded-Proto %q): %d %v, want refused for its origin %v", tt.host, tt.origin, tt.proto, status, err, !tt.ok)
			}
		})
	}
}

// cookieHeader is a Cookie header of cookies.
func cookieHeader(cookies []*http.Cookie) string {
	parts := make([]string, len(cookies))
	for i, ck := range cookies {
		parts[i] = ck.Name + "=" + ck.Value
	}
	return strings.Join(parts, "; ")
}
