package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// The account every end-to-end dashboard has: created on a fresh database
// with `playground user add --admin` before the dashboard starts, with an
// API token from `playground token create`.
const (
	e2eAdmin    = "e2e-admin"
	e2ePassword = "e2e correct horse battery"
)

var (
	// e2eTokens keeps each database's admin token, so that a dashboard
	// restarted on the same database goes on using it.
	e2eTokens sync.Map // database path → token
	// e2eServers finds a running dashboard by its URL, for the helpers
	// that are given a URL.
	e2eServers sync.Map // base URL → *e2eServer
)

// e2eAdminToken gives db, a database not yet made, the admin account and
// returns its API token; a database it was already asked for keeps its own.
// Hashing a password takes long, so `playground user add` and `playground
// token create` make the account once, in a template database that each
// test's database starts as a copy of (with its key file).
func e2eAdminToken(t *testing.T, bin, db string) string {
	t.Helper()
	if token, ok := e2eTokens.Load(db); ok {
		return token.(string)
	}
	e2eTemplate.once.Do(func() { e2eTemplate.db, e2eTemplate.token, e2eTemplate.err = e2eMakeTemplate(bin) })
	if e2eTemplate.err != nil {
		t.Fatal(e2eTemplate.err)
	}
	for _, suffix := range []string{"", ".key"} {
		b, err := os.ReadFile(e2eTemplate.db + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(db+suffix, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	e2eTokens.Store(db, e2eTemplate.token)
	return e2eTemplate.token
}

// e2eTemplate is the database with the admin account that e2eAdminToken
// copies; TestMain removes its directory.
var e2eTemplate struct {
	once    sync.Once
	dir, db string
	token   string
	err     error
}

// e2eMakeTemplate makes the template database with bin.
func e2eMakeTemplate(bin string) (db, token string, err error) {
	dir, err := os.MkdirTemp("", "playground-e2e-template-")
	if err != nil {
		return "", "", err
	}
	e2eTemplate.dir = dir
	db = filepath.Join(dir, "playground.db")
	env := e2eEnvWithout(e2eEnviron(), "PLAYGROUND_DB")
	add := exec.Command(bin, "user", "add", "--admin", "--password-stdin", "--db", db, e2eAdmin)
	add.Env, add.Stdin = env, strings.NewReader(e2ePassword+"\n")
	if out, err := add.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("playground user add: %v\n%s", err, out)
	}
	create := exec.Command(bin, "token", "create", "--db", db, "--user", e2eAdmin, "--name", "end-to-end tests")
	create.Env = env
	out, err := create.Output()
	if err != nil {
		return "", "", fmt.Errorf("playground token create: %v", err)
	}
	return db, strings.TrimSpace(string(out)), nil
}

// e2eRemoveTemplate removes the template database, if one was made.
func e2eRemoveTemplate() {
	if e2eTemplate.dir != "" {
		os.RemoveAll(e2eTemplate.dir)
	}
}

var e2eCSRFFieldRE = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// signIn gives s a Go client signed in as the admin, through the sign-in
// form, which follows redirects like http.DefaultClient.
func (s *e2eServer) signIn(t *testing.T) {
	t.Helper()
	s.client = s.signedInClient(t, e2eAdmin)
}

// signedInClient returns a new Go client signed in as name, whose password
// is e2ePassword, through the sign-in form.
func (s *e2eServer) signedInClient(t *testing.T, name string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Transport: s.transport}
	resp, err := client.Get(s.URL + "/signin")
	if err != nil {
		t.Fatalf("GET /signin: %v", err)
	}
	page := e2eReadAll(t, resp)
	m := e2eCSRFFieldRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("GET /signin: %s, no CSRF field\n%s", resp.Status, page)
	}
	resp, err = client.PostForm(s.URL+"/signin", url.Values{"_csrf": {m[1]}, "name": {name}, "password": {e2ePassword}})
	if err != nil {
		t.Fatalf("POST /signin: %v", err)
	}
	if body := e2eReadAll(t, resp); resp.Request.URL.Path != "/" {
		t.Fatalf("signing in as %s ended at %s (%s), want /\n%s", name, resp.Request.URL, resp.Status, body)
	}
	return client
}

// e2eHTTPDo sends req as the end-to-end tests' admin when it is for a
// running dashboard: JSON API requests with its token, others with its
// session cookie; other requests go out as they are.
func e2eHTTPDo(req *http.Request) (*http.Response, error) {
	v, ok := e2eServers.Load(req.URL.Scheme + "://" + req.URL.Host)
	if !ok {
		return http.DefaultClient.Do(req)
	}
	s := v.(*e2eServer)
	if strings.HasPrefix(req.URL.Path, "/api/") && req.Header.Get("Authorization") == "" {
		req.Header.Set("Authorization", "Bearer "+s.Token)
	}
	return s.client.Do(req)
}

// e2eHTTPGet is http.Get through e2eHTTPDo.
func e2eHTTPGet(rawURL string) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, err
	}
	return e2eHTTPDo(req)
}

// signIn signs the browser in to srv as the admin: it is given the
// session of srv's signed-in client, as if it had signed in (the sign-in
// page itself is tested with signInAs).
func (p *e2ePage) signIn(srv *e2eServer) {
	p.t.Helper()
	u, _ := url.Parse(srv.URL)
	var session *http.Cookie
	for _, c := range srv.client.Jar.Cookies(u) {
		if c.Name == "playground_session" {
			session = c
		}
	}
	if session == nil {
		p.t.Fatal("the admin's client holds no session cookie")
	}
	ctx, cancel := context.WithTimeout(p.ctx, e2eStepTimeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, network.SetCookie, network.SetCookieParams{Name: session.Name, Value: session.Value,
		URL: srv.URL, HTTPOnly: new(true), SameSite: network.CookieSameSiteLax}); err != nil {
		p.t.Fatalf("giving the browser the admin's session: %v", err)
	}
	p.do("open the server list signed in", "main", chromedp.Navigate(srv.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="signed-in"]`)))
}

// signInAs signs the browser in to srv as name, whose password is
// e2ePassword, through the sign-in page.
func (p *e2ePage) signInAs(srv *e2eServer, name string) {
	p.t.Helper()
	p.do("open the sign-in page", "main", chromedp.Navigate(srv.URL+"/signin"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="signin-form"]`)))
	p.setValue(`#signin-name`, name)
	p.setValue(`#signin-password`, e2ePassword)
	p.follow("sign in", `[data-testid="signin-submit"]`)
	p.do("wait for the server list", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="signed-in"]`)))
}

// e2eReadAll reads and closes resp's body.
func e2eReadAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", resp.Request.Method, resp.Request.URL, err)
	}
	return string(b)
}

// addUser adds an account called name with role and the password
// e2ePassword, as the admin does on the People page.
func (s *e2eServer) addUser(t *testing.T, name, role string) {
	t.Helper()
	resp, err := s.client.Get(s.URL + "/users")
	if err != nil {
		t.Fatalf("GET /users: %v", err)
	}
	m := e2eCSRFFieldRE.FindStringSubmatch(e2eReadAll(t, resp))
	if m == nil {
		t.Fatalf("GET /users: %s, no form", resp.Status)
	}
	resp, err = s.client.PostForm(s.URL+"/users", url.Values{"_csrf": {m[1]}, "name": {name}, "role": {role},
		"password": {e2ePassword}, "confirm": {e2ePassword}})
	if err != nil {
		t.Fatalf("POST /users: %v", err)
	}
	if body := e2eReadAll(t, resp); resp.StatusCode != http.StatusCreated {
		t.Fatalf("adding %s: %s\n%s", name, resp.Status, body)
	}
}
