package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcp-playground/playground/backend/oauthtest"
)

// TestBrowserURLMoveTellsWhatStayedBehind saves client credentials with a
// secret on a server in Chromium and connects: the card names the
// authorization server the secret goes to. Then it edits the server's URL
// to another origin: the page the save leads to says, once, that the
// client secret was removed and what to do, and the card that none is
// stored. With PLAYGROUND_SCREENSHOT_DIR set it saves both pages.
func TestBrowserURLMoveTellsWhatStayedBehind(t *testing.T) {
	srv, p := e2eBrowse(t)
	as := oauthtest.Start(t, oauthtest.Options{Client: oauthtest.Client{ID: "svc", Secret: "browser-secret-51c7"}})
	id := srv.apiCreateServer(t, map[string]any{"name": "Machine server", "transport": "http", "url": as.MCPURL})
	serverPage := fmt.Sprintf("%s/servers/%d", srv.URL, id)

	p.do("save client credentials", "main", chromedp.Navigate(serverPage),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-card"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="oauth-settings"] summary`)),
		chromedp.Click(chromedp.CSS(`[data-testid="oauth-grant-client-credentials"]`)),
		chromedp.SetValue(chromedp.CSS(`[data-testid="oauth-settings"] input[name="client_id"]`), "svc"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="oauth-settings"] input[name="client_secret"]`), "browser-secret-51c7"),
		chromedp.Click(chromedp.CSS(`[data-testid="oauth-settings-save"]`)),
		// The card shows a mode before the save too; only the saved mode
		// names a client ID.
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-mode"] dd.mono`)))
	p.do("connect", "main",
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
	p.do("reload", "main", chromedp.Navigate(serverPage), chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-issuer"]`)))
	if got := p.text(`[data-testid="oauth-issuer"]`); got != as.Issuer {
		t.Errorf("the card says the secret is sent to %q, want %q", got, as.Issuer)
	}
	if shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); shots != "" {
		p.screenshot(shots, "oauth-issuer-pinned", `[data-testid="oauth-card"]`)
	}
	p.do("edit the URL", "main", chromedp.Navigate(serverPage+"/edit"),
		chromedp.WaitVisible(chromedp.CSS(`input[name="url"]`)),
		chromedp.SetValue(chromedp.CSS(`input[name="url"]`), "http://127.0.0.1:9/mcp"),
		chromedp.Click(chromedp.CSS(`[data-testid="save-server"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="destination-notice"]`)))
	got := p.text(`[data-testid="destination-notice"]`)
	for _, want := range []string{"the URL moved to another scheme, host or port", "the OAuth client secret was removed", "must enter it again"} {
		if !strings.Contains(got, want) {
			t.Errorf("the notice reads %q, want %q in it", got, want)
		}
	}
	if got := p.text(`[data-testid="oauth-secret-missing"]`); !strings.Contains(got, "enter it again") {
		t.Errorf("the card reads %q where the secret is missing", got)
	}
	if shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); shots != "" {
		p.screenshot(shots, "destination-notice", `[data-testid="destination-notice"]`)
	}
	p.do("reload", "main", chromedp.Navigate(serverPage), chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-card"]`)))
	if html := p.dump("main"); strings.Contains(html, `data-testid="destination-notice"`) {
		t.Error("the notice is shown again after a reload")
	}
}
