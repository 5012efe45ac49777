package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserResults calls the demo server's result tools from their
// cards: rich_result's Markdown shows rendered with a toggle to the raw
// text, its audio has a player, its resource link reads the resource into
// the card; weather's structuredContent is judged against its
// outputSchema; after a reload the cards still show their last outcomes
// and arguments; big_result's 5 MiB shows cut, the page keeps answering
// clicks, and Show all and Download give the whole response. When
// PLAYGROUND_SCREENSHOT_DIR is set, results-rich.png, results-reloaded.png
// and results-big.png are saved there.
func TestBrowserResults(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	rich := e2eCard("rich_result")

	p.openTool("rich_result")
	p.submitTool("rich_result")
	p.wantOutcome("rich_result", "result")
	if h := p.text(rich + ` [data-testid="markdown"] h1`); h != "Demo report" {
		t.Errorf("the rendered Markdown's heading reads %q", h)
	}
	if e2eEval[bool](p, "look for raw Markdown", rich, `document.querySelector(`+e2eJS(rich+` [data-md-raw]`)+`).offsetParent !== null`) {
		t.Error("the raw Markdown shows before the toggle")
	}
	p.do("show the raw Markdown", rich, chromedp.Click(chromedp.CSS(rich+` [data-testid="md-toggle"]`)))
	p.waitJS("wait for the raw Markdown", rich, `(() => {
		const c = document.querySelector(`+e2eJS(rich)+`);
		return c.querySelector('[data-md-raw]').offsetParent !== null && c.querySelector('[data-md-rendered]').offsetParent === null &&
			c.querySelector('[data-md-raw]').textContent.startsWith("# Demo report");
	})()`)
	p.do("show the rendered Markdown again", rich, chromedp.Click(chromedp.CSS(rich+` [data-testid="md-toggle"]`)))
	if !e2eEval[bool](p, "find the audio player", rich, `!!document.querySelector(`+e2eJS(rich+` audio[controls][src^="data:audio/wav;base64,"]`)+`)`) {
		t.Error("no audio player for the audio block")
	}
	if a := p.text(rich + ` [data-testid="annotations"]`); !strings.Contains(a, "audience: user") || !strings.Contains(a, "priority: 0.8") {
		t.Errorf("the annotations read %q", a)
	}
	p.do("read the linked resource", rich, chromedp.Click(chromedp.CSS(rich+` [data-testid="read-resource"]`)))
	p.waitJS("wait for the resource's contents", rich,
		`!!document.querySelector(`+e2eJS(rich+` [data-testid="resource-read"] [data-testid="resource-contents"] h1`)+`)`)
	if h := p.text(rich + ` [data-testid="resource-read"] h1`); !strings.Contains(h, "demo server") {
		t.Errorf("the read resource's heading reads %q", h)
	}
	if e := p.text(rich + ` [data-testid="content-embedded"]`); !strings.Contains(e, "demo://config.json") {
		t.Errorf("the embedded resource reads %q", e)
	}
	if shots != "" {
		p.screenshot(shots, "results-rich", rich)
	}

	weather := e2eCard("weather")
	p.openTool("weather")
	p.setValue(weather+` [name="arg.city"]`, "Paris")
	p.submitTool("weather")
	if v := e2eEval[string](p, "read the verdict", weather, `document.querySelector(`+e2eJS(weather+` [data-testid="schema-verdict"]`)+`).dataset.verdict`); v != "match" {
		t.Errorf("weather's verdict is %q, want match", v)
	}

	step := func(s string) { t.Logf("step: %s", s) }
	step("reload")
	p.do("reload the page", "main", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(weather+` [data-testid="outcome-from"]`)))
	if city := p.value(weather + ` [name="arg.city"]`); city != "Paris" {
		t.Errorf("after a reload weather's city reads %q", city)
	}
	if v := e2eEval[string](p, "read the verdict", weather, `document.querySelector(`+e2eJS(weather+` [data-testid="schema-verdict"]`)+`).dataset.verdict`); v != "match" {
		t.Errorf("after a reload weather's verdict is %q, want match", v)
	}
	if shots != "" {
		p.screenshot(shots, "results-reloaded", weather)
	}
	p.openTool("rich_result")
	p.waitJS("wait for rich_result's last outcome", rich, `!!document.querySelector(`+e2eJS(rich+` [data-testid="outcome-from"]`)+`)`)
	if h := p.text(rich + ` [data-testid="markdown"] h1`); h != "Demo report" {
		t.Errorf("after a reload the rich_result heading reads %q", h)
	}
	if from := p.text(rich + ` [data-testid="outcome-from"]`); !strings.Contains(from, "session "+p.liveSessionID()) {
		t.Errorf("after a reload the outcome says %q", from)
	}

	step("big result")
	big := e2eCard("big_result")
	p.openTool("big_result")
	p.setValue(big+` [name="arg.kib"]`, "5120")
	p.submitTool("big_result")
	p.wantOutcome("big_result", "result")
	if cut := p.text(big + ` [data-testid="outcome-cut"]`); !strings.Contains(cut, "MiB: only its beginning is shown") {
		t.Errorf("the cut notice reads %q", cut)
	}
	// The page answers a click at once: the input schema unfolds.
	start := time.Now()
	p.do("unfold the input schema", big, chromedp.Click(chromedp.CSS(big+` details > summary`)))
	p.waitJS("wait for the input schema", big, `document.querySelector(`+e2eJS(big+` details`)+`).open`)
	if d := time.Since(start); d > time.Second {
		t.Errorf("a click took %v to be handled with the 5 MiB result on the page", d)
	}
	if n := e2eEval[int](p, "measure the card", big, `document.querySelector(`+e2eJS(big)+`).outerHTML.length`); n > 600<<10 {
		t.Errorf("the big_result card is %d bytes of HTML", n)
	}
	showAll := e2eEval[string](p, "read Show all", big, `document.querySelector(`+e2eJS(big+` [data-testid="show-all"]`)+`).getAttribute("href")`)
	download := e2eEval[string](p, "read Download", big, `document.querySelector(`+e2eJS(big+` [data-testid="download-all"]`)+`).getAttribute("href")`)
	if !regexp.MustCompile(`^/frames/\d+/body$`).MatchString(showAll) || !regexp.MustCompile(`^/frames/\d+/raw$`).MatchString(download) {
		t.Fatalf("Show all %q, Download %q", showAll, download)
	}
	if body := e2eGet(t, srv.URL+download); len(body) < 5<<20 || !strings.Contains(body, "line 0050000: ") {
		t.Errorf("Download gives %d bytes", len(body))
	}
	if shots != "" {
		p.screenshot(shots, "results-big", big)
	}
	e2eNavigate(p, "open Show all", srv.URL+showAll, "body")
	if !e2eEval[bool](p, "look for the whole text", "body", `document.body.textContent.includes("line 0050000: ")`) {
		t.Error("Show all does not show the whole response")
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
