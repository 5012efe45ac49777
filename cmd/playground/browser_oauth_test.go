package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcp-playground/playground/backend/oauthtest"
)

// e2eOAuthStep is a step of the OAuth debugger as the page shows it.
type e2eOAuthStep struct {
	Kind   string   `json:"kind"`
	Status string   `json:"status"` // ok | failed
	Title  string   `json:"title"`
	Checks int      `json:"checks"`
	Failed []string `json:"failed"` // the text of each failed check
	Rerun  bool     `json:"rerun"`
}

const e2eOAuthStepsJS = `Array.from(document.querySelectorAll('[data-testid="oauth-step"]'), s => ({
	kind: s.dataset.kind || "",
	status: s.dataset.status || "",
	title: (s.querySelector('[data-testid="oauth-step-title"]') || {textContent: ""}).textContent.trim(),
	checks: s.querySelectorAll('[data-testid="oauth-check"]').length,
	failed: Array.from(s.querySelectorAll('[data-testid="oauth-check"][data-ok="false"]'), c => c.textContent.trim()),
	rerun: s.hasAttribute("data-rerun-of"),
}))`

// TestBrowserOAuthSignIn signs in to an OAuth-protected MCP server in
// Chromium: the server page's Sign in sends the browser to the test's
// authorization server, whose Approve page the test submits; the browser
// lands on the debugger, which shows every step of the sign-in with its
// checks passing. Connected, whoami answers with the signed-in subject;
// once the 3-second access token has expired, a second call succeeds
// through a refresh, which the debugger shows as a step of its own. With
// PLAYGROUND_SCREENSHOT_DIR set it saves the approve page, the
// authorization card and the debugger after the refresh.
func TestBrowserOAuthSignIn(t *testing.T) {
	const lifetime = 3 * time.Second
	srv, p := e2eBrowse(t)
	as := oauthtest.Start(t, oauthtest.Options{AccessTokenLifetime: lifetime})
	t.Cleanup(func() { // before the browser closes: a failed step's console explains it
		if t.Failed() {
			for _, m := range p.consoleErrors() {
				t.Logf("browser console: %s", m)
			}
		}
	})
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	started := time.Now()
	step := func(name string) { t.Logf("%6.2fs  %s", time.Since(started).Seconds(), name) }

	id := srv.apiCreateServer(t, map[string]any{"name": "OAuth server", "transport": "http", "url": as.MCPURL})
	serverPage := fmt.Sprintf("%s/servers/%d", srv.URL, id)

	step("sign in from the server page")
	p.do("open the server page", "main", chromedp.Navigate(serverPage),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-card"]`)))
	p.do("click Sign in and wait for the authorization server's page", "body",
		chromedp.Click(chromedp.CSS(`[data-testid="oauth-signin"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauthtest-approve"]`)))
	if loc := e2eEval[string](p, "read the location", "", `location.origin`); loc != as.Issuer {
		t.Fatalf("Sign in led to %s, want the authorization server %s", loc, as.Issuer)
	}
	if shots != "" {
		p.screenshot(shots, "oauth-approve", `[data-testid="oauthtest-approve"]`)
	}

	step("approve")
	p.follow("click Approve", `[data-testid="oauthtest-approve-button"]`)
	p.do("wait for the debugger", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-flow"]`)))
	flowPath := e2eEval[string](p, "read the location", "", `location.pathname`)
	if !regexp.MustCompile(fmt.Sprintf(`^/servers/%d/oauth/flows/\d+$`, id)).MatchString(flowPath) {
		t.Fatalf("after Approve the browser is at %s, want the flow's debugger /servers/%d/oauth/flows/N", flowPath, id)
	}
	if got := p.text(`[data-testid="oauth-flow-status"]`); !strings.Contains(got, "succeeded") {
		t.Errorf("the flow's status reads %q, want it to say succeeded\n%s", got, p.dump(`[data-testid="oauth-flow"]`))
	}
	steps := e2eEval[[]e2eOAuthStep](p, "read the steps", `[data-testid="oauth-flow"]`, e2eOAuthStepsJS)
	wantKinds := []string{"challenge", "resource-metadata", "server-metadata", "registration", "authorization", "callback", "token"}
	e2eCheckOAuthSteps(t, steps, wantKinds)
	if st := as.Stats(); st.Registrations != 1 || st.Approvals != 1 || st.CodeExchanges != 1 || st.LastResource != as.MCPURL {
		t.Errorf("the authorization server saw %+v; want one registration, approval and code exchange for %s", st, as.MCPURL)
	}

	step("connect and call whoami")
	p.do("open the server page and connect", "main", chromedp.Navigate(serverPage),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
	callWhoami := func(what string) {
		t.Helper()
		p.openTool("whoami")
		p.submitTool("whoami")
		p.wantOutcome("whoami", "result")
		if got := p.text(e2eCard("whoami") + ` [data-testid="content-text"]`); !strings.HasPrefix(got, "subject=alice scopes=") {
			t.Errorf("%s: whoami answered %q, want the signed-in subject alice", what, got)
		}
	}
	callWhoami("first call")
	before := as.Stats()
	refreshesBefore := before.Refreshes

	step("wait for the access token to expire, call again")
	time.Sleep(time.Until(before.LastIssued.Add(lifetime + 500*time.Millisecond)))
	p.do("reopen the tools", "main", chromedp.Navigate(serverPage), chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
	callWhoami("after the access token expired")
	if st := as.Stats(); st.Refreshes <= refreshesBefore || st.CodeExchanges != 1 {
		t.Errorf("after expiry the authorization server saw %d refreshes (%d before) and %d code exchanges; want a refresh and no new sign-in",
			st.Refreshes, refreshesBefore, st.CodeExchanges)
	}

	step("the refresh on the authorization card and in the debugger")
	p.do("open the server page", "main", chromedp.Navigate(serverPage),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-card"]`)))
	if !e2eEval[bool](p, "look for the refresh", "", `!!document.querySelector('[data-testid="oauth-card"] [data-testid="oauth-refreshed"]')`) {
		t.Errorf("the authorization card does not say the token was refreshed:\n%s", p.dump(`[data-testid="oauth-card"]`))
	}
	if shots != "" {
		p.screenshot(shots, "oauth-card", `[data-testid="oauth-card"]`)
	}
	p.do("open the debugger", "main", chromedp.Navigate(srv.URL+flowPath),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-step"][data-kind="refresh"]`)))
	steps = e2eEval[[]e2eOAuthStep](p, "read the steps", `[data-testid="oauth-flow"]`, e2eOAuthStepsJS)
	e2eCheckOAuthSteps(t, steps, append(wantKinds, "refresh"))
	if shots != "" {
		p.screenshot(shots, "oauth-debugger", `[data-testid="oauth-flow"]`)
	}

	if errs := p.consoleErrors(); len(errs) > 0 {
		t.Errorf("the browser console has %d errors (listed at the end)", len(errs))
	}
}

// e2eCheckOAuthSteps checks that the debugger shows the kinds of step in
// order (others may come between), each passed, each with a title and
// none with a failed check.
func e2eCheckOAuthSteps(t *testing.T, steps []e2eOAuthStep, kinds []string) {
	t.Helper()
	next := 0
	for _, s := range steps {
		if next < len(kinds) && s.Kind == kinds[next] {
			next++
		}
		if s.Status != "ok" || len(s.Failed) > 0 || s.Title == "" {
			t.Errorf("step %s (%q) has status %q and failed checks %q; want ok, titled, none failed", s.Kind, s.Title, s.Status, s.Failed)
		}
	}
	if next < len(kinds) {
		t.Errorf("the debugger shows the steps %+v; want the kinds %q in order, missing %q", steps, kinds, kinds[next])
	}
	checks := 0
	for _, s := range steps {
		checks += s.Checks
	}
	if checks == 0 {
		t.Errorf("the debugger shows no checks at all")
	}
}

// TestBrowserOAuthDebuggerFailure signs in to a server whose authorization
// server names the wrong issuer in its metadata: the browser lands on the
// debugger, whose banner names the failing step and links to it, with the
// failed check marked and the response open. Once the authorization
// server is fixed, re-running that step shows the passing re-run under
// it. With PLAYGROUND_SCREENSHOT_DIR set it saves the debugger
// (oauth-debugger-failed.png).
func TestBrowserOAuthDebuggerFailure(t *testing.T) {
	srv, p := e2eBrowse(t)
	as := oauthtest.Start(t, oauthtest.Options{Faults: oauthtest.Faults{WrongIssuer: true}})
	id := srv.apiCreateServer(t, map[string]any{"name": "Wrong issuer", "transport": "http", "url": as.MCPURL})

	p.do("open the server page", "main", chromedp.Navigate(fmt.Sprintf("%s/servers/%d", srv.URL, id)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-signin"]`)))
	p.follow("click Sign in", `[data-testid="oauth-signin"]`)
	p.do("wait for the failed flow's debugger", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-flow-failure"]`)))
	if got := p.text(`[data-testid="oauth-flow-failure"]`); !strings.Contains(got, "step 3") || !strings.Contains(got, "issuer") {
		t.Errorf("the failure banner reads %q, want it to name step 3 and the issuer", got)
	}
	failed := `[data-testid="oauth-step"][data-kind="server-metadata"][data-status="failed"]`
	if href := e2eEval[string](p, "read the banner's link", `[data-testid="oauth-flow-failure"]`,
		`document.querySelector('[data-testid="oauth-failure-link"]').getAttribute("href")`); !e2eEval[bool](p, "follow the banner's link", "",
		`document.querySelector(`+e2eJS(href)+`) === document.querySelector(`+e2eJS(failed)+`)`) {
		t.Errorf("the banner links to %s, not to the failed server metadata step", href)
	}
	if open := e2eEval[bool](p, "read the response's fold", failed, `document.querySelector(`+e2eJS(failed+` [data-testid="oauth-response"]`)+`).open`); !open {
		t.Errorf("the failed step's response is folded; it should be open")
	}
	if body := p.text(failed + ` [data-testid="oauth-response"] [data-testid="oauth-body"]`); !strings.Contains(body, "\n  \"issuer\": ") {
		t.Errorf("the failed step's response body is not indented JSON:\n%s", body)
	}
	if shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); shots != "" {
		defer p.screenshot(shots, "oauth-debugger-failed", `[data-testid="oauth-flow"]`)
	}

	as.SetFaults(oauthtest.Faults{})
	p.follow("re-run the server metadata step", failed+` [data-testid="oauth-step-rerun"]`)
	rerun := `[data-testid="oauth-reruns"] [data-testid="oauth-step"][data-kind="server-metadata"][data-rerun-of]`
	p.do("wait for the re-run under its step", "main", chromedp.WaitVisible(chromedp.CSS(rerun)))
	if status := e2eEval[string](p, "read the re-run's status", rerun, `document.querySelector(`+e2eJS(rerun)+`).dataset.status`); status != "ok" {
		t.Errorf("the re-run against the fixed authorization server has status %q, want ok\n%s", status, p.dump(rerun))
	}
	if under := e2eEval[bool](p, "find the re-run's step", rerun, `!!document.querySelector(`+e2eJS(rerun)+`).closest('[data-testid="oauth-reruns"]').parentElement.querySelector(':scope > `+failed+`')`); !under {
		t.Errorf("the re-run is not shown under the step it repeats")
	}
	if errs := p.consoleErrors(); len(errs) > 0 {
		t.Errorf("browser console: %q", errs)
	}
}
