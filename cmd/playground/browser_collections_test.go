package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserCollections saves a weather call for Paris from its tool
// card into a new collection, opens the collection and runs it: it
// passes. Then it edits the example's params to Berlin, so the server
// answers otherwise, and runs again: the run fails and its report shows
// the diff. When PLAYGROUND_SCREENSHOT_DIR is set, collections-save.png,
// collections-page.png and collections-fail.png are saved there.
func TestBrowserCollections(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	save := p.callForSaving("weather", map[string]string{"city": "Paris"})

	p.fillSaveToCollection(save, "Smoke", "Paris weather", true)
	if shots != "" {
		p.screenshot(shots, "collections-save", save)
	}
	if got := p.submitSaveToCollection(save); !strings.Contains(got, "Paris weather") || !strings.Contains(got, "Smoke") {
		t.Errorf("the saved message reads %q", got)
	}

	p.follow("open the collection", save+` [data-testid="saved-collection-link"]`)
	if params := p.value(`[data-testid="example-params"]`); !strings.Contains(params, `"Paris"`) || strings.Contains(params, "_meta") {
		t.Errorf("the example's params read %q", params)
	}
	if shots != "" {
		p.screenshot(shots, "collections-page", `[data-testid="example"]`)
	}

	runAll := func(want string) {
		t.Helper()
		p.follow("run all", `[data-testid="run-all"]`)
		p.do("wait for the run to end", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="run-summary"]`)))
		if got := strings.Join(strings.Fields(p.text(`[data-testid="run-summary"]`)), " "); got != want {
			t.Fatalf("the run's summary reads %q, want %q\n%s", got, want, p.dump("main"))
		}
	}
	runAll("1 passed, 0 failed")
	if o := e2eEval[string](p, "read the outcome", "main", `document.querySelector('[data-testid="run-result"]').dataset.outcome`); o != "pass" {
		t.Errorf("the example's outcome is %q, want pass", o)
	}

	p.follow("back to the collection", `.crumbs a[href^="/collections/"]`)
	p.setValue(`[data-testid="example-params"]`, `{"name":"weather","arguments":{"city":"Berlin"}}`)
	p.follow("save the edited params", `[data-testid="example-save"]`)
	if params := p.value(`[data-testid="example-params"]`); !strings.Contains(params, `"Berlin"`) {
		t.Fatalf("after saving, the example's params read %q", params)
	}

	runAll("0 passed, 1 failed")
	if msg := p.text(`[data-testid="run-message"]`); !strings.Contains(msg, "differs from the snapshot") {
		t.Errorf("the failure's message reads %q", msg)
	}
	diff := p.text(`[data-testid="run-diff"]`)
	for _, w := range []string{"/structuredContent/city", `"Paris"`, `"Berlin"`, "changed"} {
		if !strings.Contains(diff, w) {
			t.Errorf("the diff lacks %q: %s", w, diff)
		}
	}
	if shots != "" {
		p.screenshot(shots, "collections-fail", `[data-testid="run-diff"]`)
	}

	// Berlin is right now: its answer becomes the snapshot, and the next
	// run passes.
	e2eEval[bool](p, "answer the confirm with yes", "", `window.confirm = () => true; true`)
	p.follow("accept the answer", `[data-testid="accept-answer"]`)
	p.do("wait for the notice", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="answer-accepted"]`)))
	if shots != "" {
		p.screenshot(shots, "collections-accepted", `[data-testid="answer-accepted"]`)
	}
	p.follow("back to the collection", `.crumbs a[href^="/collections/"]`)
	runAll("1 passed, 0 failed")
}
