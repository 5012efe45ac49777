package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// csrfWith loads a page with a form as client and returns its CSRF token.
func (d *dashboard) csrfWith(t *testing.T, client *http.Client) string {
	t.Helper()
	r := d.doWith(t, client, d.newRequest(t, http.MethodGet, "/servers/new", nil))
	m := csrfField.FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("GET /servers/new: %d, no CSRF field", r.Status)
	}
	return m[1]
}

var continueRe = regexp.MustCompile(`<meta http-equiv="refresh" content="0;url=([^"]+)"`)

// startOAuthSignIn presses Sign in on the server's page as client and
// returns where the dashboard sends the browser: the authorization
// server (through the page that continues there), or the debugger of a
// sign-in that failed before.
func (d *dashboard) startOAuthSignIn(t *testing.T, client *http.Client, serverID int64) string {
	t.Helper()
	r := d.postFormWith(t, client, fmt.Sprintf("/servers/%d/oauth/signin", serverID), url.Values{"_csrf": {d.csrfWith(t, client)}})
	if r.Status == http.StatusSeeOther {
		return r.Header.Get("Location")
	}
	m := continueRe.FindStringSubmatch(r.Body)
	if r.Status != http.StatusOK || m == nil {
		t.Fatalf("Sign in: %d, neither a redirect nor a refresh to the authorization server\n%s", r.Status, r.Body)
	}
	return html.UnescapeString(m[1])
}

// callback follows the authorization server's redirect to the dashboard
// as client, as the browser's top-level navigation would.
func (d *dashboard) callback(t *testing.T, client *http.Client, callbackURL string) response {
	t.Helper()
	if !strings.HasPrefix(callbackURL, d.URL+"/oauth/callback?") {
		t.Fatalf("the authorization server sent the browser to %q, want the dashboard's callback", callbackURL)
	}
	req := d.newRequest(t, http.MethodGet, strings.TrimPrefix(callbackURL, d.URL), nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Sec-Fetch-Mode", "navigate")
	req.Header.Set("Sec-Fetch-Dest", "document")
	return d.doWith(t, client, req)
}

// mustOAuthSignIn signs the dashboard's client in to the server through
// as and returns the sign-in's debugger page.
func (d *dashboard) mustOAuthSignIn(t *testing.T, as *testAS, serverID int64) string {
	t.Helper()
	r := d.callback(t, d.client, as.approveURL(t, d.startOAuthSignIn(t, d.client, serverID)))
	flow := r.Header.Get("Location")
	if r.Status != http.StatusSeeOther || !regexp.MustCompile(fmt.Sprintf(`^/servers/%d/oauth/flows/\d+$`, serverID)).MatchString(flow) {
		t.Fatalf("the callback answered %d to %q, want 303 to the flow's debugger\n%s", r.Status, flow, r.Body)
	}
	return flow
}

var (
	stepRe       = regexp.MustCompile(`data-testid="oauth-step"\s+data-kind="([a-z-]+)"\s+data-status="([a-z]+)"(\s+data-rerun-of="\d+")?`)
	failedCheck  = regexp.MustCompile(`data-testid="oauth-check" data-ok="false"[^>]*>\s*✗\s*([^<]*)`)
	stepFormRe   = regexp.MustCompile(`id="oauth-step-(\d+)"\s+data-testid="oauth-step"\s+data-kind="([a-z-]+)"`)
	oauthFlowURL = regexp.MustCompile(`/servers/\d+/oauth/flows/\d+`)
)

// oauthSteps reads the debugger's steps as "kind:status", a re-run marked
// with a leading "+".
func oauthSteps(body string) []string {
	var out []string
	for _, m := range stepRe.FindAllStringSubmatch(body, -1) {
		s := m[1] + ":" + m[2]
		if m[3] != "" {
			s = "+" + s
		}
		out = append(out, s)
	}
	return out
}

// stepIDs maps each kind to the id of its first step on a debugger page.
func stepIDs(body string) map[string]string {
	out := map[string]string{}
	for _, m := range stepFormRe.FindAllStringSubmatch(body, -1) {
		if _, ok := out[m[2]]; !ok {
			out[m[2]] = m[1]
		}
	}
	return out
}

func TestOAuthSignInThenConnectAndCallATool(t *testing.T) {
	d := MustDashboard(t)
	as := mustTestAS(t, testASOptions{})
	srv := d.MustAPIServer(t, map[string]any{"name": "guarded", "transport": "http", "url": as.MCPURL})

	var refused apiError
	r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID), nil, &refused)
	if r.Status == http.StatusCreated || !strings.Contains(refused.Error, "needs OAuth sign-in") ||
		refused.SignInURL != fmt.Sprintf("%s/servers/%d#authorization", d.URL, srv.ID) {
		t.Fatalf("connecting before signing in: %d %+v; want a failure that says it needs OAuth sign-in, with the sign-in URL", r.Status, refused)
	}
	if page := d.get(t, fmt.Sprintf("/servers/%d", srv.ID)); !strings.Contains(page.Body, `data-testid="oauth-signin"`) {
		t.Fatalf("the server page offers no Sign in:\n%s", page.Body)
	}
	r = d.postForm(t, fmt.Sprintf("/servers/%d/connect", srv.ID), url.Values{"_csrf": {d.MustCSRF(t)}})
	if page := d.get(t, r.Header.Get("Location")); !strings.Contains(page.Body, `This server needs OAuth sign-in`) ||
		!strings.Contains(page.Body, fmt.Sprintf(`action="/servers/%d/oauth/signin"><input type="hidden" name="_csrf"`, srv.ID)) ||
		!strings.Contains(page.Body, `data-testid="try-signin">Sign in</button>`) {
		t.Errorf("the failed connect's diagnosis offers no Sign in button:\n%s", page.Body)
	}

	flow := d.mustOAuthSignIn(t, as, srv.ID)
	page := d.get(t, flow)
	want := []string{"challenge:ok", "resource-metadata:ok", "server-metadata:ok", "registration:ok", "authorization:ok", "callback:ok", "token:ok"}
	if got := oauthSteps(page.Body); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the debugger shows the steps %q, want %q\nfailed checks: %q", got, want, failedCheck.FindAllStringSubmatch(page.Body, -1))
	}
	if !strings.Contains(page.Body, `data-status="succeeded"`) {
		t.Errorf("the flow did not succeed:\n%s", page.Body)
	}
	token, _ := as.lastAccessToken()
	if token == "" || strings.Contains(page.Body, token) {
		t.Errorf("the debugger shows the access token %q (or none was issued)", token)
	}
	card := d.get(t, fmt.Sprintf("/servers/%d", srv.ID)).Body
	for _, want := range []string{"Sign in again", "Sign out", "Share with the team", as.Issuer, "mcp offline_access", "a refresh token renews it"} {
		if !strings.Contains(card, want) {
			t.Errorf("the Authorization card does not say %q", want)
		}
	}

	sess := d.MustAPISession(t, srv.ID)
	var res struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	r = d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/requests", sess.ID),
		map[string]any{"method": "tools/call", "params": map[string]any{"name": "whoami", "arguments": map[string]any{}}}, &res)
	if r.Status != http.StatusOK || len(res.Result.Content) == 0 || res.Result.Content[0].Text != "subject=alice" {
		t.Fatalf("whoami: %d %s", r.Status, r.Body)
	}

	d.pool.Close()
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(d.dbPath + suffix)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if strings.Contains(string(b), token) {
			t.Errorf("the access token is in plain text in %s", d.dbPath+suffix)
		}
	}
}

func TestOAuthRefreshAfterExpiryStoresTheNewToken(t *testing.T) {
	d := MustDashboard(t)
	as := mustTestAS(t, testASOptions{lifetime: 2 * time.Second})
	srv := d.MustAPIServer(t, map[string]any{"name": "short-lived", "transport": "http", "url": as.MCPURL})
	flow := d.mustOAuthSignIn(t, as, srv.ID)
	first, _ := as.lastAccessToken()
	time.Sleep(2100 * time.Millisecond)

	d.MustAPISession(t, srv.ID)
	latest, refreshes := as.lastAccessToken()
	if refreshes != 1 || latest == first {
		t.Fatalf("after expiry, connecting made %d refreshes; want one, with a new access token", refreshes)
	}
	admin, err := d.accounts.UserByName(context.Background(), testAdmin)
	if err != nil {
		t.Fatal(err)
	}
	g, token, ok, err := d.db.OAuthGrant(context.Background(), srv.ID, admin.ID)
	if err != nil || !ok || !strings.Contains(string(token), latest) || strings.Contains(string(token), first) {
		t.Fatalf("the stored grant (%v, %v) does not hold the refreshed token", ok, err)
	}
	if !g.ExpiresAt.After(time.Now()) {
		t.Errorf("the stored grant expires at %v, want the new token's expiry", g.ExpiresAt)
	}
	if got := oauthSteps(d.get(t, flow).Body); len(got) == 0 || got[len(got)-1] != "refresh:ok" {
		t.Errorf("the sign-in's debugger shows %q, want a refresh step last", got)
	}
}

func TestOAuthSignInToAnHTTPSSEServer(t *testing.T) {
	d := MustDashboard(t)
	as := mustTestAS(t, testASOptions{})
	srv := d.MustAPIServer(t, map[string]any{"name": "legacy sse", "transport": "sse", "url": as.SSEURL})
	flow := d.mustOAuthSignIn(t, as, srv.ID)
	if got := oauthSteps(d.get(t, flow).Body); len(got) != 7 || got[0] != "challenge:ok" || got[6] != "token:ok" {
		t.Errorf("the debugger shows %q, want the seven steps of a sign-in, passed", got)
	}
	sess := d.MustAPISession(t, srv.ID)
	r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/requests", sess.ID),
		map[string]any{"method": "tools/call", "params": map[string]any{"name": "whoami", "arguments": map[string]any{}}}, nil)
	if r.Status != http.StatusOK || !strings.Contains(r.Body, "subject=alice") {
		t.Fatalf("whoami over HTTP+SSE: %d %s", r.Status, r.Body)
	}
}

func TestOAuthRefusedAccessTokenIsRenewedOnce(t *testing.T) {
	d := MustDashboard(t)
	as := mustTestAS(t, testASOptions{})
	srv := d.MustAPIServer(t, map[string]any{"name": "revoking", "transport": "http", "url": as.MCPURL})
	d.mustOAuthSignIn(t, as, srv.ID)
	sess := d.MustAPISession(t, srv.ID)
	as.revokeAccessTokens()

	r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/requests", sess.ID),
		map[string]any{"method": "tools/call", "params": map[string]any{"name": "whoami", "arguments": map[string]any{}}}, nil)
	if _, refreshes := as.lastAccessToken(); r.Status != http.StatusOK || !strings.Contains(r.Body, "subject=alice") || refreshes != 1 {
		t.Fatalf("whoami after the server revoked the access token: %d %s, %d refreshes; want it answered after one refresh", r.Status, r.Body, refreshes)
	}
}

func TestOAuthCallbackInAnotherPersonsBrowserIsRefused(t *testing.T) {
	d := MustDashboard(t)
	as := mustTestAS(t, testASOptions{})
	srv := d.MustAPIServer(t, map[string]any{"name": "guarded", "transport": "http", "url": as.MCPURL})
	d.mustAccount(t, "bob", backend.RoleEditor)
	bob := newClient()
	d.mustSignIn(t, bob, "bob")

	back := as.approveURL(t, d.startOAuthSignIn(t, d.client, srv.ID))
	if r := d.callback(t, bob, back); r.Status != http.StatusForbidden || !strings.Contains(r.Body, "started by someone else") {
		t.Fatalf("bob's browser with the admin's callback: %d\n%s", r.Status, r.Body)
	}
	if r := d.callback(t, d.client, back); r.Status != http.StatusSeeOther || !oauthFlowURL.MatchString(r.Header.Get("Location")) {
		t.Fatalf("the admin's own callback after bob's was refused: %d %s", r.Status, r.Header.Get("Location"))
	}
	if r := d.callback(t, d.client, back); r.Status != http.StatusNotFound {
		t.Errorf("the same callback a second time: %d, want 404 (a state is single-use)", r.Status)
	}
}

func TestOAuthIssuerMismatchFailsAtTheServerMetadata(t *testing.T) {
	d := MustDashboard(t)
	as := mustTestAS(t, testASOptions{wrongIssuer: true})
	srv := d.MustAPIServer(t, map[string]any{"name": "impostor", "transport": "http", "url": as.MCPURL})
	flow := d.startOAuthSignIn(t, d.client, srv.ID)
	if !oauthFlowURL.MatchString(flow) {
		t.Fatalf("a sign-in with a wrong issuer led to %q, want its debugger", flow)
	}
	page := d.get(t, flow).Body
	if got := oauthSteps(page); len(got) < 3 || got[2] != "server-metadata:failed" {
		t.Errorf("the steps are %q, want the server metadata step failed", got)
	}
	failure := regexp.MustCompile(`data-testid="oauth-flow-failure">([^<]*)`).FindStringSubmatch(page)
	if failure == nil || !strings.Contains(failure[1], "Authorization server metadata") || !strings.Contains(failure[1], "issuer") {
		t.Errorf("the failure banner reads %q, want it to name the server metadata step and the issuer", failure)
	}
	if checks := failedCheck.FindAllStringSubmatch(page, -1); len(checks) == 0 || !strings.Contains(checks[0][1], "issuer equals") {
		t.Errorf("the failed checks are %q, want the issuer check", checks)
	}
}

func TestOAuthStepsRerunUnderTheirOriginal(t *testing.T) {
	d := MustDashboard(t)
	as := mustTestAS(t, testASOptions{})
	srv := d.MustAPIServer(t, map[string]any{"name": "guarded", "transport": "http", "url": as.MCPURL})
	flow := d.mustOAuthSignIn(t, as, srv.ID)
	ids := stepIDs(d.get(t, flow).Body)
	token := d.MustCSRF(t)
	for _, kind := range []string{"resource-metadata", "token"} {
		r := d.postForm(t, flow+"/steps/"+ids[kind]+"/rerun", url.Values{"_csrf": {token}})
		if r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), flow+"#oauth-step-"+ids[kind]) {
			t.Fatalf("re-running the %s step: %d %s\n%s", kind, r.Status, r.Header.Get("Location"), r.Body)
		}
	}
	page := d.get(t, flow).Body
	got := strings.Join(oauthSteps(page), " ")
	want := "challenge:ok resource-metadata:ok +resource-metadata:ok server-metadata:ok registration:ok authorization:ok callback:ok token:ok +token:failed"
	if got != want {
		t.Errorf("after re-runs the debugger shows %q, want %q", got, want)
	}
	if !strings.Contains(page, "invalid_grant") {
		t.Errorf("the re-run code exchange does not show the authorization server's invalid_grant")
	}
}

func TestOAuthSharedSignInConnectsTeammatesUntilItsOwnerSignsOut(t *testing.T) {
	d := MustDashboard(t)
	as := mustTestAS(t, testASOptions{})
	srv := d.MustAPIServer(t, map[string]any{"name": "team", "transport": "http", "url": as.MCPURL})
	bob := d.mustAccount(t, "bob", backend.RoleEditor)
	bobClient := newClient()
	d.mustSignIn(t, bobClient, "bob")
	connectAsBob := func() response {
		req := d.newRequest(t, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID), nil)
		req.Header.Set("Authorization", "Bearer "+bob.token)
		req.Header.Set("Content-Type", "application/json")
		return d.do(t, req)
	}
	d.mustOAuthSignIn(t, as, srv.ID)
	if r := connectAsBob(); r.Status == http.StatusCreated || !strings.Contains(r.Body, "needs OAuth sign-in") {
		t.Fatalf("bob connects with the admin's unshared sign-in: %d %s", r.Status, r.Body)
	}
	if r := d.postFormWith(t, bobClient, fmt.Sprintf("/servers/%d/oauth/share", srv.ID), url.Values{"_csrf": {d.csrfWith(t, bobClient)}, "shared": {"1"}}); r.Status != http.StatusNotFound {
		t.Errorf("bob shares a sign-in he does not have: %d", r.Status)
	}
	if r := d.postForm(t, fmt.Sprintf("/servers/%d/oauth/share", srv.ID), url.Values{"_csrf": {d.MustCSRF(t)}, "shared": {"1"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("sharing: %d %s", r.Status, r.Body)
	}
	if card := d.doWith(t, bobClient, d.newRequest(t, http.MethodGet, fmt.Sprintf("/servers/%d", srv.ID), nil)).Body; !strings.Contains(card, "admin shares their sign-in with the team") {
		t.Errorf("bob's Authorization card does not say whose shared sign-in he uses")
	}
	r := connectAsBob()
	if r.Status != http.StatusCreated {
		t.Fatalf("bob connects with the shared sign-in: %d %s", r.Status, r.Body)
	}
	if r := d.postForm(t, fmt.Sprintf("/servers/%d/oauth/signout", srv.ID), url.Values{"_csrf": {d.MustCSRF(t)}}); r.Status != http.StatusSeeOther {
		t.Fatalf("signing out: %d %s", r.Status, r.Body)
	}
	var sess apiSession
	if err := json.Unmarshal([]byte(r.Body), &sess); err != nil {
		t.Fatal(err)
	}
	if err := d.pool.Disconnect(context.Background(), sess.ID); err != nil {
		t.Fatal(err)
	}
	if r := connectAsBob(); r.Status == http.StatusCreated {
		t.Errorf("bob still connects after the owner signed out: %d %s", r.Status, r.Body)
	}
}

// TestOAuthAuthorizationEndpointMustBeAWebAddress: the dashboard sends
// the browser to the authorization endpoint the metadata names (a link
// and a refresh on the continue page), so one of another scheme, which
// the SDK lets through on a loopback host, would have the dashboard open
// an application on the person's machine. The sign-in fails instead, at
// the authorization step, and says why.
func TestOAuthAuthorizationEndpointMustBeAWebAddress(t *testing.T) {
	for _, endpoint := range []string{"ms-officecmd://127.0.0.1/open", "vscode://localhost/authorize", "file://localhost/etc/passwd"} {
		t.Run(endpoint, func(t *testing.T) {
			d := MustDashboard(t)
			as := mustTestAS(t, testASOptions{authorizeAt: endpoint})
			srv := d.MustAPIServer(t, map[string]any{"name": "launcher", "transport": "http", "url": as.MCPURL})
			flow := d.startOAuthSignIn(t, d.client, srv.ID)
			if !oauthFlowURL.MatchString(flow) {
				t.Fatalf("the sign-in sent the browser to %q, want the debugger of the failed sign-in", flow)
			}
			page := d.get(t, flow).Body
			failure := regexp.MustCompile(`data-testid="oauth-flow-failure">([^<]*)`).FindStringSubmatch(page)
			if failure == nil || !strings.Contains(failure[1], "not a web address") {
				t.Errorf("the failure banner reads %q, want it to say the authorization endpoint is not a web address", failure)
			}
		})
	}
}

// TestOAuthGarbageMetadataFailsAtItsStep: metadata of many megabytes or
// not JSON at all ends the sign-in at the server metadata step, at once,
// with a failure that names the step; the step keeps a bounded excerpt.
func TestOAuthGarbageMetadataFailsAtItsStep(t *testing.T) {
	huge := `{"issuer":"x","pad":"` + strings.Repeat("a", 8<<20) + `"}`
	for name, body := range map[string]string{"8 MB": huge, "not JSON": "<html><body>Welcome</body></html>"} {
		t.Run(name, func(t *testing.T) {
			d := MustDashboard(t)
			as := mustTestAS(t, testASOptions{metadataBody: body})
			srv := d.MustAPIServer(t, map[string]any{"name": "garbage", "transport": "http", "url": as.MCPURL})
			start := time.Now()
			flow := d.startOAuthSignIn(t, d.client, srv.ID)
			if !oauthFlowURL.MatchString(flow) || time.Since(start) > 10*time.Second {
				t.Fatalf("the sign-in led to %q after %s, want the debugger of a failed sign-in, soon", flow, time.Since(start))
			}
			page := d.get(t, flow).Body
			if got := oauthSteps(page); len(got) < 3 || got[2] != "server-metadata:failed" {
				t.Errorf("the steps are %q, want the server metadata step failed", got)
			}
			failure := regexp.MustCompile(`data-testid="oauth-flow-failure">([^<]*)`).FindStringSubmatch(page)
			if failure == nil || !strings.Contains(failure[1], "Authorization server metadata") {
				t.Errorf("the failure banner reads %q, want it to name the server metadata step", failure)
			}
			if len(page) > 1<<20 {
				t.Errorf("the debugger page is %d bytes: the step keeps the whole body", len(page))
			}
		})
	}
}

// TestOAuthFetchesOnlyWebAddresses: a server's metadata that names a
// file: URL as its authorization server has the dashboard fetch nothing
// from the host's files, neither in the sign-in nor in a re-run of its
// steps, and a viewer cannot have a step re-run at all.
func TestOAuthFetchesOnlyWebAddresses(t *testing.T) {
	d := MustDashboard(t)
	as := mustTestAS(t, testASOptions{authorizationServer: "file:///etc/passwd"})
	srv := d.MustAPIServer(t, map[string]any{"name": "guarded", "transport": "http", "url": as.MCPURL})
	flow := d.startOAuthSignIn(t, d.client, srv.ID)
	if !oauthFlowURL.MatchString(flow) {
		t.Fatalf("the sign-in led to %q, want the debugger of a failed sign-in", flow)
	}
	page := d.get(t, flow).Body
	steps := stepFormRe.FindAllStringSubmatch(page, -1)
	if len(steps) == 0 {
		t.Fatalf("the debugger shows no step:\n%s", page)
	}
	viewer := newClient()
	d.mustAccount(t, "vera", backend.RoleViewer)
	d.mustSignIn(t, viewer, "vera")
	for _, s := range steps {
		if r := d.postFormWith(t, viewer, flow+"/steps/"+s[1]+"/rerun", url.Values{"_csrf": {d.csrfWith(t, viewer)}}); r.Status != http.StatusForbidden {
			t.Errorf("a viewer re-running the %s step: %d, want 403", s[2], r.Status)
		}
		d.postForm(t, flow+"/steps/"+s[1]+"/rerun", url.Values{"_csrf": {d.MustCSRF(t)}})
	}
	page = d.get(t, flow).Body
	if strings.Contains(page, "root:") || strings.Contains(page, "/bin/") {
		t.Errorf("the debugger shows the host's /etc/passwd:\n%s", page)
	}
	if !strings.Contains(page, "file:///etc/passwd") {
		t.Errorf("the debugger does not say why the file: URL was not fetched:\n%s", page)
	}
}
