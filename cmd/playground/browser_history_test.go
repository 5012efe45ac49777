package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserHistory finds an exchange by a word that occurs only in its
// result, opens its permalink and sees the request and the response.
func TestBrowserHistory(t *testing.T) {
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	p.connectDemoServer(srv.URL)
	card := e2eCard("add")
	p.openTool("add")
	for _, ab := range [][2]string{{"31415", "27182"}, {"1", "2"}} { // the first sum, 58597, is in its result alone
		p.setValue(card+` [name="arg.a"]`, ab[0])
		p.setValue(card+` [name="arg.b"]`, ab[1])
		p.submitTool("add")
		p.wantOutcome("add", "result")
	}

	e2eNavigate(p, "open the history page", srv.URL+"/history", `[data-testid="history-form"]`)
	p.typeInto(`[data-testid="history-q"]`, "58597")
	p.do("search", "main", chromedp.Click(chromedp.CSS(`[data-testid="history-search"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="history-results"]`)))
	rows := e2eEval[[]string](p, "read the rows", "main",
		`Array.from(document.querySelectorAll('[data-testid="history-row"]'), r => r.innerText)`)
	if len(rows) != 1 || !strings.Contains(rows[0], "tools/call") || !strings.Contains(rows[0], "add") || !strings.Contains(rows[0], "58597") {
		t.Fatalf("history rows for 58597 = %q, want the one add call", rows)
	}
	if mark := p.text(`[data-testid="history-excerpt"] mark`); mark != "58597" {
		t.Errorf("the excerpt marks %q", mark)
	}
	if shots != "" {
		p.screenshot(shots, "history-search", `[data-testid="history-results"]`)
	}

	p.do("open the permalink", "main", chromedp.Click(chromedp.CSS(`[data-testid="exchange-link"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="exchange-response"]`)))
	if req := p.text(`[data-testid="exchange-request"]`); !strings.Contains(req, "31415") || !strings.Contains(req, "27182") {
		t.Errorf("the request reads %q", req)
	}
	if resp := p.text(`[data-testid="exchange-response"]`); !strings.Contains(resp, "58597") {
		t.Errorf("the response reads %q", resp)
	}
	if call := p.text(`[data-testid="copy-call"]`); !strings.Contains(call, "playground call --stdio") || !strings.Contains(call, `"name":"add"`) {
		t.Errorf("the playground call command reads %q", call)
	}
	p.do("click Copy", "main", chromedp.Click(chromedp.CSS(`[data-testid="copy-jsonrpc-button"]`)))
	p.waitJS("wait for the copy button to answer", `[data-testid="copy-jsonrpc-button"]`,
		`document.querySelector('[data-testid="copy-jsonrpc-button"]').textContent !== "Copy"`)
	if shots != "" {
		p.screenshot(shots, "history-exchange", `[data-testid="exchange-request"]`)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
