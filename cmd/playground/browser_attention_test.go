// Browser tests of what must reach the user where they are looking: a
// session that ended, a server request out of sight, an error in a
// nested argument.

package main

import (
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserEndedSessionOffersToConnectAgain watches the demo server's
// page while its session is closed from elsewhere: the tool cards give way
// to a notice with "Connect again", the panel says the session ended
// rather than "live" or "disconnected", and "Connect again" brings the
// tools back on a new session.
func TestBrowserEndedSessionOffersToConnectAgain(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	p.openTool("greet")
	first := p.liveSessionID()

	req, _ := http.NewRequest(http.MethodDelete, srv.URL+"/api/v1/sessions/"+first, nil)
	resp, err := e2eHTTPDo(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	p.do("wait for the end of the session", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="session-ended"]`)))
	if n := e2eEval[int](p, "count the tool cards", "", `document.querySelectorAll('[data-testid="tool"]').length`); n != 0 {
		t.Errorf("the ended session still offers %d tool cards", n)
	}
	if got := p.text(`[data-ws-status]`); got != "session ended" {
		t.Errorf("the traffic panel says %q, want %q", got, "session ended")
	}
	if e2eEval[bool](p, "look for Disconnect", "", `(() => { const b = document.querySelector('[data-testid="disconnect"]'); return !!b && b.offsetParent !== null; })()`) {
		t.Error("the ended session's page still offers Disconnect")
	}
	if got := p.text(`[data-testid="session-status"]`); !strings.Contains(got, "closed") {
		t.Errorf("the session's badge says %q, want closed", got)
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "session-ended", `[data-testid="session-ended"]`)
	}

	p.do("click Connect again", `[data-testid="session-ended"]`,
		chromedp.Click(chromedp.CSS(`[data-testid="reconnect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="disconnect"]`)))
	p.openTool("greet")
	second := strings.TrimPrefix(e2eEval[string](p, "find the new session link", `[data-testid="connection"]`,
		`document.querySelector('[data-testid="connection"] a[href^="/sessions/"]').getAttribute("href")`), "/sessions/")
	if second == first || second == "" {
		t.Errorf("Connect again left the page on session %q (was %s)", second, first)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// TestBrowserServerRequestIsAnnounced starts, from a tool card far down the
// page, a tool whose server asks for a sampling reply: the question opens
// in a dialog; put off with Later, its card goes back to the top, out of
// sight, so a toast announces it, and "Answer" brings the card into view
// with its first field focused.
func TestBrowserServerRequestIsAnnounced(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	p.openTool("summarize")
	// A short window: scrolled to the card's Call button, the top of the
	// page, where the question's card appears, is out of sight.
	p.do("make the window short", "", chromedp.EmulateViewport(1280, 420))
	p.typeInto(e2eCard("summarize")+` [name="arg.text"]`, "hello world")
	p.startTool("summarize")
	sample := p.waitInput("sample", "")
	// It opens in the dialog by itself; put off, a toast announces it.
	p.inDialog(sample)
	p.later()
	p.do("wait for the toast", "body", chromedp.WaitVisible(chromedp.CSS(`[data-testid="input-toast"]`)))
	if got := p.text(`[data-testid="input-toast"] span`); got != "Server asks: sampling" {
		t.Errorf("the toast says %q", got)
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "input-toast", `[data-testid="input-toast"]`)
	}
	p.do("click Answer", "body", chromedp.Click(chromedp.CSS(`[data-testid="input-toast-go"]`)))
	inView := `(() => { const b = document.querySelector(` + e2eJS(sample) + `).getBoundingClientRect(); return b.top >= 0 && b.top < window.innerHeight; })()`
	p.waitJS("wait for the card in view", sample, inView)
	if focused := e2eEval[bool](p, "see where the cursor is", sample, `document.querySelector(`+e2eJS(sample)+`).contains(document.activeElement)`); !focused {
		t.Error("after Answer the cursor is not in the request's card")
	}
	if e2eEval[bool](p, "look for the toast", "", `!!document.querySelector('[data-testid="input-toast"]')`) {
		t.Error("the toast stays after Answer")
	}
	p.typeInto(sample+` textarea[name="reply"]`, "short")
	p.accept("Send reply", sample)
	p.awaitTool("summarize")
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// TestBrowserNestedErrorShowsAtItsField calls create_user with an address
// that lacks its required city: the error shows under the address's city
// input, nothing is sent, and with the city the call goes through.
func TestBrowserNestedErrorShowsAtItsField(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	p.openTool("create_user")
	card := e2eCard("create_user")
	p.typeInto(card+` [name="arg.name"]`, "Ada")
	p.typeInto(card+` [name="arg.address.street"]`, "1 Main St")
	p.startTool("create_user")
	p.awaitTool("create_user")
	if got := p.text(card + ` [data-testid="error-address.city"]`); got != "This field is required." {
		t.Fatalf("the create_user card's address city error reads %q\n%s", got, p.dump(card))
	}
	if got := p.outcome("create_user"); got != "" {
		t.Errorf("an invalid create_user shows an outcome %q", got)
	}
	p.typeInto(card+` [name="arg.address.city"]`, "Paris")
	p.submitTool("create_user")
	p.wantOutcome("create_user", "result")
	if got := p.text(card + ` [data-testid="content-text"]`); !strings.Contains(got, "address: 1 Main St, Paris") {
		t.Errorf("create_user result: %q", got)
	}
}
