package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserToolListChangesLive calls the demo server's toggle_bonus,
// which adds a tool and makes the server say its tool list changed: a
// notice says so and the tools section's list shows the new tool without a
// reload; toggling again removes it.
func TestBrowserToolListChangesLive(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	p.openTool("toggle_bonus")
	e2eEval[bool](p, "mark the page", "", `window.e2eSamePage = true`)
	listed := func() []string {
		return e2eEval[[]string](p, "list the tools", `[data-testid="item-list"]`,
			`Array.from(document.querySelectorAll('[data-testid="item-link"]'), e => e.dataset.item)`)
	}
	if slices.Contains(listed(), "bonus") {
		t.Fatal("the tool bonus is listed before toggle_bonus added it")
	}
	hasBonus := `!!document.querySelector('[data-testid="item-link"][data-item="bonus"]')`

	p.submitTool("toggle_bonus")
	p.do("wait for the notice", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="list-changed"][data-list-changed="tools"]`)))
	p.waitJS("wait for bonus in the list", `[data-testid="item-list"]`, hasBonus)
	if got := p.text(`[data-testid="list-changed"]`); got == "" {
		t.Error("the notice is empty")
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "list-changed", `[data-testid="list-changed"]`)
	}
	p.openTool("bonus")
	p.submitTool("bonus")
	p.wantOutcome("bonus", "result")

	p.openTool("toggle_bonus")
	p.submitTool("toggle_bonus")
	p.waitJS("wait for bonus to leave the list", `[data-testid="item-list"]`, "!"+hasBonus)
	if !e2eEval[bool](p, "check the marker", "", `window.e2eSamePage === true`) {
		t.Error("the page was reloaded; the list must change in place")
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// TestBrowserToolSearch types into the Tools section's search box: the
// list keeps the tools whose name, title or description holds the text
// (ask_name only for "elicitation", which only its description says),
// each description is its link's tooltip, and Enter opens the first
// tool still shown.
func TestBrowserToolSearch(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	p.openSection("tools")
	list := `[data-testid="item-list"]`
	shown := func() string {
		return e2eEval[string](p, "read the tools shown", list,
			`Array.from(document.querySelectorAll('[data-testid="item-list"] li:not([hidden]) [data-testid="item-link"]'), a => a.dataset.item).join(",")`)
	}
	p.typeInto(list+` [data-testid="item-search"]`, "elicitation")
	if got := shown(); got != "ask_name" {
		t.Errorf("searching for \"elicitation\" shows %q, want ask_name alone", got)
	}
	if tip := e2eEval[string](p, "read the tooltip", list, `document.querySelector('[data-item="ask_name"]').title`); !strings.Contains(tip, "elicitation") {
		t.Errorf("ask_name's tooltip reads %q", tip)
	}
	p.do("press Enter", list, chromedp.SendKeys(chromedp.CSS(list+` [data-testid="item-search"]`), "\r"),
		chromedp.WaitVisible(chromedp.CSS(e2eCard("ask_name"))))
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
