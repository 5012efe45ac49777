package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserServerTLS registers an HTTPS server whose certificate a
// private authority signed: the TLS and proxy section shows for HTTP
// servers only; the pasted CA certificate is summarised on the edit form;
// with verification skipped, the server's page, its edit form and its live
// session page carry the red warning, whose link leads to the setting.
// When PLAYGROUND_SCREENSHOT_DIR is set, screenshots go there
// (server-form-tls, tls-off-banner, tls-off-session). It needs
// PLAYGROUND_CHROMIUM.
func TestBrowserServerTLS(t *testing.T) {
	mcpURL, caFile := startTLSServer(t)
	caPEM, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	const form, tls, banner = `[data-testid="server-form"]`, `[data-testid="tls-fields"]`, `[data-testid="tls-off-banner"]`
	visible := func(sel string) bool {
		t.Helper()
		return e2eEval[bool](p, "see whether "+sel+" shows", "",
			`(() => { const e = document.querySelector(`+e2eJS(sel)+`); return !!e && e.getClientRects().length > 0; })()`)
	}

	e2eNavigate(p, "open the new-server form", srv.URL+"/servers/new", form)
	if visible(tls) {
		t.Error("the TLS section shows with stdio chosen")
	}
	p.choose("#transport", "Streamable HTTP — connect to a URL")
	if !visible(tls) {
		t.Fatalf("the TLS section does not show with Streamable HTTP chosen\n%s", p.dump(form))
	}
	p.typeInto("#name", "private CA")
	p.typeInto("#url", mcpURL)
	p.setValue("#ca_cert", string(caPEM))
	p.do("save the server", form, chromedp.Click(chromedp.CSS(`[data-testid="save-server"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connection"]`)))
	serverPath := e2eEval[string](p, "read the page's path", "", `location.pathname`)
	if visible(banner) {
		t.Error("the server page warns while verification is on")
	}
	p.do("connect with the CA pasted", "main", chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
	p.do("disconnect", "main", chromedp.Click(chromedp.CSS(`[data-testid="disconnect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)))

	e2eNavigate(p, "open the edit form", srv.URL+serverPath+"/edit", form)
	if got := p.text(`[data-testid="stored-certs"] caption`); !strings.Contains(got, "1 certificate") {
		t.Errorf("stored certificates caption %q", got)
	}
	if got := p.text(`[data-testid="stored-cert"]`); !strings.Contains(got, "Acme Co") {
		t.Errorf("stored certificate row %q, want the subject", got)
	}
	if shots != "" {
		p.screenshot(shots, "server-form-tls", tls)
	}
	p.setValue("#ca_cert", "")
	p.do("skip TLS verification", form, chromedp.Click(chromedp.CSS(`[data-testid="insecure"]`)))
	p.do("save", form, chromedp.Click(chromedp.CSS(`[data-testid="save-server"]`)),
		chromedp.WaitVisible(chromedp.CSS(banner)))
	if got := p.text(banner); !strings.Contains(got, "TLS verification is off for this server: anyone on the network path can read and change its traffic") {
		t.Errorf("the banner says %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "tls-off-banner", banner)
	}
	p.do("connect with verification skipped", "main", chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
	sessionID := p.liveSessionID()
	e2eNavigate(p, "open the live session", srv.URL+"/sessions/"+sessionID, banner)
	if shots != "" {
		p.screenshot(shots, "tls-off-session", banner)
	}
	p.do("follow the banner's link", banner, chromedp.Click(chromedp.CSS(`[data-testid="tls-off-setting"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="insecure"]`)))
	if !e2eEval[bool](p, "read the checkbox", tls, `document.querySelector('[data-testid="insecure"]').checked`) || !visible(banner) {
		t.Errorf("the link leads to %s without the setting checked or the banner", e2eEval[string](p, "read the URL", "", `location.href`))
	}
	if errs := p.consoleErrors(); len(errs) > 0 {
		t.Errorf("browser console: %v", errs)
	}
}
