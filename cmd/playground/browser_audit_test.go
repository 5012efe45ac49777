package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserAuditLog calls the demo server's echo tool, then opens the
// audit log from the top bar's Audit link: the newest event is that call,
// by the signed-in admin through the browser, with its argument; the
// action filter keeps only tool calls. When PLAYGROUND_SCREENSHOT_DIR is
// set, the page is saved there (audit.png).
func TestBrowserAuditLog(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	p.openTool("echo")
	p.typeInto(e2eCard("echo")+` [name="arg.message"]`, "hello audit log")
	p.submitTool("echo")
	p.wantOutcome("echo", "result")

	p.do("open the audit log", "header.top",
		chromedp.Click(chromedp.CSS(`[data-testid="nav-audit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="audit-events"]`)))
	first := `[data-testid="audit-event"]:first-child`
	if action := e2eEval[string](p, "read the newest event's action", first, `document.querySelector(`+e2eJS(first)+`).dataset.action`); action != "tool.call" {
		t.Errorf("the newest event is %q, want tool.call\n%s", action, p.dump(`[data-testid="audit-events"]`))
	}
	row := p.text(first)
	for _, want := range []string{"admin", "browser", "tool.call", "hello audit log", `"_tool":"echo"`, "ok"} {
		if !strings.Contains(row, want) {
			t.Errorf("the tool call's row lacks %q: %q", want, row)
		}
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "audit", `[data-testid="audit-events"]`)
	}

	p.setValue(`[data-testid="audit-action"]`, "tool")
	p.do("filter by action", "main",
		chromedp.Click(chromedp.CSS(`[data-testid="audit-apply"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="audit-action"][value="tool"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="audit-events"]`)))
	actions := e2eEval[[]string](p, "read the filtered actions", "main",
		`Array.from(document.querySelectorAll('[data-testid="audit-event"]')).map(r => r.dataset.action)`)
	if len(actions) == 0 {
		t.Fatal("the action filter tool selects no event")
	}
	for _, a := range actions {
		if !strings.HasPrefix(a, "tool") {
			t.Errorf("the action filter tool shows %s", a)
		}
	}
}
