package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserTrafficLint sends, from the console, a tools/list whose
// cursor is a number: the traffic panel marks the exchange with a lint
// badge, the opened exchange lists the schema finding with its pointer and
// marks the value in the body, the "lint findings" filter keeps that
// exchange alone, the session page counts the finding and history's
// lint:any finds it, and the server's Protocol report lists the code; its
// "Check this server" finds nothing failing in the demo server. When
// PLAYGROUND_SCREENSHOT_DIR is set, lint-traffic (and lint-traffic-dark, in
// the dark theme), lint-filtered, lint-protocol-report and lint-history
// are taken there.
func TestBrowserTrafficLint(t *testing.T) {
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	p.connectDemoServer(srv.URL)
	session := p.liveSessionID()
	p.openSection("console")
	p.setValue(`#console-method`, "tools/list")
	p.setValue(`#console-params`, `{"cursor": 5}`)
	p.do("send the bad tools/list", `[data-testid="console"]`,
		chromedp.Click(chromedp.CSS(`[data-testid="console-send"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="console"] [data-outcome]`)))

	const flagged = `[data-testid="traffic-panel"] [data-testid="exchange"]:has([data-testid="lint-badge"])`
	p.do("see the lint badge", `[data-testid="traffic-panel"]`, chromedp.WaitVisible(chromedp.CSS(flagged+` [data-testid="lint-badge"]`)))
	if badge := p.text(flagged + ` [data-testid="lint-badge"]`); badge != "lint: 1 error" {
		t.Errorf("the badge reads %q", badge)
	}
	if n := e2eEval[int](p, "count the flagged rows", `[data-testid="traffic-panel"]`,
		`document.querySelectorAll('[data-testid="traffic-panel"] [data-testid="lint-badge"]').length`); n != 1 {
		t.Errorf("%d rows carry a lint badge, want 1: the handshake and the other calls are clean", n)
	}
	p.do("open the flagged exchange", `[data-testid="traffic-panel"]`,
		chromedp.Click(chromedp.CSS(flagged+` > summary`)),
		chromedp.WaitVisible(chromedp.CSS(flagged+` [data-testid="lint-finding"]`)),
		chromedp.ScrollIntoView(chromedp.CSS(flagged+` [data-testid="exchange-request"] [data-testid="body-text"]`)),
		chromedp.WaitVisible(chromedp.CSS(flagged+` .jv-flagged[data-pointer="/params/cursor"]`)))
	finding := e2eEval[[]string](p, "read the finding", flagged,
		`(() => { const li = document.querySelector('`+flagged+` [data-testid="lint-finding"]'); return [li.dataset.code, li.dataset.pointer, li.textContent]; })()`)
	if finding[0] != "mcp.schema" || finding[1] != "/params/cursor" || !strings.Contains(finding[2], "string") {
		t.Errorf("the finding reads %q", finding)
	}
	if shots != "" {
		p.screenshot(shots, "lint-traffic", `[data-testid="traffic-panel"]`)
		p.do("switch to the dark theme", "header.top", chromedp.Click(chromedp.CSS(`[data-testid="theme-toggle"]`)))
		p.screenshot(shots, "lint-traffic-dark", `[data-testid="traffic-panel"]`)
		p.do("switch back to the light theme", "header.top", chromedp.Click(chromedp.CSS(`[data-testid="theme-toggle"]`)))
	}

	p.do("keep the flagged frames", `[data-testid="traffic-panel"]`,
		chromedp.Click(chromedp.CSS(`[data-testid="filter-findings"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="filter-findings"]:checked`)))
	p.waitJS("wait for the filtered panel", `[data-testid="traffic-panel"]`,
		`document.querySelectorAll('[data-testid="traffic-panel"] [data-testid="frames"] > details').length === 1 && !!document.querySelector('[data-testid="traffic-panel"] [data-testid="lint-badge"]')`)
	if shots != "" {
		p.screenshot(shots, "lint-filtered", `[data-testid="traffic-panel"]`)
	}

	p.openSection("protocol")
	protocolPage := e2eEval[string](p, "read the page's address", "main", `location.href`)
	codes := e2eEval[[]string](p, "read the Protocol report", `[data-testid="protocol-report"]`,
		`Array.from(document.querySelectorAll('[data-testid="protocol-code"]'), r => r.dataset.code + " " + r.querySelector('[data-testid="protocol-counts"]').textContent)`)
	if len(codes) != 1 || codes[0] != "mcp.schema 1 finding in 1 session" {
		t.Errorf("the Protocol report lists %q", codes)
	}
	if shots != "" {
		p.screenshot(shots, "lint-protocol-report", "main")
	}

	e2eNavigate(p, "open the session", srv.URL+"/sessions/"+session, `[data-testid="finding-count"]`)
	if count := p.text(`[data-testid="finding-count"]`); count != "lint: 1 error" {
		t.Errorf("the session page counts %q", count)
	}
	e2eNavigate(p, "search history for lint", srv.URL+"/history?q=lint:any", `[data-testid="history-results"]`)
	rows := e2eEval[[]string](p, "read the history rows", "main",
		`Array.from(document.querySelectorAll('[data-testid="history-row"]'), r => r.querySelector('td.mono').textContent + " " + (r.querySelector('[data-testid="lint-badge"]') || {}).textContent)`)
	if len(rows) != 1 || rows[0] != "tools/list lint: 1 error" {
		t.Errorf("history's lint:any lists %q", rows)
	}
	if shots != "" {
		p.screenshot(shots, "lint-history", "main")
	}

	// Last, as its requests break the protocol on purpose and join the
	// session's traffic: the active checks find nothing failing.
	e2eNavigate(p, "open the Protocol section again", protocolPage, `[data-testid="check-run"]`)
	p.do("check the server", `[data-testid="check-card"]`,
		chromedp.Click(chromedp.CSS(`[data-testid="check-run"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="check-report"]`)))
	if summary := p.text(`[data-testid="check-summary"]`); !strings.Contains(summary, " 0 failed") {
		t.Errorf("the check of the demo server reads %q:\n%s", summary, p.text(`[data-testid="check-report"]`))
	}
	if shots != "" {
		p.screenshot(shots, "lint-check", `[data-testid="check-card"]`)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
