package main

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserCoViewing signs two people in, in two browsers: the admin and
// a viewer. Both open the demo server's live session; each sees the other
// among its watchers. The viewer has no Call button and no answer controls.
// The admin calls ask_name; its elicitation shows in both browsers, and
// once the admin has answered, the viewer's card says who answered and no
// request is left waiting there. It needs PLAYGROUND_CHROMIUM.
func TestBrowserCoViewing(t *testing.T) {
	srv, admin := e2eBrowse(t)
	srv.addUser(t, "vera", "viewer")
	ctx, cancel := context.WithTimeout(context.Background(), e2eBrowserTimeout)
	t.Cleanup(cancel)
	viewer := e2eOpenBrowser(t, ctx, e2eChromium(t))
	viewer.signInAs(srv, "vera")

	admin.connectDemoServer(srv.URL)
	admin.openTool("ask_name")
	toolPage := e2eEval[string](admin, "read the tool's address", "", `location.href`)
	viewer.do("open the same tool page", "main", chromedp.Navigate(toolPage),
		chromedp.WaitVisible(chromedp.CSS(e2eCard("ask_name"))))
	viewer.waitLive()

	watchers := func(p *e2ePage) string {
		return e2eEval[string](p, "read the watchers", `[data-testid="traffic-panel"]`,
			`Array.from(document.querySelectorAll('[data-testid="watcher"]')).map(w => w.dataset.name).join(",")`)
	}
	for _, p := range []*e2ePage{admin, viewer} {
		p.waitJS("wait until both people show as watching", `[data-testid="traffic-panel"]`,
			`Array.from(document.querySelectorAll('[data-testid="watcher"]')).map(w => w.dataset.name).join(",") === "e2e-admin,vera"`)
	}

	if e2eEval[bool](viewer, "look for a Call button", "", `!!document.querySelector('[data-testid="call-tool"]')`) {
		t.Error("the viewer is offered a Call button")
	}
	if !e2eEval[bool](viewer, "look for the viewer's note", "", `!!document.querySelector('[data-testid="viewer-no-call"]')`) {
		t.Error("the viewer's tool card does not say why it cannot call")
	}
	if e2eEval[bool](viewer, "look for Disconnect", "", `!!document.querySelector('[data-testid="disconnect"]')`) {
		t.Error("the viewer is offered Disconnect")
	}

	admin.startTool("ask_name")
	input := admin.waitInput("elicit-form", "")
	viewer.waitJS("wait for the elicitation in the viewer's page", `[data-testid="inputs"]`,
		`!!document.querySelector('`+input+`[data-testid="input-request"]')`)
	if !e2eEval[bool](viewer, "check the viewer's card is read-only", input,
		`document.querySelector('`+input+` fieldset').disabled && !!document.querySelector('`+input+` [data-testid="input-viewer-note"]')`) {
		t.Errorf("the viewer can answer the elicitation:\n%s", viewer.dump(input))
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		viewer.screenshot(dir, "coview-viewer", input)
		admin.screenshot(dir, "coview-admin", input)
	}

	admin.typeInto(input+` [name="arg.name"]`, "Ada")
	admin.accept("Accept", input)
	admin.awaitTool("ask_name")
	admin.wantOutcome("ask_name", "result")
	viewer.waitJS("wait for the viewer's card to say who answered", `[data-testid="inputs"]`,
		`(() => { const b = document.querySelector('`+input+`[data-testid="input-answered-by"]');
			return !!b && b.textContent.includes("Answered by e2e-admin"); })()`)
	// The notice stays long enough to be read, until dismissed.
	time.Sleep(3 * time.Second)
	answeredBy := `document.querySelector('` + input + `[data-testid="input-answered-by"]')`
	if !e2eEval[bool](viewer, "look for the notice again", `[data-testid="inputs"]`, `(() => { const b = `+answeredBy+`; return !!b && b.getClientRects().length > 0; })()`) {
		t.Error("the viewer's notice of who answered vanished within 3 s")
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		viewer.screenshot(dir, "coview-answered-by", `[data-testid="inputs"]`)
	}
	viewer.do("dismiss the notice", `[data-testid="inputs"]`, chromedp.Click(chromedp.CSS(input+` [data-dismiss]`)))
	if e2eEval[bool](viewer, "look for the notice after dismissing it", `[data-testid="inputs"]`, `!!`+answeredBy) {
		t.Error("the notice stays after Dismiss")
	}
	if n := e2eEval[int](viewer, "count waiting requests", "", `document.querySelectorAll('[data-testid="input-request"]').length`); n != 0 {
		t.Errorf("the viewer still sees %d waiting requests after the admin answered", n)
	}
	if got := watchers(viewer); !strings.Contains(got, "e2e-admin") {
		t.Errorf("the viewer's watchers are %q", got)
	}
	for _, p := range []*e2ePage{admin, viewer} {
		for _, m := range p.consoleErrors() {
			t.Errorf("browser console: %s", m)
		}
	}
}
