package web_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/audit"
	"github.com/mcp-playground/playground/backend/oauthtest"
)

// mustEditor adds the editor eddie and returns the account and a client
// signed in as them.
func (d *dashboard) mustEditor(t *testing.T) (testAccount, *http.Client) {
	t.Helper()
	eddie := d.mustAccount(t, "eddie", backend.RoleEditor)
	editor := newClient()
	d.mustSignIn(t, editor, "eddie")
	return eddie, editor
}

// editServerURL has client, an editor, save the server's edit form with
// only the URL changed, and returns the answer, a redirect.
func (d *dashboard) editServerURL(t *testing.T, client *http.Client, serverID int64, name, newURL string) response {
	t.Helper()
	form := url.Values{"_csrf": {csrfOf(t, d, client)}, "name": {name}, "transport": {"http"}, "url": {newURL}}
	r := d.postFormWith(t, client, fmt.Sprintf("/servers/%d", serverID), form)
	if r.Status != http.StatusSeeOther {
		t.Fatalf("the editor's URL change: %d\n%.2000s", r.Status, r.Body)
	}
	return r
}

// TestEditorsNewURLGetsNoClientSecret: an admin saves client credentials
// with a secret; an editor points the server at their own server, which
// names itself as the authorization server, and connects. The save
// removes the client secret and says so on the page it leads to; the
// connect fails saying the secret must be entered again; the impostor
// receives neither the secret nor any Authorization header, and the
// secret is in none of the database, its WAL and the log.
func TestEditorsNewURLGetsNoClientSecret(t *testing.T) {
	const secret = "cc-secret-e81f3a7d"
	log := &syncBuffer{}
	d := mustDashboardWith(t, dashboardOptions{log: log})
	as := oauthtest.Start(t, oauthtest.Options{Client: oauthtest.Client{ID: "svc", Secret: secret}})
	srv := d.MustAPIServer(t, map[string]any{"name": "machine", "transport": "http", "url": as.MCPURL})
	form := url.Values{"_csrf": {d.MustCSRF(t)}, "grant_type": {"client_credentials"}, "client_id": {"svc"},
		"client_auth": {"client_secret_basic"}, "client_secret": {secret}}
	if r := d.postForm(t, fmt.Sprintf("/servers/%d/oauth/settings", srv.ID), form); r.Status != http.StatusSeeOther {
		t.Fatalf("saving the settings: %d\n%s", r.Status, r.Body)
	}
	sess := d.MustAPISession(t, srv.ID)
	if got := d.callWhoami(t, sess.ID); !strings.HasPrefix(got, "subject=svc ") {
		t.Fatalf("whoami with the admin's settings = %q", got)
	}
	if err := d.pool.Disconnect(t.Context(), sess.ID); err != nil { // the editor connects afresh
		t.Fatal(err)
	}

	impostor := oauthtest.StartImpostor(t)
	eddie, editor := d.mustEditor(t)
	r := d.editServerURL(t, editor, srv.ID, "machine", impostor.URL+"/mcp")
	page := d.doWith(t, editor, d.newRequest(t, http.MethodGet, r.Header.Get("Location"), nil)).Body
	if !strings.Contains(page, `data-testid="destination-notice"`) || !strings.Contains(page, "the URL moved to another scheme, host or port") ||
		!strings.Contains(page, "the OAuth client secret was removed") {
		t.Errorf("the page after the save does not say the client secret was removed:\n%s", page)
	}
	if again := d.doWith(t, editor, d.newRequest(t, http.MethodGet, r.Header.Get("Location"), nil)).Body; strings.Contains(again, `data-testid="destination-notice"`) {
		t.Error("the notice is shown a second time")
	}

	connect := d.bearer(t, eddie.token, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID), "{}")
	if connect.Status == http.StatusCreated || !strings.Contains(connect.Body, "must enter them again") {
		t.Errorf("the editor's connect: %d %s; want a failure asking for the secret again", connect.Status, connect.Body)
	}
	basic := base64.StdEncoding.EncodeToString([]byte("svc:" + secret))
	if got := impostor.Received(secret, basic, "Authorization:", "POST /token"); len(got) > 0 {
		t.Errorf("the impostor received the client's credentials:\n%s", strings.Join(got, "\n---\n"))
	}
	settings, err := d.db.OAuthSettings(t.Context(), srv.ID)
	if err != nil || settings.ClientSecret != "" || settings.ClientID != "svc" {
		t.Errorf("the settings after the move: client %q, secret kept %v, %v; want the client ID alone", settings.ClientID, settings.ClientSecret != "", err)
	}
	var details []string
	for _, e := range d.auditEvents(t, audit.Filter{Action: "server.update"}) {
		details = append(details, string(e.Details))
	}
	if len(details) != 1 || !strings.Contains(details[0], `"destination_changed":"origin"`) || !strings.Contains(details[0], `"client_secret":true`) {
		t.Errorf("the audit log of the move: %q; want the change and what it removed", details)
	}
	mustNotContain(t, d, log, secret, basic)
}

// TestEditorsNewURLGetsNoSharedSignIn: an admin signs in and shares the
// sign-in; an editor points the server at their own server. The save
// deletes the sign-in; neither the editor's connect nor the admin's own
// brings the admin's access token to the new URL.
func TestEditorsNewURLGetsNoSharedSignIn(t *testing.T) {
	log := &syncBuffer{}
	d := mustDashboardWith(t, dashboardOptions{log: log})
	as := mustTestAS(t, testASOptions{})
	srv := d.MustAPIServer(t, map[string]any{"name": "team", "transport": "http", "url": as.MCPURL})
	d.mustOAuthSignIn(t, as, srv.ID)
	if r := d.postForm(t, fmt.Sprintf("/servers/%d/oauth/share", srv.ID), url.Values{"_csrf": {d.MustCSRF(t)}, "shared": {"1"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("sharing: %d %s", r.Status, r.Body)
	}
	if err := d.pool.Disconnect(t.Context(), d.MustAPISession(t, srv.ID).ID); err != nil {
		t.Fatal(err)
	}

	impostor := oauthtest.StartImpostor(t)
	eddie, editor := d.mustEditor(t)
	r := d.editServerURL(t, editor, srv.ID, "team", impostor.URL+"/mcp")
	if page := d.doWith(t, editor, d.newRequest(t, http.MethodGet, r.Header.Get("Location"), nil)).Body; !strings.Contains(page, "1 sign-in was removed") {
		t.Errorf("the page after the save does not say the sign-in was removed:\n%s", page)
	}
	d.bearer(t, eddie.token, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID), "{}")
	d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID), nil, nil)
	if got := impostor.Received("Authorization:"); len(got) > 0 {
		t.Errorf("the new URL received an Authorization header:\n%s", strings.Join(got, "\n---\n"))
	}
	if grants, err := d.db.OAuthGrants(t.Context(), srv.ID); err != nil || len(grants) != 0 {
		t.Errorf("grants after the move: %d, %v; want none", len(grants), err)
	}
	mustNotContain(t, d, log, as.crossedSecrets()...)
}

// mustNotContain fails when any of secrets is in the dashboard's database,
// its WAL or its log.
func mustNotContain(t *testing.T, d *dashboard, log *syncBuffer, secrets ...string) {
	t.Helper()
	files := map[string]string{"the log": log.String()}
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(d.dbPath + suffix)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		files[d.dbPath+suffix] = string(b)
	}
	for where, text := range files {
		for _, s := range secrets {
			if s != "" && strings.Contains(text, s) {
				t.Errorf("a secret (%.12s…) is in plain text in %s", s, where)
			}
		}
	}
}

// TestNewAuthorizationServerGetsNoClientSecret: the server keeps its URL
// but its metadata starts naming another authorization server. The
// client secret the admin saved goes to the one it was first used with
// only: connects fail naming the new issuer, an editor's save of the
// settings does not confirm it, and the new one receives nothing until
// an admin saves the settings again.
func TestNewAuthorizationServerGetsNoClientSecret(t *testing.T) {
	const secret = "cc-secret-2b90c4e6"
	log := &syncBuffer{}
	d := mustDashboardWith(t, dashboardOptions{log: log})
	as := oauthtest.Start(t, oauthtest.Options{Client: oauthtest.Client{ID: "svc", Secret: secret}})
	srv := d.MustAPIServer(t, map[string]any{"name": "machine", "transport": "http", "url": as.MCPURL})
	settingsPath := fmt.Sprintf("/servers/%d/oauth/settings", srv.ID)
	settings := func(csrf string) url.Values {
		return url.Values{"_csrf": {csrf}, "grant_type": {"client_credentials"}, "client_id": {"svc"}, "client_auth": {"client_secret_basic"}}
	}
	form := settings(d.MustCSRF(t))
	form.Set("client_secret", secret)
	if r := d.postForm(t, settingsPath, form); r.Status != http.StatusSeeOther {
		t.Fatalf("saving the settings: %d\n%s", r.Status, r.Body)
	}
	sess := d.MustAPISession(t, srv.ID)
	if err := d.pool.Disconnect(t.Context(), sess.ID); err != nil {
		t.Fatal(err)
	}

	impostor := oauthtest.StartImpostor(t)
	as.SetFaults(oauthtest.Faults{AuthorizationServer: impostor.URL})
	connect := fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID)
	basic := base64.StdEncoding.EncodeToString([]byte("svc:" + secret))
	if r := d.api(t, http.MethodPost, connect, nil, nil); r.Status == http.StatusCreated || !strings.Contains(r.Body, "is now "+impostor.URL) ||
		!strings.Contains(r.Body, "until an admin confirms the new one") {
		t.Errorf("the admin's connect: %d %s; want a failure naming the new authorization server", r.Status, r.Body)
	}
	eddie, editor := d.mustEditor(t)
	if r := d.postFormWith(t, editor, settingsPath, settings(csrfOf(t, d, editor))); r.Status != http.StatusSeeOther {
		t.Fatalf("the editor's save of the settings: %d\n%s", r.Status, r.Body)
	}
	if r := d.bearer(t, eddie.token, http.MethodPost, connect, "{}"); r.Status == http.StatusCreated || !strings.Contains(r.Body, "is now "+impostor.URL) {
		t.Errorf("the editor's connect after their save: %d %s; want the same failure", r.Status, r.Body)
	}
	if got := impostor.Received(secret, basic, "Authorization:", "POST /token"); len(got) > 0 {
		t.Fatalf("the new authorization server received the client's credentials:\n%s", strings.Join(got, "\n---\n"))
	}
	mustNotContain(t, d, log, secret, basic)

	if r := d.postForm(t, settingsPath, settings(d.MustCSRF(t))); r.Status != http.StatusSeeOther {
		t.Fatalf("the admin's save of the settings: %d\n%s", r.Status, r.Body)
	}
	d.api(t, http.MethodPost, connect, nil, nil)
	if got := impostor.Received("POST /token"); len(got) != 1 {
		t.Errorf("after the admin confirmed, the new authorization server got %d token requests, want 1: the test proves nothing", len(got))
	}
}

// TestSignInIsPresentedToItsOwnOriginOnly: a sign-in's access token goes
// only to the origin of the server it was obtained for, even when the
// server's settings point elsewhere without the registry's save (which
// would have deleted the sign-in): the connect fails saying so.
func TestSignInIsPresentedToItsOwnOriginOnly(t *testing.T) {
	d := MustDashboard(t)
	as := mustTestAS(t, testASOptions{})
	srv := d.MustAPIServer(t, map[string]any{"name": "guarded", "transport": "http", "url": as.MCPURL})
	d.mustOAuthSignIn(t, as, srv.ID)
	impostor := oauthtest.StartImpostor(t)
	moved, err := d.reg.Get(t.Context(), srv.ID)
	if err != nil {
		t.Fatal(err)
	}
	moved.URL = impostor.URL + "/mcp"
	if err := d.db.UpdateServer(t.Context(), moved); err != nil {
		t.Fatal(err)
	}
	r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID), nil, nil)
	if r.Status == http.StatusCreated || !strings.Contains(r.Body, "is not presented to "+impostor.URL) {
		t.Errorf("the connect: %d %s; want a failure saying the sign-in is for another server", r.Status, r.Body)
	}
	if got := impostor.Received("Authorization:"); len(got) > 0 {
		t.Errorf("the other origin received an Authorization header:\n%s", strings.Join(got, "\n---\n"))
	}
}

// TestOAuthRequestsGoThroughTheServersProxy: the OAuth requests of a
// server reached through a proxy (its metadata discovery and the token
// request that carries the client secret) go through that proxy as its
// MCP traffic does, so that a change of proxy, which removes the secret,
// covers them too.
func TestOAuthRequestsGoThroughTheServersProxy(t *testing.T) {
	const secret = "cc-secret-77d1e2"
	d := MustDashboard(t)
	as := oauthtest.Start(t, oauthtest.Options{Client: oauthtest.Client{ID: "svc", Secret: secret}})
	var mu sync.Mutex
	var forwarded []string
	proxy := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			mu.Lock()
			forwarded = append(forwarded, pr.In.Method+" "+pr.In.URL.String())
			mu.Unlock()
			pr.Out.URL = pr.In.URL // a forward proxy gets the absolute URL
		},
		FlushInterval: -1,
	})
	t.Cleanup(func() {
		proxy.CloseClientConnections() // the session's event stream
		proxy.Close()
	})
	srv := d.MustAPIServer(t, map[string]any{"name": "proxied", "transport": "http", "url": as.MCPURL, "proxy": proxy.URL})
	form := url.Values{"_csrf": {d.MustCSRF(t)}, "grant_type": {"client_credentials"}, "client_id": {"svc"},
		"client_auth": {"client_secret_basic"}, "client_secret": {secret}}
	if r := d.postForm(t, fmt.Sprintf("/servers/%d/oauth/settings", srv.ID), form); r.Status != http.StatusSeeOther {
		t.Fatalf("saving the settings: %d\n%s", r.Status, r.Body)
	}
	d.MustAPISession(t, srv.ID)
	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{"GET " + as.ResourceMetadataURL, "GET " + as.Issuer + "/.well-known/oauth-authorization-server", "POST " + as.Issuer + "/token"} {
		if !slices.Contains(forwarded, want) {
			t.Errorf("the proxy did not forward %s; it forwarded %q", want, forwarded)
		}
	}
}
