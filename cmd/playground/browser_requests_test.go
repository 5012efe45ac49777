// Browser tests of server requests that must reach the user wherever they
// are (sampling, URL elicitation) and of the Logs panel.

package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// e2eInViewJS is true when the element matching the selector is within
// the viewport.
func e2eInViewJS(sel string) string {
	return `(() => { const e = document.querySelector(` + e2eJS(sel) + `); if (!e) return false;
		const b = e.getBoundingClientRect(); return b.width > 0 && b.top >= 0 && b.bottom <= window.innerHeight; })()`
}

// TestBrowserSamplingAnsweredFromDialog starts summarize on the demo
// server; the sampling request opens in a dialog, which Later closes; then
// the user opens another tool and scrolls down: the sampling request
// announces itself in a toast on screen, Answer opens it in a dialog (its
// message's newlines kept), and the reply written there reaches
// summarize's result, which its card shows when opened again, while the
// page stays where the user was.
func TestBrowserSamplingAnsweredFromDialog(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	p.openTool("summarize")
	p.typeInto(e2eCard("summarize")+` [name="arg.text"]`, "the sea and the sky")
	p.startTool("summarize")
	sample := p.waitInput("sample", "")

	// The request opens in the dialog; the user puts it off, goes on to
	// another tool, and scrolls down to its button.
	p.inDialog(sample)
	p.later()
	other := e2eCard("log")
	p.openTool("log")
	p.do("scroll to the log tool's button", other, chromedp.ScrollIntoView(chromedp.CSS(other+` [data-testid="call-tool"]`)))
	scrollY := e2eEval[float64](p, "read the scroll position", "", `window.scrollY`)
	toast := `[data-testid="input-toast"]`
	p.waitJS("wait for the toast in the viewport", "body", e2eInViewJS(toast))
	if got := p.text(toast + " span"); got != "Server asks: sampling" {
		t.Errorf("the toast says %q, want %q", got, "Server asks: sampling")
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "sampling-toast", other)
	}

	p.do("click Answer", toast, chromedp.Click(chromedp.CSS(toast+` [data-testid="input-toast-go"]`)))
	dialog := `dialog[data-testid="input-dialog"][open]`
	p.waitJS("wait for the dialog with the request", "body", `!!document.querySelector(`+e2eJS(dialog+" "+sample)+`)`)
	if !e2eEval[bool](p, "see the card in view", dialog, e2eInViewJS(sample)) {
		t.Error("the sampling card in the dialog is not in view")
	}
	if e2eEval[bool](p, "look for the toast", "", `!!document.querySelector(`+e2eJS(toast)+`)`) {
		t.Error("the toast stays while its request is open")
	}
	msg := dialog + ` [data-testid="sample-message"][data-role="user"] [data-testid="sample-text"]`
	if got := e2eEval[string](p, "read the message", dialog, `document.querySelector(`+e2eJS(msg)+`).innerText`); got != "Summarise in one sentence:\n\nthe sea and the sky" {
		t.Errorf("the message reads %q, without its newline", got)
	}
	if ws := e2eEval[string](p, "read the message's white-space", dialog, `getComputedStyle(document.querySelector(`+e2eJS(msg)+`)).whiteSpace`); ws != "pre-wrap" {
		t.Errorf("the message's white-space is %q, want pre-wrap", ws)
	}
	if got := p.text(dialog + ` [data-testid="sample-system"]`); !strings.Contains(got, "You summarise text in one sentence.") {
		t.Errorf("the system prompt reads %q", got)
	}
	if focused := e2eEval[bool](p, "see where the cursor is", dialog, `document.activeElement === document.querySelector(`+e2eJS(sample+` textarea[name="reply"]`)+`)`); !focused {
		t.Error("the cursor is not in the reply")
	}
	p.typeInto(sample+` textarea[name="reply"]`, "Two lines, summarised.")
	p.setValue(sample+` input[name="model"]`, "dialog-model")
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "sampling-dialog", sample)
	}
	scrollY = e2eEval[float64](p, "read the scroll position", "", `window.scrollY`)
	p.accept("Send reply", sample)
	p.waitJS("wait for the dialog to close", "body", `!document.querySelector(`+e2eJS(dialog)+`)`)
	if e2eEval[bool](p, "look for the toast", "", `!!document.querySelector(`+e2eJS(toast)+`)`) {
		t.Error("a toast remains once the request is answered")
	}
	if now := e2eEval[float64](p, "read the scroll position", "", `window.scrollY`); now < scrollY-50 || now > scrollY+50 {
		t.Errorf("answering moved the page from %vpx to %vpx", scrollY, now)
	}
	// summarize's card, opened again, shows the call's outcome, which
	// came while another card was open.
	summarize := e2eCard("summarize")
	reply := summarize + ` [data-testid="outcome"]`
	p.openTool("summarize")
	p.waitJS("wait for summarize's outcome", summarize, `(document.querySelector(`+e2eJS(reply)+`) || {textContent: ""}).textContent.includes("Two lines, summarised.")`)
	if got := p.text(reply); !strings.Contains(got, "dialog-model") {
		t.Errorf("summarize's result reads %q, want the reply from the dialog", got)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// e2eVisitServer serves an official Go SDK server whose visit tool asks,
// in URL mode, to visit its url argument, and answers "ACTION:".
func e2eVisitServer(t *testing.T) string {
	t.Helper()
	life, end := context.WithCancel(context.Background())
	s := mcp.NewServer(&mcp.Implementation{Name: "visiting", Version: "1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "visit", Description: "asks the user to visit a URL"},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct {
			URL string `json:"url"`
		}) (*mcp.CallToolResult, any, error) {
			ctx, cancel := context.WithCancel(ctx)
			defer context.AfterFunc(life, cancel)()
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "Sign in to continue.", URL: in.URL, ElicitationID: "e1"})
			if err != nil {
				return nil, nil, fmt.Errorf("elicitation: %w", err)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Action + ":"}}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(func() {
		end()
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// TestBrowserURLElicitationOpensAfterConfirm asks, from a server's tool, to
// visit a page: the card names its domain, the link is nowhere to click
// until "Open <domain>…" has been answered yes, and it opens the page in a
// new tab without an opener; Accept then reaches the server.
func TestBrowserURLElicitationOpensAfterConfirm(t *testing.T) {
	srv, p := e2eBrowse(t)
	id := srv.apiCreateServer(t, map[string]any{"name": "Visiting", "transport": "http", "url": e2eVisitServer(t)})
	p.do("open the visiting server and connect", "main", chromedp.Navigate(srv.URL+"/servers/"+strconv.FormatInt(id, 10)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
	p.openTool("visit")
	target := srv.URL + "/?opened-by=elicitation"
	p.typeInto(e2eCard("visit")+` [name="arg.url"]`, target)
	p.startTool("visit")
	card := p.waitInput("elicit-url", "")
	p.inDialog(card)

	if got := p.text(card + ` [data-testid="url-domain"]`); got != "127.0.0.1" {
		t.Errorf("the card names the domain %q, want 127.0.0.1", got)
	}
	if got := p.text(card + ` [data-testid="url-full"]`); got != target {
		t.Errorf("the card shows the URL %q, want %q", got, target)
	}
	link := card + ` [data-testid="url-go"]`
	visible := func() bool {
		return e2eEval[bool](p, "see whether the link shows", card, `document.querySelector(`+e2eJS(link)+`).offsetParent !== null`)
	}
	if visible() {
		t.Fatal("the link shows before the person said yes")
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "url-elicitation", card)
	}
	p.do("click Open 127.0.0.1…", card, chromedp.Click(chromedp.CSS(card+` [data-testid="url-open"]`)))
	if !visible() {
		t.Fatalf("the link does not show after Open…")
	}
	if got := p.text(card + ` [data-testid="url-confirm"] span`); got != "Open 127.0.0.1 in a new tab?" {
		t.Errorf("the confirmation asks %q", got)
	}
	if rel := e2eEval[string](p, "read the link's rel", card, `document.querySelector(`+e2eJS(link)+`).rel`); rel != "noopener noreferrer" {
		t.Errorf("the link's rel is %q", rel)
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "url-elicitation-confirm", card)
	}
	p.do("click Yes, open", card, chromedp.Click(chromedp.CSS(link)))
	p.waitJS("wait for the new tab", "", `true`)
	opened := false
	for range 50 {
		targets, err := chromedp.Targets(p.ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range targets {
			opened = opened || (tg.Type == "page" && tg.URL == target)
		}
		if opened {
			break
		}
		p.do("wait a little", "", chromedp.Sleep(100e6))
	}
	if !opened {
		t.Error("no tab opened on the URL after Yes, open")
	}
	p.accept("Accept", card)
	p.awaitTool("visit")
	if got := p.text(e2eCard("visit") + ` [data-testid="outcome"]`); !strings.Contains(got, "accept:") {
		t.Errorf("visit's result reads %q, want accept:", got)
	}
}

// TestBrowserLogsPanel sets the demo session's log level from the Logs
// section of the server page, has the demo server log at several levels,
// and sees only the entries at that level and above arrive live, in their
// colours; the filter narrows them; a lower level lets more through.
func TestBrowserLogsPanel(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	session := p.liveSessionID()
	p.openSection("logs")
	logs := `[data-testid="logs"]`
	// idle waits until no request of the panel is in flight.
	idle := func() {
		t.Helper()
		p.waitJS("wait for the Logs panel to settle", logs, `!document.querySelector('[data-testid="logs"].htmx-request, [data-testid="logs"] .htmx-request, [data-testid="logs"].htmx-swapping, [data-testid="logs"].htmx-settling')`)
	}
	setLevel := func(level, want string) {
		t.Helper()
		idle()
		p.do("choose the level "+level, logs, chromedp.Evaluate[chromedp.Void](`(() => {
			const f = document.querySelector('[data-testid="log-level-form"]');
			f.querySelector('[name="level"]').value = `+e2eJS(level)+`;
			f.requestSubmit();
		})()`))
		p.waitJS("wait for the level's answer", logs, `(document.querySelector('[data-testid="log-level-result"]') || {}).textContent === `+e2eJS(want))
	}
	callLog := func(level, message string) {
		t.Helper()
		e2ePostJSON(t, srv.URL+"/api/v1/sessions/"+session+"/requests", map[string]any{"method": "tools/call",
			"params": map[string]any{"name": "log", "arguments": map[string]any{"level": level, "message": message}}}, http.StatusOK, nil)
	}
	rows := func() string {
		return e2eEval[string](p, "read the log rows", logs, `Array.from(document.querySelectorAll('[data-testid="log-entry"]'), r => r.dataset.level + ":" + r.querySelector(".log-data").textContent.trim()).join(" | ")`)
	}
	waitRows := func(want string) {
		t.Helper()
		p.waitJS("wait for the log rows "+want, logs, `Array.from(document.querySelectorAll('[data-testid="log-entry"]'), r => r.dataset.level + ":" + r.querySelector(".log-data").textContent.trim()).join(" | ") === `+e2eJS(want))
	}

	setLevel("warning", "The server accepted warning.")
	for _, l := range []string{"debug", "info", "warning", "error", "critical"} {
		callLog(l, l+" message\nsecond line")
	}
	waitRows("warning:warning message\nsecond line | error:error message\nsecond line | critical:critical message\nsecond line")
	colour := func(level string) string {
		return e2eEval[string](p, "read the "+level+" colour", logs, `getComputedStyle(document.querySelector('[data-testid="log-entry"][data-level=`+level+`] .log-level')).backgroundColor`)
	}
	if w, e := colour("warning"), colour("error"); w == e || w == "rgba(0, 0, 0, 0)" {
		t.Errorf("warning and error share the colour %s / %s", w, e)
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "logs-panel", logs)
	}

	filter := func(level, text string) {
		t.Helper()
		idle()
		p.do("filter at "+level+" and above, by "+text, logs, chromedp.Evaluate[chromedp.Void](`(() => {
			const f = document.querySelector('[data-testid="logs-filter"]');
			f.querySelector('[name="q"]').value = `+e2eJS(text)+`;
			const l = f.querySelector('[name="level"]');
			l.value = `+e2eJS(level)+`;
			l.dispatchEvent(new Event("change", {bubbles: true}));
		})()`))
	}
	filter("error", "")
	waitRows("error:error message\nsecond line | critical:critical message\nsecond line")
	p.do("type a text filter", logs, chromedp.SendKeys(chromedp.CSS(logs+` [data-testid="logs-filter-text"]`), "critical"))
	waitRows("critical:critical message\nsecond line")
	if focused := e2eEval[bool](p, "see where the cursor is", logs, `document.activeElement === document.querySelector('[data-testid="logs-filter-text"]')`); !focused {
		t.Error("the search box lost the cursor when the panel reloaded")
	}
	filter("", "")
	waitRows("warning:warning message\nsecond line | error:error message\nsecond line | critical:critical message\nsecond line")

	// A lower level lets info through, arriving live below the others.
	setLevel("info", "The server accepted info.")
	callLog("debug", "still dropped")
	callLog("info", "now delivered")
	waitRows("warning:warning message\nsecond line | error:error message\nsecond line | critical:critical message\nsecond line | info:now delivered")
	if got := rows(); strings.Contains(got, "still dropped") {
		t.Errorf("a debug entry arrived at level info: %s", got)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
