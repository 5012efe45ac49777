package web_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/audit"
	"github.com/mcp-playground/playground/backend/oauthtest"
)

// mustPrivateKeyPEM returns a new P-256 key as PKCS #8 PEM and its public key.
func mustPrivateKeyPEM(t *testing.T) (string, *ecdsa.PublicKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), &key.PublicKey
}

// callWhoami calls the oauthtest server's whoami tool in the session and
// returns its text.
func (d *dashboard) callWhoami(t *testing.T, sessionID int64) string {
	t.Helper()
	var res struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/requests", sessionID),
		map[string]any{"method": "tools/call", "params": map[string]any{"name": "whoami", "arguments": map[string]any{}}}, &res)
	if r.Status != http.StatusOK || len(res.Result.Content) == 0 {
		t.Fatalf("whoami: %d %s", r.Status, r.Body)
	}
	return res.Result.Content[0].Text
}

var debuggerLink = regexp.MustCompile(`href="(/servers/\d+/oauth/flows/\d+)" data-testid="oauth-debugger"`)

func TestOAuthClientCredentialsConnectWithoutABrowser(t *testing.T) {
	keyPEM, pub := mustPrivateKeyPEM(t)
	keyLines := strings.Split(strings.TrimSpace(keyPEM), "\n")
	const secret = "cc-secret-6f1d2a9b"
	tests := []struct {
		name     string
		client   oauthtest.Client
		dpop     bool
		settings url.Values
		secrets  []string // never to be seen in the database, the pages or the audit log
		mode     string   // what the card says of the mode
	}{
		{name: "client secret", client: oauthtest.Client{ID: "svc", Secret: secret},
			settings: url.Values{"client_auth": {"client_secret_basic"}, "client_secret": {secret}},
			secrets:  []string{secret}, mode: "client credentials with a client secret"},
		{name: "private key", client: oauthtest.Client{ID: "svc", PublicKey: pub},
			settings: url.Values{"client_auth": {"private_key_jwt"}, "private_key": {keyPEM}},
			secrets:  []string{keyLines[1], keyLines[2]}, mode: "client credentials with a private key"},
		{name: "private key and DPoP", client: oauthtest.Client{ID: "svc", PublicKey: pub}, dpop: true,
			settings: url.Values{"client_auth": {"private_key_jwt"}, "private_key": {keyPEM}, "dpop": {"1"}},
			secrets:  []string{keyLines[1], keyLines[2]}, mode: "client credentials with a private key, DPoP-bound tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := MustDashboard(t)
			as := oauthtest.Start(t, oauthtest.Options{Client: tt.client, DPoP: tt.dpop})
			srv := d.MustAPIServer(t, map[string]any{"name": "machine", "transport": "http", "url": as.MCPURL})

			form := url.Values{"_csrf": {d.MustCSRF(t)}, "grant_type": {"client_credentials"}, "client_id": {"svc"}, "scopes": {"mcp:read"}}
			for k, v := range tt.settings {
				form[k] = v
			}
			if r := d.postForm(t, fmt.Sprintf("/servers/%d/oauth/settings", srv.ID), form); r.Status != http.StatusSeeOther {
				t.Fatalf("saving the settings: %d\n%s", r.Status, r.Body)
			}

			sess := d.MustAPISession(t, srv.ID)
			if got := d.callWhoami(t, sess.ID); got != "subject=svc scopes=mcp:read" {
				t.Errorf("whoami = %q, want the client as the subject with the scope asked for", got)
			}
			as.ExpireAccessTokens()
			if got := d.callWhoami(t, sess.ID); got != "subject=svc scopes=mcp:read" {
				t.Errorf("whoami after the token expired = %q", got)
			}
			if st := as.Stats(); st.ClientCredentials != 2 || st.Approvals != 0 || st.Registrations != 0 {
				t.Errorf("stats %+v: want two client credentials grants (the first, and the renewal after a 401), no sign-in", st)
			}

			card := d.get(t, fmt.Sprintf("/servers/%d", srv.ID)).Body
			if strings.Contains(card, `data-testid="oauth-signin"`) || !strings.Contains(card, tt.mode) {
				t.Errorf("the card offers a sign-in or does not say %q", tt.mode)
			}
			d.mustAccount(t, "vera", backend.RoleViewer)
			vera := newClient()
			d.signInAs(t, vera, "vera", testPassword, "/")
			seen := d.doWith(t, vera, d.newRequest(t, http.MethodGet, fmt.Sprintf("/servers/%d", srv.ID), nil))
			if !strings.Contains(seen.Body, tt.mode) || strings.Contains(seen.Body, `data-testid="oauth-settings"`) {
				t.Errorf("a viewer's page: %d; want the mode %q and no settings form", seen.Status, tt.mode)
			}
			m := debuggerLink.FindStringSubmatch(card)
			if m == nil {
				t.Fatalf("the card links to no debugger:\n%s", card)
			}
			flow := d.get(t, m[1]).Body
			want := "challenge:ok resource-metadata:ok server-metadata:ok client-credentials:ok challenge:ok client-credentials:ok"
			if got := strings.Join(oauthSteps(flow), " "); got != want {
				t.Errorf("the debugger shows %q, want %q\nfailed checks: %q", got, want, failedCheck.FindAllStringSubmatch(flow, -1))
			}
			if !strings.Contains(flow, "Client credentials grant") || !strings.Contains(flow, "Token requests of machine") || !strings.Contains(flow, `data-status="succeeded"`) {
				t.Errorf("the flow does not show a succeeded client credentials grant:\n%s", flow)
			}

			rerun := m[1] + "/steps/" + stepIDs(flow)["client-credentials"] + "/rerun"
			if r := d.postForm(t, rerun, url.Values{"_csrf": {d.MustCSRF(t)}}); r.Status != http.StatusSeeOther {
				t.Fatalf("re-running the grant: %d\n%s", r.Status, r.Body)
			}
			flow = d.get(t, m[1]).Body
			want = "challenge:ok resource-metadata:ok server-metadata:ok client-credentials:ok +client-credentials:ok challenge:ok client-credentials:ok"
			if got := strings.Join(oauthSteps(flow), " "); got != want {
				t.Errorf("after a re-run the debugger shows %q, want %q\nfailed checks: %q", got, want, failedCheck.FindAllStringSubmatch(flow, -1))
			}

			var details []string
			for _, e := range d.auditEvents(t, audit.Filter{Action: "oauth.settings"}) {
				details = append(details, string(e.Details))
			}
			if len(details) != 1 {
				t.Errorf("the audit log has %d oauth.settings events, want 1", len(details))
			}
			d.pool.Close()
			files := map[string]string{"card": card, "viewer's page": seen.Body, "debugger": flow, "audit": strings.Join(details, "\n")}
			for _, suffix := range []string{"", "-wal"} {
				b, err := os.ReadFile(d.dbPath + suffix)
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				files[d.dbPath+suffix] = string(b)
			}
			for where, text := range files {
				for _, s := range tt.secrets {
					if strings.Contains(text, s) {
						t.Errorf("a secret (%.12s…) is in plain text in %s", s, where)
					}
				}
			}
		})
	}
}

func TestOAuthClientCredentialsSettingsAreCheckedAtTheirFields(t *testing.T) {
	d := MustDashboard(t)
	as := oauthtest.Start(t, oauthtest.Options{})
	srv := d.MustAPIServer(t, map[string]any{"name": "machine", "transport": "http", "url": as.MCPURL})
	path := fmt.Sprintf("/servers/%d/oauth/settings", srv.ID)
	tests := []struct {
		name  string
		form  url.Values
		field string
	}{
		{"missing secret", url.Values{"client_id": {"svc"}, "client_auth": {"client_secret_basic"}}, "client_secret"},
		{"missing client ID", url.Values{"client_auth": {"client_secret_basic"}, "client_secret": {"s"}}, "client_id"},
		{"not a PEM", url.Values{"client_id": {"svc"}, "client_auth": {"private_key_jwt"}, "private_key": {"not a key"}}, "private_key"},
		{"a PEM of no key", url.Values{"client_id": {"svc"}, "client_auth": {"private_key_jwt"},
			"private_key": {"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"}}, "private_key"},
		{"missing key", url.Values{"client_id": {"svc"}, "client_auth": {"private_key_jwt"}}, "private_key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.form.Set("_csrf", d.MustCSRF(t))
			tt.form.Set("grant_type", "client_credentials")
			r := d.postForm(t, path, tt.form)
			if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `data-testid="error-`+tt.field+`"`) ||
				!strings.Contains(r.Body, `<details class="oauth-settings" data-testid="oauth-settings" open>`) {
				t.Fatalf("%d; want 422 with the settings open and an error at %s\n%s", r.Status, tt.field, r.Body)
			}
			if !strings.Contains(r.Body, `value="svc"`) && tt.form.Get("client_id") == "svc" {
				t.Errorf("the client ID typed is not kept in the form")
			}
		})
	}
	card := d.get(t, fmt.Sprintf("/servers/%d", srv.ID)).Body
	if !strings.Contains(card, "sign in through the browser") {
		t.Errorf("refused settings changed the mode:\n%s", card)
	}
}

// A client credentials token about to expire is obtained anew before the
// next request, without waiting for the server to refuse it.
func TestOAuthClientCredentialsRenewBeforeExpiry(t *testing.T) {
	d := MustDashboard(t)
	as := oauthtest.Start(t, oauthtest.Options{Client: oauthtest.Client{ID: "svc", Secret: "s"}, AccessTokenLifetime: 2 * time.Second})
	srv := d.MustAPIServer(t, map[string]any{"name": "machine", "transport": "http", "url": as.MCPURL})
	form := url.Values{"_csrf": {d.MustCSRF(t)}, "grant_type": {"client_credentials"}, "client_id": {"svc"}, "client_secret": {"s"}}
	if r := d.postForm(t, fmt.Sprintf("/servers/%d/oauth/settings", srv.ID), form); r.Status != http.StatusSeeOther {
		t.Fatalf("saving the settings: %d\n%s", r.Status, r.Body)
	}
	sess := d.MustAPISession(t, srv.ID)
	d.callWhoami(t, sess.ID)
	time.Sleep(2 * time.Second)
	if got := d.callWhoami(t, sess.ID); got != "subject=svc scopes=mcp:read mcp:write offline_access" {
		t.Errorf("whoami after the token's lifetime = %q", got)
	}
	if st := as.Stats(); st.ClientCredentials != 2 || st.Unauthorized != 1 {
		t.Errorf("stats %+v: want two grants and only the first request refused", st)
	}
}

// A client credentials connect the authorization server refuses says why,
// and the diagnosis points to the token requests instead of a sign-in.
func TestOAuthClientCredentialsRefusedIsToldWithoutASignIn(t *testing.T) {
	d := MustDashboard(t)
	as := oauthtest.Start(t, oauthtest.Options{Client: oauthtest.Client{ID: "svc", Secret: "right"}})
	srv := d.MustAPIServer(t, map[string]any{"name": "machine", "transport": "http", "url": as.MCPURL})
	form := url.Values{"_csrf": {d.MustCSRF(t)}, "grant_type": {"client_credentials"}, "client_id": {"svc"}, "client_secret": {"wrong"}}
	if r := d.postForm(t, fmt.Sprintf("/servers/%d/oauth/settings", srv.ID), form); r.Status != http.StatusSeeOther {
		t.Fatalf("saving the settings: %d\n%s", r.Status, r.Body)
	}
	r := d.postForm(t, fmt.Sprintf("/servers/%d/connect", srv.ID), url.Values{"_csrf": {d.MustCSRF(t)}})
	page := d.get(t, r.Header.Get("Location")).Body
	for _, want := range []string{"the client credentials grant failed: the token endpoint answered HTTP 401: invalid_client",
		"client credentials obtained no token it accepts", `<span class="badge failed">failed</span>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page after the failed connect does not say %q", want)
		}
	}
	if strings.Contains(page, `data-testid="try-signin"`) || strings.Contains(page, "unavailable:") {
		t.Errorf("the failed connect offers a sign-in or shows an error code:\n%s", page)
	}
	if r := d.postForm(t, fmt.Sprintf("/servers/%d/oauth/signin", srv.ID), url.Values{"_csrf": {d.MustCSRF(t)}}); r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "nobody needs to sign in") {
		t.Errorf("a sign-in to a client credentials server: %d, want 422 saying nobody needs to sign in", r.Status)
	}
}
