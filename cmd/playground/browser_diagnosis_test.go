package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserCrashDiagnosisStays connects a stdio server that crashes at
// start (node with a missing script): the diagnosis quotes the line that
// names the fault, and coming back to the server's page later, by the
// servers list, still shows it. When PLAYGROUND_SCREENSHOT_DIR is set,
// screenshots go there (crash-diagnosis.png, crash-diagnosis-again.png and
// their -full versions). It needs PLAYGROUND_CHROMIUM and node on the PATH.
func TestBrowserCrashDiagnosisStays(t *testing.T) {
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	missing := filepath.Join(t.TempDir(), "missing.js")
	id := srv.apiCreateServer(t, map[string]any{"name": "Crashing node", "transport": "stdio", "command": "node", "args": []string{missing}})
	const head = `[data-testid="connection"]`
	const summary = `[data-testid="diagnosis-summary"]`
	serverPage := fmt.Sprintf("%s/servers/%d", srv.URL, id)
	wantSaid := "Error: Cannot find module '" + missing + "'"

	e2eNavigate(p, "open the server", serverPage, `[data-testid="connect"]`)
	p.do("connect", head, chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)), chromedp.WaitVisible(chromedp.CSS(summary)))
	if got := p.text(summary); !strings.Contains(got, "Its stderr says: "+wantSaid) {
		t.Errorf("the diagnosis says %q, want it to quote %q", got, wantSaid)
	}
	p.do("unfold what was checked", head, chromedp.Click(chromedp.CSS(`[data-testid="diagnosis-findings"] summary`)))
	if shots != "" {
		p.screenshot(shots, "crash-diagnosis", head)
	}

	e2eNavigate(p, "go to the servers list", srv.URL+"/", `[data-testid="server-list"]`)
	p.follow("open the server from the list", fmt.Sprintf(`[data-testid="server-row"][data-server-id="%d"] [data-testid="server-name"]`, id))
	if loc := e2eEval[string](p, "read the location", "", `location.pathname + location.search`); loc != fmt.Sprintf("/servers/%d", id) {
		t.Errorf("the list's link led to %s", loc)
	}
	p.waitJS("the diagnosis is shown again", head, `!!document.querySelector('[data-testid="diagnosis-summary"]')`)
	if got := p.text(summary); !strings.Contains(got, wantSaid) {
		t.Errorf("back on the page, the diagnosis says %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "crash-diagnosis-again", head)
	}
}
