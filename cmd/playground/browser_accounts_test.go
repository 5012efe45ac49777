package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

var e2eSetupLinkRE = regexp.MustCompile(`msg="no account exists yet[^"]*" url="?(http://[^"\s]+/setup\?token=[^"\s]+)`)

// TestBrowserAccounts starts a dashboard on a fresh database without any
// account, creates the first admin through the setup link it logs, adds a
// viewer on the people page, and signs the viewer in from a second browser:
// the demo server's page offers them no Connect. When
// PLAYGROUND_SCREENSHOT_DIR is set, screenshots of the sign-in, setup,
// account, people and viewer's server pages go there.
func TestBrowserAccounts(t *testing.T) {
	chromium := e2eChromium(t)
	srv := e2eServeWith(t, e2eBuildPlayground(t), filepath.Join(t.TempDir(), "playground.db"), e2eServeOptions{noAccount: true})
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	screenshot := func(p *e2ePage, name, focusSel string) {
		if shots != "" {
			p.screenshot(shots, name, focusSel)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*e2eBrowserTimeout)
	t.Cleanup(cancel)

	m := e2eSetupLinkRE.FindStringSubmatch(srv.Log.String())
	if m == nil {
		t.Fatalf("the dashboard logged no setup link:\n%s", srv.Log.String())
	}
	setupLink := m[1]

	// The admin's browser: the sign-in page points to the link; the link
	// creates the admin and signs them in.
	admin := e2eOpenBrowser(t, ctx, chromium)
	e2eNavigate(admin, "open the sign-in page", srv.URL+"/signin", `[data-testid="setup-needed"]`)
	screenshot(admin, "accounts-signin-setup-needed", `[data-testid="setup-needed"]`)
	e2eNavigate(admin, "open the setup link", setupLink, `[data-testid="setup-form"]`)
	admin.setValue(`#name`, "root")
	admin.setValue(`#password`, e2ePassword)
	admin.setValue(`#confirm`, e2ePassword)
	screenshot(admin, "accounts-setup", `[data-testid="setup-form"]`)
	admin.follow("create the admin", `[data-testid="setup-submit"]`)
	admin.do("wait until signed in", "body", chromedp.WaitVisible(chromedp.CSS(`[data-testid="signed-in"]`)))
	if who := admin.text(`[data-testid="signed-in"]`); !strings.Contains(who, "root") {
		t.Errorf("the top bar says %q, want it to name root", who)
	}

	// A token on the account page, shown once.
	e2eNavigate(admin, "open the account page", srv.URL+"/account", `[data-testid="token-form"]`)
	admin.setValue(`#token-name`, "nightly CI")
	admin.follow("create a token", `[data-testid="token-submit"]`)
	admin.do("wait for the new token", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="new-token-value"]`)))
	if token := admin.value(`[data-testid="new-token-value"]`); !strings.HasPrefix(token, "pgp_") {
		t.Errorf("the new token reads %q, want pgp_…", token)
	}
	screenshot(admin, "accounts-account-new-token", `[data-testid="new-token"]`)

	// A viewer added on the people page.
	const viewer, viewerPassword = "vera", "vera's long passphrase"
	e2eNavigate(admin, "open the people page", srv.URL+"/users", `[data-testid="new-user-form"]`)
	admin.setValue(`[data-testid="new-user-form"] #name`, viewer)
	admin.do("choose the viewer role", `[data-testid="new-user-form"]`,
		chromedp.SetValue(chromedp.CSS(`[data-testid="new-user-role"]`), "viewer"))
	admin.setValue(`[data-testid="new-user-form"] #password`, viewerPassword)
	admin.setValue(`[data-testid="new-user-form"] #confirm`, viewerPassword)
	admin.follow("add the viewer", `[data-testid="new-user-submit"]`)
	admin.do("wait for the viewer's row", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="user-row"][data-user="`+viewer+`"]`)))
	screenshot(admin, "accounts-people", `[data-testid="user-list"]`)

	// The viewer's own browser.
	vera := e2eOpenBrowser(t, ctx, chromium)
	e2eNavigate(vera, "open the dashboard", srv.URL+"/", `[data-testid="signin-form"]`)
	screenshot(vera, "accounts-signin", `[data-testid="signin-form"]`)
	vera.setValue(`#signin-name`, viewer)
	vera.setValue(`#signin-password`, viewerPassword)
	vera.follow("sign in as the viewer", `[data-testid="signin-submit"]`)
	demo := vera.openDemoServerLink(srv.URL)
	e2eNavigate(vera, "open the demo server as viewer", srv.URL+demo, `[data-testid="viewer-note"]`)
	if n := e2eEval[int](vera, "count Connect buttons", "main", `document.querySelectorAll('[data-testid="connect"], [data-testid="list-connect"]').length`); n != 0 {
		t.Errorf("the viewer sees %d Connect buttons, want none", n)
	}
	screenshot(vera, "accounts-viewer-server", `[data-testid="viewer-note"]`)

	vera.follow("sign out", `[data-testid="signout"]`)
	vera.do("wait for the signed-out note", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="signed-out"]`)))
	if got := vera.text(`[data-testid="signed-out"]`); !strings.Contains(got, "You are signed out") {
		t.Errorf("after signing out the page says %q", got)
	}
	if loc := e2eEval[string](vera, "read the location", "", `location.pathname`); loc != "/signin" {
		t.Errorf("after signing out the browser is at %s, want /signin", loc)
	}
	for _, p := range []*e2ePage{admin, vera} {
		if errs := p.consoleErrors(); len(errs) > 0 {
			t.Errorf("console errors:\n  %s", strings.Join(errs, "\n  "))
		}
	}
}
