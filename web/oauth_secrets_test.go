package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// TestOAuthSecretsStayOutOfFilesPagesAndLogs signs in, refreshes, calls a
// tool and re-runs the code exchange, with each spelling of a token
// answer that golang.org/x/oauth2 accepts, and then looks for every
// authorization code, PKCE verifier, access and refresh token that
// crossed the wire in the pages a viewer sees, the JSON API, the log and
// the database files (audit log included).
func TestOAuthSecretsStayOutOfFilesPagesAndLogs(t *testing.T) {
	for name, answer := range map[string]tokenAnswer{"json": tokenAsJSON, "form as text/plain": tokenAsForm, "upper-case json": tokenAsShouting} {
		t.Run(name, func(t *testing.T) {
			var log syncBuffer
			d := mustDashboardWith(t, dashboardOptions{log: &log})
			as := mustTestAS(t, testASOptions{lifetime: 2 * time.Second, tokenAnswer: answer})
			srv := d.MustAPIServer(t, map[string]any{"name": "guarded", "transport": "http", "url": as.MCPURL})
			flow := d.mustOAuthSignIn(t, as, srv.ID)
			if page := d.get(t, flow).Body; !strings.Contains(page, `data-status="succeeded"`) {
				t.Fatalf("the sign-in failed: steps %q, failed checks %q", oauthSteps(page), failedCheck.FindAllStringSubmatch(page, -1))
			}
			time.Sleep(2100 * time.Millisecond)
			sess := d.MustAPISession(t, srv.ID) // refreshes the expired token
			r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/requests", sess.ID),
				map[string]any{"method": "tools/call", "params": map[string]any{"name": "whoami", "arguments": map[string]any{}}}, nil)
			if _, refreshes := as.lastAccessToken(); r.Status != http.StatusOK || refreshes == 0 {
				t.Fatalf("whoami: %d %s after %d refreshes; want an answer after a refresh", r.Status, r.Body, refreshes)
			}
			ids := stepIDs(d.get(t, flow).Body)
			d.postForm(t, flow+"/steps/"+ids["token"]+"/rerun", url.Values{"_csrf": {d.MustCSRF(t)}})
			d.postForm(t, flow+"/steps/"+ids["refresh"]+"/rerun", url.Values{"_csrf": {d.MustCSRF(t)}})

			viewer := d.mustAccount(t, "vera", "viewer")
			vc := newClient()
			d.mustSignIn(t, vc, "vera")
			seen := map[string]string{
				"the debugger":               d.get(t, flow).Body,
				"the debugger, to a viewer":  d.doWith(t, vc, d.newRequest(t, http.MethodGet, flow, nil)).Body,
				"the server page":            d.get(t, fmt.Sprintf("/servers/%d", srv.ID)).Body,
				"the session page":           d.get(t, fmt.Sprintf("/sessions/%d", sess.ID)).Body,
				"the API's server":           d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/servers/%d", srv.ID), nil, nil).Body,
				"the API's session frames":   d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/sessions/%d/frames", sess.ID), nil, nil).Body,
				"the audit page":             d.get(t, "/audit").Body,
				"the API, to a viewer token": viewerAPI(t, d, viewer.token, fmt.Sprintf("/api/v1/servers/%d", srv.ID)),
			}
			if err := d.audit.Flush(t.Context()); err != nil {
				t.Fatal(err)
			}
			d.pool.Close()
			for _, suffix := range []string{"", "-wal"} {
				b, err := os.ReadFile(d.dbPath + suffix)
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				seen["the database file"+suffix] = string(b)
			}
			seen["the log"] = log.String()

			secrets := as.crossedSecrets()
			if len(secrets) < 6 { // a code, its verifier, two access and two refresh tokens at least
				t.Fatalf("only %d secrets crossed the wire: %q", len(secrets), secrets)
			}
			for where, text := range seen {
				for _, secret := range secrets {
					if i := strings.Index(text, secret); i >= 0 {
						t.Errorf("%s holds the secret %q: …%s…", where, secret, text[max(0, i-120):min(len(text), i+len(secret)+40)])
					}
				}
			}
		})
	}
}

// viewerAPI answers a GET of the JSON API with a viewer's token.
func viewerAPI(t *testing.T, d *dashboard, token, path string) string {
	t.Helper()
	req := d.newRequest(t, http.MethodGet, path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	return d.doWith(t, newClient(), req).Body
}

// TestOAuthCallbackAfterTheSessionEndedKeepsTheCodeOutOfTheAuditLog: a
// browser whose dashboard session ended while it was at the authorization
// server comes back to a sign-in page that returns to the callback; the
// audit log's record of that sign-in names where it returns, without the
// authorization code.
func TestOAuthCallbackAfterTheSessionEndedKeepsTheCodeOutOfTheAuditLog(t *testing.T) {
	d := MustDashboard(t)
	const code = "CODE-OF-THE-AUTHORIZATION-SERVER"
	c := newClient()
	r := d.doWith(t, c, d.newRequest(t, http.MethodGet, "/oauth/callback?code="+code+"&state=st", nil))
	next, err := url.Parse(r.Header.Get("Location"))
	if r.Status != http.StatusSeeOther || err != nil || !strings.Contains(next.Query().Get("next"), code) {
		t.Fatalf("an anonymous callback: %d to %q, want a sign-in that returns to it", r.Status, r.Header.Get("Location"))
	}
	page := d.doWith(t, c, d.newRequest(t, http.MethodGet, next.RequestURI(), nil))
	m := csrfField.FindStringSubmatch(page.Body)
	if m == nil {
		t.Fatalf("the sign-in page has no CSRF field: %d", page.Status)
	}
	form := url.Values{"_csrf": {m[1]}, "name": {testAdmin}, "password": {testPassword}, "next": {next.Query().Get("next")}}
	if r := d.postFormWith(t, c, "/signin", form); r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/oauth/callback?") {
		t.Fatalf("signing in: %d to %q, want the callback", r.Status, r.Header.Get("Location"))
	}
	if e := d.mustOneAuditEvent(t, "signin"); strings.Contains(string(e.Details), code) || !strings.Contains(string(e.Details), "/oauth/callback") {
		t.Errorf("the sign-in's audit details are %s: want where it returns without the code", e.Details)
	}
}
