package main

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserConsoleTemplates picks tools/call in the console's method list
// and finds its params template in the box, then sends a ping typed by hand
// and a notification.
func TestBrowserConsoleTemplates(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	p.openSection("console")
	if n := e2eEval[int](p, "count the methods offered", `[data-testid="console"]`, `document.querySelectorAll('#console-methods option').length`); n < 10 {
		t.Errorf("the console offers %d methods", n)
	}
	p.typeInto(`#console-method`, "tools/call")
	e2eEval[bool](p, "leave the method field", "", `(document.querySelector("#console-method").dispatchEvent(new Event("change", {bubbles: true})), true)`)
	if got := p.value(`#console-params`); got != `{"name": "", "arguments": {}}` {
		t.Errorf("after picking tools/call the params box holds %q, want its template", got)
	}
	p.setValue(`#console-method`, "ping")
	e2eEval[bool](p, "leave the method field", "", `(document.querySelector("#console-method").dispatchEvent(new Event("change", {bubbles: true})), true)`)
	if got := p.value(`#console-params`); got != "" {
		t.Errorf("after picking ping the params box holds %q, want ping's empty template in place of the previous one", got)
	}
	p.do("send the ping", `[data-testid="console"]`,
		chromedp.Click(chromedp.CSS(`[data-testid="console-send"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="console"] [data-outcome="result"]`)))
	p.setValue(`#console-method`, "notifications/roots/list_changed")
	p.do("send the notification", `[data-testid="console"]`,
		chromedp.Click(chromedp.CSS(`[data-testid="console-send-notification"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="console"] [data-testid="console-sent"]`)))
	p.waitFrames("the notification in the live panel", func(frames []e2eDOMFrame) (bool, string) {
		n := e2eCountMethod(frames, "out", "notification", "notifications/roots/list_changed")
		return n == 1, fmt.Sprintf("%d out/notification notifications/roots/list_changed frames, want 1", n)
	})
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
