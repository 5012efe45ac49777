package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// publicRoutes answer without sign-in: signing in, the first admin's
// setup and static files. No other route may.
var publicRoutes = []string{"GET /signin", "POST /signin", "GET /setup", "POST /setup", "GET /static/*", "GET /static", "GET /static*", "GET /healthz"}

// selfServiceRoutes are the state-changing routes a viewer may use: their
// own session, password and tokens. Every other one needs an editor.
var selfServiceRoutes = []string{"POST /signout", "POST /account/password", "POST /account/tokens",
	"POST /account/tokens/:token/revoke", "POST /account/sessions/end-others"}

// TestEveryRouteChecksWhoAsks enumerates the router and proves, for every
// route but the public ones, that it refuses an anonymous request (and
// answers it with no data), and, for each state-changing one, a person
// whose role is too low, a foreign Origin and a missing CSRF token (for
// the JSON API: a browser's cookie instead of an API token), each with the
// body that would make the handler act. A route added later without an
// access rule stops the dashboard from starting; one added with a rule is
// covered here.
func TestEveryRouteChecksWhoAsks(t *testing.T) {
	d := MustDashboard(t)
	touched := filepath.Join(t.TempDir(), "touched")
	victim := d.MustAPIServer(t, map[string]any{"name": "touch-victim", "transport": "stdio", "command": "touch", "args": []string{touched}})
	sdk := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	live := d.MustAPISession(t, sdk.ID)
	ids := map[string]string{"servers": fmt.Sprint(victim.ID), "sessions": fmt.Sprint(live.ID), "users": "1"}

	viewer := d.mustAccount(t, "vera", backend.RoleViewer)
	editor := d.mustAccount(t, "eddie", backend.RoleEditor)
	signedIn := map[backend.Role]*http.Client{backend.RoleAdmin: d.client}
	tokens := map[backend.Role]string{backend.RoleAdmin: d.token, backend.RoleViewer: viewer.token, backend.RoleEditor: editor.token}
	for role, name := range map[backend.Role]string{backend.RoleViewer: "vera", backend.RoleEditor: "eddie"} {
		signedIn[role] = newClient()
		d.mustSignIn(t, signedIn[role], name)
	}
	anonymous := newClient()
	below := map[backend.Role]backend.Role{backend.RoleEditor: backend.RoleViewer, backend.RoleAdmin: backend.RoleEditor}

	before := registrySnapshot(t, d)
	var stateChanging int
	for _, r := range d.web.Routes() {
		key := r.Method + " " + r.Path
		need, ok := d.web.RouteRole(r.Method, r.Path)
		if !ok {
			t.Errorf("%s has no access rule", key)
			continue
		}
		if slices.Contains(publicRoutes, key) {
			if need != "" {
				t.Errorf("%s is public but needs %s", key, need)
			}
			continue
		}
		if need == "" {
			t.Errorf("%s answers anyone but is not one of the public routes %v", key, publicRoutes)
			continue
		}
		path := routePath(r.Path, ids, "x")
		api := strings.HasPrefix(r.Path, "/api/")
		safe := isSafeMethod(r.Method)
		if !safe {
			stateChanging++
			if need == backend.RoleViewer && !slices.Contains(selfServiceRoutes, key) {
				t.Errorf("%s changes state but a viewer may use it; only %v may", key, selfServiceRoutes)
			}
		}
		// send makes the request as client (cookies) or with token, with
		// a valid CSRF token of client unless noCSRF, and the body that
		// would make the handler act.
		send := func(t *testing.T, client *http.Client, token string, noCSRF bool, header map[string]string) response {
			t.Helper()
			form := forgedBody(r.Path, touched)
			if !noCSRF && !api && !safe {
				form.Set("_csrf", csrfOf(t, d, client))
			}
			req := d.newRequest(t, r.Method, path, strings.NewReader(form.Encode()))
			req.Header.Del("Authorization")
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if api && !safe {
				req.Header.Set("Content-Type", "application/json")
				req.Body, req.ContentLength = http.NoBody, 0
			}
			for k, v := range header {
				req.Header.Set(k, v)
			}
			return d.doWith(t, client, req)
		}
		t.Run(key+"/anonymous", func(t *testing.T) {
			resp := send(t, anonymous, "", false, nil)
			switch {
			case api:
				if resp.Status != http.StatusUnauthorized {
					t.Errorf("anonymous %s %s = %d, want 401: %.200s", r.Method, path, resp.Status, resp.Body)
				}
			case safe:
				loc := resp.Header.Get("Location")
				if resp.Status != http.StatusSeeOther || !strings.HasPrefix(loc, "/signin") {
					t.Errorf("anonymous %s %s = %d (Location %q), want 303 to /signin: %.200s", r.Method, path, resp.Status, loc, resp.Body)
				}
			default:
				if resp.Status != http.StatusUnauthorized {
					t.Errorf("anonymous %s %s = %d, want 401: %.200s", r.Method, path, resp.Status, resp.Body)
				}
			}
			for _, secret := range []string{"touch-victim", touched, "sdk"} {
				if strings.Contains(resp.Body, secret) {
					t.Errorf("anonymous %s %s answered with data (%q): %.300s", r.Method, path, secret, resp.Body)
				}
			}
		})
		if low, ok := below[need]; ok {
			t.Run(key+"/role "+string(low), func(t *testing.T) {
				var resp response
				if api {
					resp = send(t, anonymous, tokens[low], false, nil)
				} else {
					resp = send(t, signedIn[low], "", false, nil)
				}
				if resp.Status != http.StatusForbidden {
					t.Errorf("%s %s as %s = %d, want 403: %.200s", r.Method, path, low, resp.Status, resp.Body)
				}
			})
		}
		if safe {
			continue
		}
		t.Run(key+"/foreign origin", func(t *testing.T) {
			token := ""
			if api {
				token = tokens[backend.RoleAdmin]
			}
			resp := send(t, d.client, token, false, map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"})
			if resp.Status != http.StatusForbidden {
				t.Errorf("%s %s from a foreign Origin = %d, want 403: %.200s", r.Method, path, resp.Status, resp.Body)
			}
		})
		t.Run(key+"/no CSRF token", func(t *testing.T) {
			resp := send(t, d.client, "", true, nil) // an API request from the browser carries no API token
			want := http.StatusForbidden
			if api {
				want = http.StatusUnauthorized
			}
			if resp.Status != want {
				t.Errorf("%s %s signed in as admin without a CSRF token = %d, want %d: %.200s", r.Method, path, resp.Status, want, resp.Body)
			}
		})
	}
	if stateChanging < 40 {
		t.Errorf("only %d state-changing routes were tried; does the router list its routes?", stateChanging)
	}
	if _, err := os.Stat(touched); err == nil {
		t.Errorf("a refused request started the touch server: %s exists", touched)
	}
	if after := registrySnapshot(t, d); after != before {
		t.Errorf("refused requests changed the registry:\nbefore %s\nafter  %s", before, after)
	}
	if !d.pool.IsLive(live.ID) {
		t.Error("a refused request closed the live session")
	}
	users, err := d.accounts.ListUsers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(users) != 3 {
		t.Errorf("refused requests changed the accounts: %+v", users)
	}
}

// forgedBody is what a form to path would send so that a handler reached
// would act.
func forgedBody(path, touched string) url.Values {
	bodies := map[string]url.Values{
		"/servers":                 {"name": {"forged"}, "transport": {"stdio"}, "command": {"touch"}, "args": {touched}},
		"/servers/:id":             {"name": {"renamed"}, "transport": {"stdio"}, "command": {"touch"}, "args": {touched}},
		"/servers/:id/fix":         {"era": {"modern"}},
		"/sessions/:id/tools/call": {"_tool": {"echo"}, "arg.text": {"forged"}},
		"/sessions/:id/console":    {"mode": {"request"}, "method": {"ping"}},
		"/users":                   {"name": {"mallory"}, "role": {"admin"}, "password": {testPassword}, "confirm": {testPassword}},
		"/users/:id":               {"role": {"viewer"}, "disabled": {"yes"}},
		"/users/:id/password":      {"password": {"a new password of mallory"}},
		"/account/password":        {"current": {testPassword}, "password": {"a new password of mallory"}, "confirm": {"a new password of mallory"}},
		"/collections":             {"name": {"forged"}},
		"/servers/import":          {"config": {`{"mcpServers": {"forged": {"command": "touch", "args": ["` + touched + `"]}}}`}, "action.0": {"import"}, "name.0": {"forged"}},
	}
	if b, ok := bodies[path]; ok {
		return b
	}
	return url.Values{"x": {"1"}}
}

// csrfOf returns client's CSRF token, from a page that has a form.
func csrfOf(t *testing.T, d *dashboard, client *http.Client) string {
	t.Helper()
	r := d.doWith(t, client, d.newRequest(t, http.MethodGet, "/signin", nil))
	if m := csrfField.FindStringSubmatch(r.Body); m != nil {
		return m[1]
	}
	// Signed in, /signin redirects: the account page has forms.
	r = d.doWith(t, client, d.newRequest(t, http.MethodGet, "/account", nil))
	m := csrfField.FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("no CSRF field on /signin or /account: %d %.300s", r.Status, r.Body)
	}
	return m[1]
}

// registrySnapshot prints the registered servers.
func registrySnapshot(t *testing.T, d *dashboard) string {
	t.Helper()
	var list []apiServer
	d.api(t, http.MethodGet, "/api/v1/servers", nil, &list)
	return fmt.Sprintf("%+v", list)
}
