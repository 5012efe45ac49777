package main

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserLongToolCall starts the demo server's slow tool from its card:
// while it runs the card says so with the elapsed time ticking, its Call
// button is disabled and the progress bar follows the server's progress
// notifications; Cancel ends the call, the card says Cancelled and the
// traffic panel shows notifications/cancelled; the next call runs to its
// result. When PLAYGROUND_SCREENSHOT_DIR is set, the running card is saved
// there (tool-running.png) and so is the cancelled one (tool-cancelled.png).
func TestBrowserLongToolCall(t *testing.T) {
	srv, p := e2eBrowse(t)
	card := e2eCard("slow")
	p.connectDemoServer(srv.URL)
	p.openTool("slow")
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")

	if e2eEval[bool](p, "look for the running state before any call", card,
		`document.querySelector(`+e2eJS(card+` [data-testid="call-running"]`)+`).offsetParent !== null`) {
		t.Error("the slow card shows a running call before any was made")
	}
	p.setValue(card+` [name="arg.seconds"]`, "30")
	p.setValue(card+` [name="arg.steps"]`, "30")
	p.startTool("slow")

	p.waitJS("wait for the running state", card, `(() => {
		const c = document.querySelector(`+e2eJS(card)+`);
		return c.querySelector('[data-testid="call-running"]').offsetParent !== null &&
			c.querySelector('[data-testid="call-tool"]').disabled;
	})()`)
	p.waitJS("wait for the elapsed time to pass a second", card,
		`parseFloat(document.querySelector(`+e2eJS(card+` [data-testid="call-elapsed"]`)+`).textContent) >= 1`)
	progress := func() float64 {
		return e2eEval[float64](p, "read the progress bar", card, `(() => {
			const b = document.querySelector(`+e2eJS(card+` [data-testid="call-progress"]`)+`);
			return b.hidden ? 0 : b.value;
		})()`)
	}
	p.waitJS("wait for the first progress report", card,
		`(() => { const b = document.querySelector(`+e2eJS(card+` [data-testid="call-progress"]`)+`); return !b.hidden && b.value >= 1 && b.max === 30; })()`)
	first := progress()
	p.waitJS("wait for the progress bar to move", card,
		`document.querySelector(`+e2eJS(card+` [data-testid="call-progress"]`)+`).value > `+strconv.FormatFloat(first, 'f', -1, 64))
	if text := p.text(card + ` [data-testid="call-progress-text"]`); !strings.Contains(text, "/ 30") || !strings.Contains(text, "of 30") {
		t.Errorf("the progress text reads %q, want progress / total and the server's message", text)
	}
	if shots != "" {
		p.screenshot(shots, "tool-running", card)
	}

	p.do("click Cancel", card, chromedp.Click(chromedp.CSS(card+` [data-testid="cancel-call"]`)))
	p.awaitTool("slow")
	p.wantOutcome("slow", "cancelled")
	if text := p.text(card + ` [data-testid="outcome"]`); !strings.Contains(text, "Cancelled") {
		t.Errorf("the cancelled card reads %q", text)
	}
	if e2eEval[bool](p, "look at the card after the call", card, `(() => {
		const c = document.querySelector(`+e2eJS(card)+`);
		return c.querySelector('[data-testid="call-running"]').offsetParent !== null || c.querySelector('[data-testid="call-tool"]').disabled;
	})()`) {
		t.Error("the card still looks busy after the call was cancelled")
	}
	p.waitFrames("notifications/cancelled in the traffic panel", func(frames []e2eDOMFrame) (bool, string) {
		n := e2eCountMethod(frames, "out", "notification", "notifications/cancelled")
		return n == 1, strconv.Itoa(n) + " notifications/cancelled sent"
	})
	if shots != "" {
		p.screenshot(shots, "tool-cancelled", card)
	}

	p.setValue(card+` [name="arg.seconds"]`, "1")
	p.setValue(card+` [name="arg.steps"]`, "2")
	p.submitTool("slow")
	p.wantOutcome("slow", "result")
	if text := p.text(card + ` [data-testid="outcome"]`); !strings.Contains(text, "Finished 2 steps") {
		t.Errorf("the second slow call reads %q", text)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
