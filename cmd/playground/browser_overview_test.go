package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserServerOverview opens the demo server's page: the live session
// starts with an overview of the server (name, version, both sides'
// capabilities, instructions), and Ping shows the round trip on the card.
// With server-everything in node_modules, its instructions are shown too.
func TestBrowserServerOverview(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	for sel, want := range map[string]string{
		`[data-testid="overview-name"]`:       "MCP Playground demo server",
		`[data-testid="overview-version"]`:    "1.0.0",
		`[data-testid="overview-era"]`:        "legacy era",
		`[data-testid="server-capabilities"]`: "resources",
		`[data-testid="client-capabilities"]`: "elicitation",
		`[data-testid="instructions"]`:        "This is the MCP Playground demo server.",
	} {
		if got := p.text(sel); !strings.Contains(got, want) {
			t.Errorf("%s says %q, want %q in it", sel, got, want)
		}
	}
	for _, want := range []string{"logging", "completions", "subscribe", "prompts"} {
		if got := p.text(`[data-testid="server-capabilities"]`); !strings.Contains(got, want) {
			t.Errorf("the server's capabilities %q lack %q", got, want)
		}
	}
	// The page's head stays compact: the section tabs are near the top.
	if top := e2eEval[float64](p, "measure where the tabs are", "", `document.querySelector('[data-testid="sections"]').getBoundingClientRect().top`); top > 300 {
		t.Errorf("the section tabs start %.0f px down the page", top)
	}

	p.do("ping the server", `[data-testid="overview"]`,
		chromedp.Click(chromedp.CSS(`[data-testid="ping-button"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="ping-result"]`)))
	if got := p.text(`[data-testid="ping-result"]`); !regexp.MustCompile(`^[0-9.]+ (µs|ms)$`).MatchString(got) {
		t.Errorf("Ping shows %q, want a latency", got)
	}
	p.do("ping again", `[data-testid="overview"]`,
		chromedp.Click(chromedp.CSS(`[data-testid="ping-button"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="ping-result"]`)))
	p.waitFrames("see both pings in the traffic", func(fs []e2eDOMFrame) (bool, string) {
		n := e2eCountMethod(fs, "out", "request", "ping")
		return n >= 2, fmt.Sprintf("%d pings", n)
	})
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "overview-demo", `[data-testid="overview"]`)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}

	t.Run("server-everything", func(t *testing.T) {
		everything := filepath.Join(e2eNodeModules(), "@modelcontextprotocol", "server-everything", "dist", "index.js")
		if _, err := os.Stat(everything); err != nil {
			t.Skipf("needs @modelcontextprotocol/server-everything in node_modules: %v", err)
		}
		var created struct {
			ID int64 `json:"id"`
		}
		e2ePostJSON(t, srv.URL+"/api/v1/servers", map[string]any{"name": "everything", "transport": "stdio",
			"command": "node", "args": []string{everything, "stdio"}}, http.StatusCreated, &created)
		p.do("open server-everything and connect", "main", chromedp.Navigate(fmt.Sprintf("%s/servers/%d", srv.URL, created.ID)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
			chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="overview"]`)))
		if got := p.text(`[data-testid="overview-name"]`); !strings.Contains(strings.ToLower(got), "everything") {
			t.Errorf("the overview names the server %q", got)
		}
		if got := e2eEval[string](p, "read the instructions", `[data-testid="overview"]`,
			`(document.querySelector('[data-testid="instructions"] pre') || {textContent: ""}).textContent`); len(got) < 40 {
			t.Errorf("server-everything's instructions are shown as %q", got)
		}
		if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
			p.screenshot(dir, "overview-everything", `[data-testid="overview"]`)
			p.do("unfold the instructions and the raw JSON", `[data-testid="overview"]`,
				chromedp.Click(chromedp.CSS(`[data-testid="instructions"] summary`)),
				chromedp.Click(chromedp.CSS(`[data-testid="overview-raw"] summary`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="overview-raw"] pre`)))
			p.screenshot(dir, "overview-everything-open", `[data-testid="overview"]`)
		}
		for _, m := range p.consoleErrors() {
			t.Errorf("browser console: %s", m)
		}
	})
}

// e2eNodeModules is where the test peers from npm are:
// $PLAYGROUND_NODE_MODULES, or the repository's node_modules.
func e2eNodeModules() string {
	if dir := os.Getenv("PLAYGROUND_NODE_MODULES"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "node_modules")
}
