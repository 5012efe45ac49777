package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserOAuthHostileAuthorizationServer signs in, in Chromium, to a
// server whose authorization server puts e2ePayload in every text the
// dashboard shows of a sign-in: the challenge's WWW-Authenticate and body,
// response headers, metadata members and scopes, the client's name, the
// callback's error_description and iss, the token endpoint's refusal. The
// first sign-in is refused at the callback, the second at the code
// exchange; then a step is re-run and a connect fails on the challenge.
// Nothing runs on the debugger, the server page or the diagnosis, and
// the payload is shown there as text.
func TestBrowserOAuthHostileAuthorizationServer(t *testing.T) {
	srv, tab := e2eBrowse(t)
	p := &e2eHostileTab{e2ePage: tab}
	started := time.Now()
	step := func(name string) { t.Logf("%6.2fs  %s", time.Since(started).Seconds(), name) }
	mcpURL := e2eHostileAS(t)
	id := srv.apiCreateServer(t, map[string]any{"name": "hostile AS", "transport": "http", "url": mcpURL})
	serverPage := fmt.Sprintf("%s/servers/%d", srv.URL, id)

	signIn := func(what string) {
		t.Helper()
		p.do("open the server page", "main", chromedp.Navigate(serverPage),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-signin"]`)))
		p.wantInert("the server page before " + what)
		p.do(what, "body", chromedp.Click(chromedp.CSS(`[data-testid="oauth-signin"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-flow"][data-status="failed"]`)))
		p.wantInert("the debugger after " + what)
		p.do("unfold every exchange", `[data-testid="oauth-flow"]`,
			chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('[data-testid="oauth-flow"] details').forEach(d => d.open = true)`))
		p.wantInert("the debugger after " + what + ", unfolded")
		p.wantText("the debugger after "+what, `[data-testid="oauth-flow"]`, e2eProbe)
	}

	step("a sign-in refused at the callback")
	signIn("a sign-in refused at the callback")
	p.wantText("the failure", `[data-testid="oauth-flow-failure"]`, e2eProbe)

	step("a sign-in refused at the code exchange")
	signIn("a sign-in refused at the code exchange")

	step("re-run the resource metadata")
	p.follow("re-run a step", `[data-testid="oauth-step"][data-kind="resource-metadata"] [data-testid="oauth-step-rerun"]`)
	p.waitShown("the debugger after a re-run", `[data-testid="oauth-step"][data-rerun-of]`)

	step("connect: the challenge's diagnosis")
	p.do("connect", "main", chromedp.Navigate(serverPage),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="diagnosis"]`)))
	p.wantInert("the failed connect's diagnosis")
	p.do("unfold the findings", "main",
		chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('details').forEach(d => d.open = true)`))
	p.wantInert("the diagnosis, unfolded")
	p.wantText("the diagnosis", `[data-testid="diagnosis"]`, e2eProbe)
	p.wantInert("the end")
}

// e2eHostileAS serves, on one loopback port, an MCP endpoint that refuses
// every request with a challenge and the authorization server it names,
// each putting e2ePayload wherever a sign-in shows text; it returns the
// MCP URL. Its /authorize refuses the first sign-in with the payload as
// error_description and iss and hands a code to later ones, which its
// token endpoint refuses with the payload.
func e2eHostileAS(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	base := hs.URL
	var authorizations atomic.Int32
	answer := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("X-Hostile", e2ePayload)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+base+`/.well-known/oauth-protected-resource/mcp", error="invalid_token", `+
			`error_description="`+strings.ReplaceAll(e2ePayload, `"`, `'`)+`"`)
		w.Header().Set("X-Hostile", e2ePayload)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, e2ePayload)
	})
	mux.HandleFunc("GET /.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		answer(w, http.StatusOK, map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base},
			"resource_name": e2ePayload, "scopes_supported": []string{e2ePayload}, "resource_documentation_x": e2eJavaScriptURL})
	})
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		answer(w, http.StatusOK, map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}, "scopes_supported": []string{e2ePayload},
			"token_endpoint_auth_methods_supported": []string{"none"}, "x_documentation": e2eJavaScriptURL, "x_note": e2ePayload})
	})
	mux.HandleFunc("POST /register", func(w http.ResponseWriter, r *http.Request) {
		var meta struct {
			RedirectURIs []string `json:"redirect_uris"`
		}
		json.NewDecoder(r.Body).Decode(&meta)
		answer(w, http.StatusCreated, map[string]any{"client_id": "hostile-client", "client_name": e2ePayload, "redirect_uris": meta.RedirectURIs,
			"token_endpoint_auth_method": "none"})
	})
	mux.HandleFunc("GET /authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		back := url.Values{"state": {q.Get("state")}}
		if authorizations.Add(1) == 1 {
			back.Set("error", "access_denied "+e2ePayload)
			back.Set("error_description", e2ePayload)
			back.Set("iss", e2ePayload)
		} else {
			back.Set("code", "hostile-code")
			back.Set("iss", base)
		}
		http.Redirect(w, r, q.Get("redirect_uri")+"?"+back.Encode(), http.StatusFound)
	})
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		answer(w, http.StatusBadRequest, map[string]any{"error": "invalid_grant " + e2ePayload, "error_description": e2ePayload,
			"error_uri": e2eJavaScriptURL})
	})
	return base + "/mcp"
}
