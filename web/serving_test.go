package web_test

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/web"
)

// behindProxy configures a dashboard as behind a reverse proxy on
// loopback that people reach at https://playground.example.com, with its
// apps origin at https://apps.example.com.
func behindProxy(cfg *web.Config, _ *web.Deps) {
	cfg.BaseURL = "https://playground.example.com"
	cfg.AppsBaseURL = "https://apps.example.com"
	cfg.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
}

// TestBehindProxy checks that the public URLs' hosts are accepted, that
// apps are framed from the apps origin's public URL by the dashboard's
// public origin, and that HSTS follows the trusted proxy's scheme.
func TestBehindProxy(t *testing.T) {
	d := mustDashboardWith(t, dashboardOptions{configure: behindProxy})
	get := func(t *testing.T, base, path, host string, header http.Header) response {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, base+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		for k, v := range header {
			req.Header[k] = v
		}
		return d.do(t, req)
	}

	// Cookies go by Host, so the client is signed in only at the listener's
	// address: pages for the public host are asked for anonymously.
	page := get(t, d.URL, "/signin", "playground.example.com", http.Header{"Origin": {"https://playground.example.com"}, "X-Forwarded-Proto": {"https"}})
	if page.Status != http.StatusOK {
		t.Fatalf("GET /signin with the base URL's host and origin = %d %s", page.Status, page.Body)
	}
	if got := page.Header.Get("Strict-Transport-Security"); got != "max-age=31536000" {
		t.Errorf("HTTPS through the trusted proxy: Strict-Transport-Security = %q", got)
	}
	if got := parseCSP(page.Header.Get("Content-Security-Policy"))["frame-src"]; got != "https://apps.example.com" {
		t.Errorf("frame-src = %q, want the apps origin's public URL", got)
	}
	if r := get(t, d.URL, "/signin", "playground.example.com", nil); r.Header.Get("Strict-Transport-Security") != "" {
		t.Errorf("plain HTTP carries Strict-Transport-Security %q", r.Header.Get("Strict-Transport-Security"))
	}
	if r := get(t, d.URL, "/signin", "apps.example.com", nil); r.Status != http.StatusMisdirectedRequest {
		t.Errorf("the dashboard answers the apps origin's host: %d", r.Status)
	}

	_, src, token := mustOpenApp(t, d)
	if want := "https://apps.example.com/apps/" + token; src != want {
		t.Errorf("the app is framed from %s, want %s", src, want)
	}
	app := get(t, d.AppsURL, "/apps/"+token, "apps.example.com", nil)
	if app.Status != http.StatusOK {
		t.Fatalf("the apps origin refuses its public host: %d %s", app.Status, app.Body)
	}
	if ancestors := parseCSP(app.Header.Get("Content-Security-Policy"))["frame-ancestors"]; !strings.Contains(" "+ancestors+" ", " https://playground.example.com ") {
		t.Errorf("frame-ancestors %q lacks the dashboard's public origin", ancestors)
	}
	if r := get(t, d.AppsURL, "/apps/"+token, "playground.example.com", nil); r.Status != http.StatusMisdirectedRequest {
		t.Errorf("the apps origin answers the dashboard's host: %d", r.Status)
	}
}

// TestForwardedProtoIgnoredWithoutTrustedProxy checks that a peer that is
// not a trusted proxy cannot turn HSTS on with X-Forwarded-Proto.
func TestForwardedProtoIgnoredWithoutTrustedProxy(t *testing.T) {
	d := MustDashboard(t)
	req := d.newRequest(t, http.MethodGet, "/", nil)
	req.Header.Set("X-Forwarded-Proto", "https")
	if r := d.do(t, req); r.Status != http.StatusOK || r.Header.Get("Strict-Transport-Security") != "" {
		t.Errorf("GET / = %d with Strict-Transport-Security %q", r.Status, r.Header.Get("Strict-Transport-Security"))
	}
}

// TestSessionCookieSecureBehindProxy checks that the session cookie is
// marked Secure when a trusted proxy says the browser came over HTTPS, and
// that any other peer saying so is not believed.
func TestSessionCookieSecureBehindProxy(t *testing.T) {
	for _, tc := range []struct {
		name       string
		configure  func(*web.Config, *web.Deps)
		wantSecure bool
	}{
		{"trusted proxy", behindProxy, true},
		{"untrusted peer", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mustDashboardWith(t, dashboardOptions{configure: tc.configure})
			client := newClient()
			page := d.doWith(t, client, d.newRequest(t, http.MethodGet, "/signin", nil))
			m := csrfField.FindStringSubmatch(page.Body)
			if m == nil {
				t.Fatalf("GET /signin: %d, no CSRF field", page.Status)
			}
			form := url.Values{"_csrf": {m[1]}, "name": {testAdmin}, "password": {testPassword}}
			req := d.newRequest(t, http.MethodPost, "/signin", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("X-Forwarded-Proto", "https")
			req.Header.Set("X-Forwarded-For", "198.51.100.7")
			r := d.doWith(t, client, req)
			if r.Status != http.StatusSeeOther {
				t.Fatalf("POST /signin = %d %s", r.Status, r.Body)
			}
			var session *http.Cookie
			for _, c := range (&http.Response{Header: r.Header}).Cookies() {
				if c.Value != "" && strings.Contains(c.Name, "session") {
					session = c
				}
			}
			if session == nil || session.Secure != tc.wantSecure {
				t.Errorf("session cookie %v, want Secure %v (Set-Cookie %q)", session, tc.wantSecure, r.Header.Values("Set-Cookie"))
			}
		})
	}
}
