package main

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/oauthtest"
)

// TestEditorsCannotSendAdminSecretsElsewhere makes, against the running
// dashboard, the two ways an editor could have an admin's stored secret
// sent to a place of their own. The admin saves OAuth client credentials
// (client_secret_basic) on one server and connects with them, and a
// secret X-Api-Key header on another. The editor moves the first to their
// own server, which names itself as the authorization server, and
// connects, and so does the admin: the page after the move says the
// client secret was removed, and the impostor receives neither the secret
// nor any Authorization header (no access token obtained with it). The
// editor adds their proxy to the second, keeping its URL: the save is
// refused asking for the header again; with a value of their own it is
// taken, and the proxy receives that value, not the admin's. None of the
// secrets is in the database, its WAL or the log.
func TestEditorsCannotSendAdminSecretsElsewhere(t *testing.T) {
	bin := e2eBuildPlayground(t)
	db := filepath.Join(t.TempDir(), "playground.db")
	s := e2eServeDB(t, bin, db)
	const clientSecret, headerSecret = "cc-s3cret-b61e08", "hdr-s3cret-4f2a93"
	basic := base64.StdEncoding.EncodeToString([]byte("svc:" + clientSecret))

	as := oauthtest.Start(t, oauthtest.Options{Client: oauthtest.Client{ID: "svc", Secret: clientSecret}})
	machine := s.apiCreateServer(t, map[string]any{"name": "machine", "transport": "http", "url": as.MCPURL})
	admin := e2eFormPoster(t, s, s.client)
	admin(fmt.Sprintf("/servers/%d/oauth/settings", machine), url.Values{"grant_type": {"client_credentials"}, "client_id": {"svc"},
		"client_auth": {"client_secret_basic"}, "client_secret": {clientSecret}}, http.StatusOK)
	var session struct {
		ID int64 `json:"id"`
	}
	connect := fmt.Sprintf("%s/api/v1/servers/%d/sessions", s.URL, machine)
	e2ePostJSON(t, connect, nil, http.StatusCreated, &session)
	if as.Stats().ClientCredentials != 1 {
		t.Fatalf("the admin's connect made %d client credentials grants, want 1", as.Stats().ClientCredentials)
	}
	e2eAPICall(t, http.MethodDelete, fmt.Sprintf("%s/api/v1/sessions/%d", s.URL, session.ID))

	const keyedURL = "http://127.0.0.1:9/mcp" // nothing listens: only a proxy gets the request
	keyed := s.apiCreateServer(t, map[string]any{"name": "keyed", "transport": "http", "url": keyedURL,
		"headers": map[string]string{"X-Api-Key": headerSecret}})

	s.addUser(t, "eddie", "editor")
	editor := e2eFormPoster(t, s, s.signedInClient(t, "eddie"))
	impostor := oauthtest.StartImpostor(t)

	page := editor(fmt.Sprintf("/servers/%d", machine), url.Values{"name": {"machine"}, "transport": {"http"}, "url": {impostor.URL + "/mcp"}}, http.StatusOK)
	if !strings.Contains(page, `data-testid="destination-notice"`) || !strings.Contains(page, "the OAuth client secret was removed") {
		t.Errorf("the page after the editor's move does not say the client secret was removed:\n%.3000s", page)
	}
	editor(fmt.Sprintf("/servers/%d/connect", machine), url.Values{}, 0)
	if status, body := e2eAPICall(t, http.MethodPost, connect); status == http.StatusCreated || !strings.Contains(body, "must enter them again") {
		t.Errorf("the admin's connect after the move: %d %s; want a failure asking for the client secret again", status, body)
	}
	if got := impostor.Received(clientSecret, basic, "Authorization:", "POST /token"); len(got) > 0 {
		t.Errorf("the editor's server received the admin's credentials:\n%s", strings.Join(got, "\n---\n"))
	}

	proxied := func(header string) url.Values {
		return url.Values{"name": {"keyed"}, "transport": {"http"}, "url": {keyedURL}, "proxy": {impostor.URL}, "headers": {"X-Api-Key: " + header}}
	}
	if page := editor(fmt.Sprintf("/servers/%d", keyed), proxied(backend.RedactedValue), http.StatusUnprocessableEntity); !strings.Contains(page, "type the value again") {
		t.Errorf("the refusal of the editor's proxy does not ask for the header again:\n%.3000s", page)
	}
	editor(fmt.Sprintf("/servers/%d/connect", keyed), url.Values{}, 0)
	editor(fmt.Sprintf("/servers/%d", keyed), proxied("typed-by-eddie"), http.StatusOK)
	editor(fmt.Sprintf("/servers/%d/connect", keyed), url.Values{}, 0)
	if len(impostor.Received("typed-by-eddie")) == 0 {
		t.Error("the proxy never received the editor's own value: the test proves nothing")
	}
	if got := impostor.Received(headerSecret); len(got) > 0 {
		t.Errorf("the editor's proxy received the admin's header:\n%s", strings.Join(got, "\n---\n"))
	}

	secrets := map[string]string{"the client secret": clientSecret, "the client's Basic credentials": basic, "the secret header": headerSecret}
	e2eMustNotHold(t, "while the dashboard runs", s, db, secrets)
	s.stop(t)
	e2eMustNotHold(t, "after it stopped", s, db, secrets)
}

// e2eFormPoster returns a function that posts a form of the dashboard's
// pages as client, with its CSRF token, following redirects, and returns
// the page it ends on, which must have the status want (any when 0).
func e2eFormPoster(t *testing.T, s *e2eServer, client *http.Client) func(path string, form url.Values, want int) string {
	t.Helper()
	resp, err := client.Get(s.URL + "/account")
	if err != nil {
		t.Fatal(err)
	}
	m := e2eCSRFFieldRE.FindStringSubmatch(e2eReadAll(t, resp))
	if m == nil {
		t.Fatal("no form on the account page")
	}
	return func(path string, form url.Values, want int) string {
		t.Helper()
		form.Set("_csrf", m[1])
		resp, err := client.PostForm(s.URL+path, form)
		if err != nil {
			t.Fatalf("POST %s: %v", path, err)
		}
		body := e2eReadAll(t, resp)
		if want != 0 && resp.StatusCode != want {
			t.Fatalf("POST %s: %s, want %d\n%.3000s", path, resp.Status, want, body)
		}
		return body
	}
}

// e2eAPICall sends a JSON API request without a body as the admin and
// returns the answer's status and body, whatever they are.
func e2eAPICall(t *testing.T, method, rawURL string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := e2eHTTPDo(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, rawURL, err)
	}
	return resp.StatusCode, e2eReadAll(t, resp)
}
