package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/cmd/playground/demoserver"
)

// TestBrowserInterfaceDrift serves one demo server over Streamable HTTP
// from the test, so that what toggle_bonus changes lasts across sessions
// (each stdio connect would start a fresh demo process). After toggle_bonus
// added the tool bonus, a reconnect's Overview names it as added in
// revision 2, and the revisions page lists both revisions.
func TestBrowserInterfaceDrift(t *testing.T) {
	srv, p := e2eBrowse(t)
	demo := demoserver.New()
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return demo }, nil))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	id := srv.apiCreateServer(t, map[string]any{"name": "Demo over HTTP", "transport": "http", "url": ts.URL + "/mcp"})
	page := srv.URL + "/servers/" + strconv.FormatInt(id, 10)
	connect := func(what string) {
		p.do(what, "main", chromedp.Navigate(page),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
			chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="drift-revision"]`)))
		p.waitLive()
	}

	connect("connect the first time")
	if got := p.text(`[data-testid="drift-revision"]`); !strings.HasPrefix(got, "revision 1, from ") {
		t.Errorf("first connect: the Overview says %q", got)
	}
	if got := p.text(`[data-testid="drift-first"]`); !strings.Contains(got, "the first revision") {
		t.Errorf("first connect: %q", got)
	}

	p.openTool("toggle_bonus")
	p.submitTool("toggle_bonus")
	p.wantOutcome("toggle_bonus", "result")
	p.do("disconnect", "main", chromedp.Navigate(page),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="disconnect"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="disconnect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)))

	connect("reconnect")
	if got := p.text(`[data-testid="drift-revision"]`); !strings.HasPrefix(got, "revision 2, from ") {
		t.Errorf("after reconnecting the Overview says %q", got)
	}
	if got := p.text(`[data-testid="drift-added"]`); got != "added: bonus" {
		t.Errorf("after reconnecting the change list says %q, want %q\n%s", got, "added: bonus", p.dump(`[data-testid="drift"]`))
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "drift-overview", `[data-testid="drift"]`)
	}

	p.do("open all revisions", "main", chromedp.Click(chromedp.CSS(`[data-testid="drift-older"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="revision"]`)))
	if n := e2eEval[int](p, "count revisions", "main", `document.querySelectorAll('[data-testid="revision"]').length`); n != 2 {
		t.Errorf("the revisions page lists %d revisions, want 2", n)
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "drift-revisions", "main")
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
