package web_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
)

// testAdmin is the account MustDashboard signs its client in as.
const (
	testAdmin    = "admin"
	testPassword = "correct horse battery"
)

// testAccount is an account a test made, with an API token of its role.
type testAccount struct {
	user  backend.User
	token string
}

// mustAccount creates an account called name with testPassword and an API
// token of its role.
func (d *dashboard) mustAccount(tb testing.TB, name string, role backend.Role) testAccount {
	tb.Helper()
	ctx := context.Background()
	u, err := d.accounts.AddUser(ctx, name, testPassword, role)
	if err != nil {
		tb.Fatalf("adding account %s: %v", name, err)
	}
	_, token, err := d.accounts.CreateToken(ctx, accounts.Principal{User: u, Role: u.Role}, "tests", role, time.Hour)
	if err != nil {
		tb.Fatalf("a token for %s: %v", name, err)
	}
	return testAccount{user: u, token: token}
}

// mustSignIn signs client in as name (password testPassword) through the
// sign-in form.
func (d *dashboard) mustSignIn(tb testing.TB, client *http.Client, name string) {
	tb.Helper()
	r := d.doWith(tb, client, d.newRequest(tb, http.MethodGet, "/signin", nil))
	m := csrfField.FindStringSubmatch(r.Body)
	if m == nil {
		tb.Fatalf("GET /signin: %d, no CSRF field:\n%s", r.Status, r.Body)
	}
	form := url.Values{"_csrf": {m[1]}, "name": {name}, "password": {testPassword}}
	if r := d.postFormWith(tb, client, "/signin", form); r.Status != http.StatusSeeOther {
		tb.Fatalf("signing in as %s: %d\n%s", name, r.Status, r.Body)
	}
}

// newClient returns a client with its own cookies, not signed in, that
// does not follow redirects.
func newClient() *http.Client {
	jar, _ := newJar()
	return &http.Client{Jar: jar, Timeout: 20 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// wsDialer dials WebSockets with the dashboard client's cookies, as the
// signed-in browser would.
func (d *dashboard) wsDialer() *websocket.Dialer {
	return &websocket.Dialer{Jar: d.client.Jar, HandshakeTimeout: 10 * time.Second}
}
