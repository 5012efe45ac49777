package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// mustCSRFWith loads path with client and returns the CSRF token of its
// forms; the client keeps the matching cookie.
func (d *dashboard) mustCSRFWith(tb testing.TB, client *http.Client, path string) string {
	tb.Helper()
	r := d.doWith(tb, client, d.newRequest(tb, http.MethodGet, path, nil))
	m := csrfField.FindStringSubmatch(r.Body)
	if r.Status != http.StatusOK || m == nil {
		tb.Fatalf("GET %s: %d, no CSRF field:\n%s", path, r.Status, r.Body)
	}
	return m[1]
}

// postPage posts form to path with client, with the CSRF token of the page
// at from.
func (d *dashboard) postPage(tb testing.TB, client *http.Client, from, path string, form url.Values) response {
	tb.Helper()
	form.Set("_csrf", d.mustCSRFWith(tb, client, from))
	return d.postFormWith(tb, client, path, form)
}

// signInAs posts the sign-in form for client and returns the answer.
func (d *dashboard) signInAs(tb testing.TB, client *http.Client, name, password, next string) response {
	tb.Helper()
	return d.postPage(tb, client, "/signin", "/signin", url.Values{"name": {name}, "password": {password}, "next": {next}})
}

// cookieOf returns the value of the client's cookie called name, "" if none.
func (d *dashboard) cookieOf(client *http.Client, name string) string {
	u, _ := url.Parse(d.URL)
	for _, ck := range client.Jar.Cookies(u) {
		if ck.Name == name {
			return ck.Value
		}
	}
	return ""
}

// bearer sends a JSON API request with token.
func (d *dashboard) bearer(tb testing.TB, token, method, path, body string) response {
	tb.Helper()
	req, err := http.NewRequest(method, d.URL+path, strings.NewReader(body))
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return d.doWith(tb, newClient(), req)
}

// wantSignInRedirect checks that client, asking for path, is sent to sign in.
func (d *dashboard) wantSignInRedirect(tb testing.TB, client *http.Client, path string) {
	tb.Helper()
	r := d.doWith(tb, client, d.newRequest(tb, http.MethodGet, path, nil))
	if r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/signin") {
		tb.Fatalf("GET %s: %d to %q, want 303 to /signin", path, r.Status, r.Header.Get("Location"))
	}
}

func wantStatus(tb testing.TB, what string, r response, status int) {
	tb.Helper()
	if r.Status != status {
		tb.Fatalf("%s: status %d, want %d\n%s", what, r.Status, status, r.Body)
	}
}

func TestSignInReturnsToNext(t *testing.T) {
	d := MustDashboard(t)
	for _, tt := range []struct{ path, signIn string }{
		{"/", "/signin"},
		{"/history?q=a+b", "/signin?next=" + url.QueryEscape("/history?q=a+b")},
	} {
		c := newClient()
		r := d.doWith(t, c, d.newRequest(t, http.MethodGet, tt.path, nil))
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != tt.signIn {
			t.Fatalf("anonymous GET %s: %d to %q, want 303 to %q", tt.path, r.Status, r.Header.Get("Location"), tt.signIn)
		}
		page := d.doWith(t, c, d.newRequest(t, http.MethodGet, tt.signIn, nil))
		next := regexp.MustCompile(`name="next" value="([^"]*)"`).FindStringSubmatch(page.Body)
		if next == nil {
			t.Fatalf("GET %s: no next field:\n%s", tt.signIn, page.Body)
		}
		r = d.signInAs(t, c, testAdmin, testPassword, strings.ReplaceAll(next[1], "&amp;", "&"))
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != tt.path {
			t.Errorf("signing in from %s: %d to %q, want back to %s", tt.signIn, r.Status, r.Header.Get("Location"), tt.path)
		}
	}
}

func TestSignInIgnoresForeignNext(t *testing.T) {
	d := MustDashboard(t)
	for _, next := range []string{"//evil.example", "https://evil.example", `/\evil.example`, "/\r\nSet-Cookie: x=1", "evil.example", "/\t/evil.example", "/\n/evil.example", "/x/../\\evil.example"} {
		t.Run(next, func(t *testing.T) {
			c := newClient()
			page := d.doWith(t, c, d.newRequest(t, http.MethodGet, "/signin?next="+url.QueryEscape(next), nil))
			if strings.Contains(page.Body, "evil.example") {
				t.Errorf("the sign-in page keeps next %q", next)
			}
			r := d.signInAs(t, c, testAdmin, testPassword, next)
			if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/" {
				t.Errorf("signing in with next %q: %d to %q, want /", next, r.Status, r.Header.Get("Location"))
			}
			// Already signed in, the sign-in page sends on, but not away.
			r = d.doWith(t, c, d.newRequest(t, http.MethodGet, "/signin?next="+url.QueryEscape(next), nil))
			if r.Header.Get("Location") != "/" {
				t.Errorf("signed in, /signin?next=%q goes to %q, want /", next, r.Header.Get("Location"))
			}
		})
	}
}

func TestSignInRefused(t *testing.T) {
	d := MustDashboard(t)
	c := newClient()
	r := d.signInAs(t, c, testAdmin, "not the password", "")
	wantStatus(t, "a wrong password", r, http.StatusUnauthorized)
	if !strings.Contains(r.Body, `data-testid="form-error"`) || d.cookieOf(c, "playground_session") != "" {
		t.Errorf("a wrong password: no message, or a session cookie:\n%s", r.Body)
	}
}

func TestSetupFlow(t *testing.T) {
	d := mustDashboardWith(t, dashboardOptions{anonymous: true})
	ctx := context.Background()
	c := d.client

	r := d.doWith(t, c, d.newRequest(t, http.MethodGet, "/signin", nil))
	if !strings.Contains(r.Body, `data-testid="setup-needed"`) || strings.Contains(r.Body, `data-testid="signin-form"`) {
		t.Fatalf("/signin without any account does not point to the setup link:\n%s", r.Body)
	}
	if strings.Contains(r.Body, `data-testid="nav-collections"`) {
		t.Error("the top bar offers pages to someone not signed in")
	}
	token, err := d.accounts.SetupToken(ctx)
	if err != nil || token == "" {
		t.Fatalf("SetupToken = %q, %v", token, err)
	}
	wantStatus(t, "/setup with a wrong token", d.doWith(t, c, d.newRequest(t, http.MethodGet, "/setup?token=wrong", nil)), http.StatusNotFound)
	wantStatus(t, "/setup without a token", d.doWith(t, c, d.newRequest(t, http.MethodGet, "/setup", nil)), http.StatusNotFound)

	setupPage := "/setup?token=" + url.QueryEscape(token)
	form := url.Values{"token": {token}, "name": {"root"}, "password": {testPassword}, "confirm": {"something else"}}
	r = d.postPage(t, c, setupPage, "/setup", form)
	wantStatus(t, "passwords that differ", r, http.StatusUnprocessableEntity)

	form.Set("token", "wrong")
	form.Set("confirm", testPassword)
	r = d.postPage(t, c, setupPage, "/setup", form)
	if r.Status < 400 {
		t.Fatalf("posting a wrong setup token: %d", r.Status)
	}

	form.Set("token", token)
	before := d.mustCSRFWith(t, c, setupPage)
	form.Set("_csrf", before)
	r = d.postFormWith(t, c, "/setup", form)
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("setting up: %d to %q\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	var session *http.Cookie
	for _, ck := range (&http.Response{Header: r.Header}).Cookies() {
		if ck.Name == "playground_session" {
			session = ck
		}
	}
	if session == nil || session.Value == "" || !session.HttpOnly || session.SameSite != http.SameSiteLaxMode || session.Path != "/" {
		t.Fatalf("the session cookie: %+v; want HttpOnly, SameSite=Lax, Path=/", session)
	}
	if after := d.cookieOf(c, "playground_csrf"); after == "" || after == before {
		t.Errorf("the CSRF token after signing in is %q, the one before %q: want a new one", after, before)
	}
	wantStatus(t, "the dashboard once set up", d.doWith(t, c, d.newRequest(t, http.MethodGet, "/", nil)), http.StatusOK)
	// The link worked once.
	wantStatus(t, "the setup link again", d.doWith(t, newClient(), d.newRequest(t, http.MethodGet, setupPage, nil)), http.StatusNotFound)
	if u, err := d.accounts.UserByName(ctx, "root"); err != nil || u.Role != backend.RoleAdmin {
		t.Errorf("the first account: %+v, %v", u, err)
	}
}

func TestSignOutEndsTheSession(t *testing.T) {
	d := MustDashboard(t)
	old := d.cookieOf(d.client, "playground_session")
	if old == "" {
		t.Fatal("the signed-in client has no session cookie")
	}
	r := d.postPage(t, d.client, "/account", "/signout", url.Values{})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/signin?signed_out=1" {
		t.Fatalf("signing out: %d to %q", r.Status, r.Header.Get("Location"))
	}
	if page := d.get(t, "/signin?signed_out=1"); !strings.Contains(page.Body, "You are signed out") {
		t.Errorf("the sign-in page after signing out does not say so:\n%s", page.Body)
	}
	// A copy of the old cookie no longer works.
	replay := newClient()
	u, _ := url.Parse(d.URL)
	replay.Jar.SetCookies(u, []*http.Cookie{{Name: "playground_session", Value: old}})
	d.wantSignInRedirect(t, replay, "/")
}

func TestChangePasswordPage(t *testing.T) {
	d := MustDashboard(t)
	other := newClient()
	d.mustSignIn(t, other, testAdmin)
	const next = "a brand new passphrase"

	r := d.postPage(t, d.client, "/account", "/account/password", url.Values{"current": {"wrong one"}, "password": {next}, "confirm": {next}})
	wantStatus(t, "a wrong current password", r, http.StatusUnprocessableEntity)
	if !strings.Contains(r.Body, "This is not your current password.") {
		t.Errorf("no message at the current password:\n%s", r.Body)
	}
	r = d.postPage(t, d.client, "/account", "/account/password", url.Values{"current": {testPassword}, "password": {next}, "confirm": {next}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/account?done=password" {
		t.Fatalf("changing the password: %d to %q\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	wantStatus(t, "this browser after the change", d.get(t, "/account"), http.StatusOK)
	d.wantSignInRedirect(t, other, "/")
	if r := d.signInAs(t, newClient(), testAdmin, next, ""); r.Status != http.StatusSeeOther {
		t.Errorf("signing in with the new password: %d", r.Status)
	}
}

// revokeAction is the address of a token's revoke button.
var revokeAction = regexp.MustCompile(`action="(/account/tokens/\d+/revoke)"`)

func TestAPITokenPage(t *testing.T) {
	d := MustDashboard(t)
	const name = `<script>document.title="pwned"</script>`
	r := d.postPage(t, d.client, "/account", "/account/tokens", url.Values{"name": {name}, "role": {"viewer"}, "expires": {"30"}})
	wantStatus(t, "creating a token", r, http.StatusOK)
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q, want no-store on the page that shows a token", cc)
	}
	m := regexp.MustCompile(`value="(pgp_[^"]+)"`).FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("the new token is not shown:\n%s", r.Body)
	}
	token := m[1]
	if strings.Contains(r.Body, "<script>document") {
		t.Errorf("the token's name is not escaped:\n%s", r.Body)
	}
	again := d.get(t, "/account")
	if strings.Contains(again.Body, token) {
		t.Error("the account page shows the token a second time")
	}
	if strings.Contains(again.Body, "<script>document") || !strings.Contains(again.Body, "&lt;script&gt;") {
		t.Errorf("the token list does not show the name escaped:\n%s", again.Body)
	}

	wantStatus(t, "the token on the API", d.bearer(t, token, http.MethodGet, "/api/v1/servers", ""), http.StatusOK)
	wantStatus(t, "the token on a page", d.bearer(t, token, http.MethodGet, "/", ""), http.StatusSeeOther)
	wantStatus(t, "a viewer token writing", d.bearer(t, token, http.MethodPost, "/api/v1/servers", `{"name":"x","transport":"http","url":"http://127.0.0.1:9/mcp"}`), http.StatusForbidden)

	revoke := revokeAction.FindStringSubmatch(again.Body)
	if revoke == nil {
		t.Fatalf("no revoke button:\n%s", again.Body)
	}
	r = d.postPage(t, d.client, "/account", revoke[1], url.Values{})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("revoking: %d\n%s", r.Status, r.Body)
	}
	wantStatus(t, "a revoked token", d.bearer(t, token, http.MethodGet, "/api/v1/servers", ""), http.StatusUnauthorized)

	r = d.postPage(t, d.client, "/account", "/account/tokens", url.Values{"name": {"x"}, "role": {"owner"}, "expires": {"30"}})
	wantStatus(t, "a token of an unknown role", r, http.StatusUnprocessableEntity)
}

func TestAPITokenRoles(t *testing.T) {
	d := MustDashboard(t)
	viewer := d.mustAccount(t, "vera", backend.RoleViewer)
	editor := d.mustAccount(t, "ed", backend.RoleEditor)
	httpServer := `{"name":"remote","transport":"http","url":"http://127.0.0.1:9/mcp"}`
	stdioServer := `{"name":"local","transport":"stdio","command":"/bin/true"}`

	wantStatus(t, "a viewer's token registering a server", d.bearer(t, viewer.token, http.MethodPost, "/api/v1/servers", httpServer), http.StatusForbidden)
	r := d.bearer(t, editor.token, http.MethodPost, "/api/v1/servers", stdioServer)
	wantStatus(t, "an editor's token registering a stdio server", r, http.StatusForbidden)
	if !strings.Contains(r.Body, "admins") {
		t.Errorf("the refusal does not say who may: %s", r.Body)
	}
	wantStatus(t, "an editor's token registering an HTTP server", d.bearer(t, editor.token, http.MethodPost, "/api/v1/servers", httpServer), http.StatusCreated)
	assertServerCount(t, d, 1)
}

func TestEditorCannotManageStdioServers(t *testing.T) {
	d := MustDashboard(t)
	d.mustAccount(t, "ed", backend.RoleEditor)
	ed := newClient()
	d.mustSignIn(t, ed, "ed")

	r := d.postPage(t, ed, "/servers/new", "/servers", url.Values{"name": {"local"}, "transport": {"stdio"}, "command": {"/bin/true"}})
	wantStatus(t, "an editor's stdio server form", r, http.StatusForbidden)
	if !regexp.MustCompile(`(?s)Only admins register.*name="transport"|(?s)name="transport".*Only admins register`).MatchString(r.Body) {
		t.Errorf("the form does not show why:\n%s", r.Body)
	}
	assertServerCount(t, d, 0)

	stdio := d.MustAPIServer(t, map[string]any{"name": "local", "transport": "stdio", "command": "/bin/true"})
	path := fmt.Sprintf("/servers/%d", stdio.ID)
	r = d.postPage(t, ed, path+"/edit", path, url.Values{"name": {"local"}, "transport": {"stdio"}, "command": {"/bin/false"}})
	wantStatus(t, "an editor editing a stdio server", r, http.StatusForbidden)
	r = d.postPage(t, ed, path+"/edit", path, url.Values{"name": {"local"}, "transport": {"http"}, "url": {"http://127.0.0.1:9/mcp"}})
	wantStatus(t, "an editor turning a stdio server into an HTTP one", r, http.StatusForbidden)
	r = d.postPage(t, ed, path, path+"/delete", url.Values{})
	wantStatus(t, "an editor deleting a stdio server", r, http.StatusForbidden)
	assertServerCount(t, d, 1)

	r = d.postPage(t, ed, "/servers/new", "/servers", url.Values{"name": {"remote"}, "transport": {"http"}, "url": {"http://127.0.0.1:9/mcp"}})
	wantStatus(t, "an editor's HTTP server form", r, http.StatusSeeOther)
	assertServerCount(t, d, 2)
}

func TestPeoplePage(t *testing.T) {
	d := MustDashboard(t)
	ctx := context.Background()

	r := d.postPage(t, d.client, "/users", "/users", url.Values{"name": {"bob"}, "role": {"viewer"}, "password": {testPassword}, "confirm": {testPassword}})
	wantStatus(t, "adding bob", r, http.StatusCreated)
	r = d.postPage(t, d.client, "/users", "/users", url.Values{"name": {"BOB"}, "role": {"viewer"}, "password": {testPassword}, "confirm": {testPassword}})
	wantStatus(t, "adding BOB", r, http.StatusConflict)
	r = d.postPage(t, d.client, "/users", "/users", url.Values{"name": {`<script>alert(1)</script>`}, "role": {"viewer"}, "password": {testPassword}, "confirm": {testPassword}})
	wantStatus(t, "a name with markup", r, http.StatusUnprocessableEntity)
	if strings.Contains(r.Body, "<script>alert") {
		t.Errorf("the refused name is not escaped:\n%s", r.Body)
	}
	bobUser, err := d.accounts.UserByName(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	bob := newClient()
	d.mustSignIn(t, bob, "bob")
	wantStatus(t, "a viewer on /users", d.doWith(t, bob, d.newRequest(t, http.MethodGet, "/users", nil)), http.StatusForbidden)
	wantStatus(t, "a viewer on /servers/new", d.doWith(t, bob, d.newRequest(t, http.MethodGet, "/servers/new", nil)), http.StatusForbidden)
	bobCSRF := d.mustCSRFWith(t, bob, "/account")
	r = d.postFormWith(t, bob, "/users", url.Values{"_csrf": {bobCSRF}, "name": {"mallory"}, "role": {"admin"}, "password": {testPassword}, "confirm": {testPassword}})
	wantStatus(t, "a viewer adding an account", r, http.StatusForbidden)

	update := fmt.Sprintf("/users/%d", bobUser.ID)
	r = d.postPage(t, d.client, "/users", update, url.Values{"role": {"editor"}})
	wantStatus(t, "making bob an editor", r, http.StatusOK)
	wantStatus(t, "bob as editor on /servers/new", d.doWith(t, bob, d.newRequest(t, http.MethodGet, "/servers/new", nil)), http.StatusOK)

	r = d.postPage(t, d.client, "/users", update, url.Values{"role": {"editor"}, "disabled": {"yes"}})
	wantStatus(t, "disabling bob", r, http.StatusOK)
	d.wantSignInRedirect(t, bob, "/")
	if r := d.signInAs(t, newClient(), "bob", testPassword, ""); r.Status != http.StatusUnauthorized {
		t.Errorf("a disabled account signing in: %d", r.Status)
	}

	r = d.postPage(t, d.client, "/users", update, url.Values{"role": {"editor"}})
	wantStatus(t, "enabling bob", r, http.StatusOK)
	r = d.postPage(t, d.client, "/users", update+"/password", url.Values{"password": {"short"}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `data-testid="users-refused"`) || !strings.Contains(r.Body, `data-testid="user-list"`) {
		t.Errorf("a short password: %d, want 422 and the people page saying why:\n%s", r.Status, r.Body)
	}
	r = d.postPage(t, d.client, "/users", update+"/password", url.Values{"password": {"set by the admin"}})
	wantStatus(t, "setting bob's password", r, http.StatusOK)
	if r := d.signInAs(t, newClient(), "bob", "set by the admin", ""); r.Status != http.StatusSeeOther {
		t.Errorf("bob with the password the admin set: %d", r.Status)
	}

	admin, _ := d.accounts.UserByName(ctx, testAdmin)
	r = d.postPage(t, d.client, "/users", fmt.Sprintf("/users/%d", admin.ID), url.Values{"role": {"viewer"}})
	if r.Status != http.StatusConflict || !strings.Contains(r.Body, "You cannot change your own role") || !strings.Contains(r.Body, `data-testid="user-list"`) {
		t.Errorf("the admin demoting themselves: %d, want 409 and the people page saying why:\n%s", r.Status, r.Body)
	}
}

func TestSignInEscapesTheName(t *testing.T) {
	d := MustDashboard(t)
	r := d.signInAs(t, newClient(), `<script>alert(1)</script>`, "whatever it is", "")
	wantStatus(t, "signing in as markup", r, http.StatusUnauthorized)
	if strings.Contains(r.Body, "<script>alert") || !strings.Contains(r.Body, "&lt;script&gt;") {
		t.Errorf("the name typed is not shown escaped:\n%s", r.Body)
	}
}

// TestAPIIgnoresTheSessionCookie: a signed-in browser's cookie does not
// open the JSON API, which only API tokens do, so that no other site's
// page can make the browser call it.
func TestAPIIgnoresTheSessionCookie(t *testing.T) {
	d := MustDashboard(t)
	req, err := http.NewRequest(http.MethodGet, d.URL+"/api/v1/servers", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := d.do(t, req) // the signed-in client, without its token
	wantStatus(t, "the API with only a session cookie", r, http.StatusUnauthorized)
	if !strings.HasPrefix(r.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("WWW-Authenticate %q, want Bearer", r.Header.Get("WWW-Authenticate"))
	}
	wantStatus(t, "the API with a session token as Bearer", d.bearer(t, d.cookieOf(d.client, "playground_session"), http.MethodGet, "/api/v1/servers", ""), http.StatusUnauthorized)
}

// TestTokenOfChangedAccount: an API token that was just used answers to
// what the people page changes about its owner on the very next call.
func TestTokenOfChangedAccount(t *testing.T) {
	d := MustDashboard(t)
	carol := d.mustAccount(t, "carol", backend.RoleEditor)
	create := func() response {
		return d.bearer(t, carol.token, http.MethodPost, "/api/v1/servers", `{"name":"x","transport":"http","url":"http://127.0.0.1:9/mcp"}`)
	}
	wantStatus(t, "the editor's token writing", create(), http.StatusCreated)
	update := fmt.Sprintf("/users/%d", carol.user.ID)

	wantStatus(t, "demoting carol", d.postPage(t, d.client, "/users", update, url.Values{"role": {"viewer"}}), http.StatusOK)
	wantStatus(t, "the token of a demoted editor writing", create(), http.StatusForbidden)
	wantStatus(t, "the token of a demoted editor reading", d.bearer(t, carol.token, http.MethodGet, "/api/v1/servers", ""), http.StatusOK)

	wantStatus(t, "disabling carol", d.postPage(t, d.client, "/users", update, url.Values{"role": {"viewer"}, "disabled": {"yes"}}), http.StatusOK)
	wantStatus(t, "the token of a disabled account", d.bearer(t, carol.token, http.MethodGet, "/api/v1/servers", ""), http.StatusUnauthorized)
}
