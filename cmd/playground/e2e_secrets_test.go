package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mcp-playground/playground/backend/oauthtest"
)

var e2eNewTokenRE = regexp.MustCompile(`data-testid="new-token-value"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*data-testid="new-token-value"`)

// TestSecretsStayOutOfTheFiles runs the dashboard, gives it every kind of
// secret it keeps — a password, browser sessions, API tokens, header and
// env values of servers — uses them (a stdio session is connected with
// its secret env, a client-credentials server with its client secret,
// which a move of its URL then removes), and searches the bytes of the
// SQLite file, its WAL and the dashboard's log for each, while it runs
// and after it stopped.
func TestSecretsStayOutOfTheFiles(t *testing.T) {
	bin := e2eBuildPlayground(t)
	db := filepath.Join(t.TempDir(), "playground.db")
	s := e2eServeDB(t, bin, db)

	const headerSecret, envSecret = "hdr-s3cret-9c1f7e", "env-s3cret-51ad0b"
	s.apiCreateServer(t, map[string]any{"name": "remote", "transport": "http", "url": "http://127.0.0.1:9/mcp",
		"headers": map[string]string{"Authorization": "Bearer " + headerSecret}})
	demo := s.apiCreateServer(t, map[string]any{"name": "demo with a key", "transport": "stdio", "command": bin,
		"args": []string{"demo-server"}, "env": map[string]string{"DEMO_API_KEY": envSecret}})
	e2ePostJSON(t, fmt.Sprintf("%s/api/v1/servers/%d/sessions", s.URL, demo), nil, http.StatusCreated, nil)

	// A token made on the account page, as a person does.
	resp, err := s.client.Get(s.URL + "/account")
	if err != nil {
		t.Fatal(err)
	}
	m := e2eCSRFFieldRE.FindStringSubmatch(e2eReadAll(t, resp))
	if m == nil {
		t.Fatal("no form on the account page")
	}
	resp, err = s.client.PostForm(s.URL+"/account/tokens", url.Values{"_csrf": {m[1]}, "name": {"ci"}, "role": {"editor"}, "expires": {"30"}})
	if err != nil {
		t.Fatal(err)
	}
	page := e2eReadAll(t, resp)
	tm := e2eNewTokenRE.FindStringSubmatch(page)
	if tm == nil {
		t.Fatalf("the account page shows no new token: %s\n%s", resp.Status, page)
	}
	madeToken := tm[1] + tm[2]

	// An OAuth client secret, used at connect, then left behind when the
	// server's URL moves to another origin.
	const clientSecret = "cc-s3cret-7e20d4"
	as := oauthtest.Start(t, oauthtest.Options{Client: oauthtest.Client{ID: "svc", Secret: clientSecret}})
	machine := s.apiCreateServer(t, map[string]any{"name": "machine", "transport": "http", "url": as.MCPURL})
	postForm := e2eFormPoster(t, s, s.client)
	postForm(fmt.Sprintf("/servers/%d/oauth/settings", machine), url.Values{"grant_type": {"client_credentials"}, "client_id": {"svc"},
		"client_auth": {"client_secret_basic"}, "client_secret": {clientSecret}}, http.StatusOK)
	e2ePostJSON(t, fmt.Sprintf("%s/api/v1/servers/%d/sessions", s.URL, machine), nil, http.StatusCreated, nil)
	postForm(fmt.Sprintf("/servers/%d", machine), url.Values{"name": {"machine"}, "transport": {"http"}, "url": {"http://127.0.0.1:9/mcp"}}, http.StatusOK)

	u, _ := url.Parse(s.URL)
	secrets := map[string]string{"the admin's password": e2ePassword, "the CLI's API token": s.Token, "the account page's API token": madeToken,
		"a header value": headerSecret, "an env value": envSecret, "an OAuth client secret": clientSecret}
	for _, c := range s.client.Jar.Cookies(u) {
		if c.Name == "playground_session" {
			secrets["the session cookie"] = c.Value
		}
	}
	if _, ok := secrets["the session cookie"]; !ok {
		t.Fatal("the signed-in client holds no session cookie")
	}

	e2eMustNotHold(t, "while the dashboard runs", s, db, secrets)
	s.stop(t)
	e2eMustNotHold(t, "after it stopped", s, db, secrets)
}

// e2eMustNotHold fails when any of secrets (described by their keys) is in
// plain text in the database file db, its WAL or the log of s.
func e2eMustNotHold(t *testing.T, when string, s *e2eServer, db string, secrets map[string]string) {
	t.Helper()
	files := map[string][]byte{"the log": []byte(s.Log.String())}
	for _, name := range []string{db, db + "-wal"} {
		b, err := os.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(name)] = b
	}
	if len(files) < 2 {
		t.Fatalf("%s: no database file to search", when)
	}
	for fileName, b := range files {
		for what, secret := range secrets {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s: %s holds %s in plain text", when, fileName, what)
			}
		}
	}
}
