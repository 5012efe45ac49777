package main

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserDestructiveConfirm calls the demo server's delete_note, which
// is annotated destructiveHint true: the tool list and the card mark it;
// Call opens the card's confirmation step in place of the Call button and
// sends nothing; Cancel closes it, still without sending; Call again and
// Confirm sends the one call, whose result the card shows. When
// PLAYGROUND_SCREENSHOT_DIR is set, the open step is saved there
// (destructive-confirm.png).
func TestBrowserDestructiveConfirm(t *testing.T) {
	srv, p := e2eBrowse(t)
	const tool = "delete_note"
	card := e2eCard(tool)
	step := card + ` [data-testid="destructive-confirm"]`
	p.connectDemoServer(srv.URL)
	p.openSection("tools")

	marked := e2eEval[[]string](p, "read the list's destructive marks", `[data-testid="item-list"]`,
		`Array.from(document.querySelectorAll('[data-testid="item-link"]'), a => a.querySelector('[data-badge="destructive"]') ? a.dataset.item : "").filter(Boolean)`)
	if len(marked) != 1 || marked[0] != tool {
		t.Errorf("the tool list marks %q as destructive, want only %s", marked, tool)
	}
	if !e2eEval[bool](p, "look at the list's mark", `[data-testid="item-list"]`, `(() => {
		const a = document.querySelector('[data-testid="item-link"][data-item="`+tool+`"]'), b = a.querySelector('[data-badge="destructive"]');
		const ar = a.getBoundingClientRect(), br = b.getBoundingClientRect();
		return b.offsetParent !== null && br.left >= ar.left && br.right <= ar.right;
	})()`) {
		t.Error("the list's destructive mark is hidden or clipped")
	}
	p.openTool(tool)
	if badges := e2eEval[[]string](p, "read the badges", card, `Array.from(document.querySelectorAll(`+e2eJS(card+` [data-testid="tool-badge"]`)+`), b => b.textContent)`); len(badges) == 0 || badges[0] != "destructive" {
		t.Errorf("the card's badges are %q, want destructive first", badges)
	}
	visible := func(sel string) bool {
		return e2eEval[bool](p, "look at "+sel, card, `(() => { const e = document.querySelector(`+e2eJS(sel)+`); return !!e && e.offsetParent !== null; })()`)
	}
	if visible(step) {
		t.Fatal("the confirmation step is open before Call was pressed")
	}
	sent := func() int {
		n := 0
		for _, f := range p.frames() {
			if f.Direction == "out" && f.RPCType == "request" && f.Method == "tools/call" && strings.Contains(f.Body, `"`+tool+`"`) {
				n++
			}
		}
		return n
	}

	// Call opens the step; the card stays (htmx sent nothing to replace it).
	p.startTool(tool)
	p.waitJS("wait for the confirmation step", card, `document.querySelector(`+e2eJS(step)+`).offsetParent !== null`)
	if visible(card + ` [data-testid="call-tool"]`) {
		t.Error("the Call button shows beside the confirmation step")
	}
	if got := p.text(step + ` [data-testid="confirm-call"]`); got != "Confirm: call "+tool {
		t.Errorf("the Confirm button reads %q", got)
	}
	if got := p.text(step + ` [data-testid="destructive-message"]`); !strings.Contains(got, "This tool is marked destructive: confirm to call it.") {
		t.Errorf("the step says %q", got)
	}
	if focused := e2eEval[string](p, "read the focus", card, `document.activeElement ? document.activeElement.dataset.testid || "" : ""`); focused != "confirm-call" {
		t.Errorf("focus is on %q, want the Confirm button", focused)
	}
	if shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); shots != "" {
		p.screenshot(shots, "destructive-confirm", card)
	}

	// Cancel closes it; nothing was sent.
	p.do("click Cancel", card, chromedp.Click(chromedp.CSS(step+` [data-testid="cancel-confirm"]`)))
	if visible(step) || !visible(card+` [data-testid="call-tool"]`) {
		t.Errorf("after Cancel the step shows %v and Call %v, want Call only", visible(step), visible(card+` [data-testid="call-tool"]`))
	}
	time.Sleep(300 * time.Millisecond) // a call sent by mistake would have reached the traffic panel
	if e2eEval[bool](p, "look for a replaced card", card, `!document.querySelector(`+e2eJS(card)+`).hasAttribute("data-e2e-stale")`) {
		t.Error("the card was replaced: a request was sent before the confirmation")
	}
	if n := sent(); n != 0 {
		t.Fatalf("%d %s calls sent before any confirmation", n, tool)
	}

	// Call again and confirm: the one call runs to its result.
	p.do("click Call "+tool, card, chromedp.Click(chromedp.CSS(card+` [data-testid="call-tool"]`)))
	p.waitJS("wait for the confirmation step again", card, `document.querySelector(`+e2eJS(step)+`).offsetParent !== null`)
	p.do("click Confirm", card, chromedp.Click(chromedp.CSS(step+` [data-testid="confirm-call"]`)))
	p.awaitTool(tool)
	p.wantOutcome(tool, "result")
	if text := p.text(card + ` [data-testid="outcome"]`); !strings.Contains(text, "Deleted note note-1.") {
		t.Errorf("the outcome reads %q", text)
	}
	if visible(step) {
		t.Error("the confirmation step shows on the card after the call")
	}
	p.waitFrames("the confirmed call in the traffic panel", func(frames []e2eDOMFrame) (bool, string) {
		n := e2eCountMethod(frames, "in", "result", "tools/call")
		return n >= 1, strconv.Itoa(n) + " tools/call results"
	})
	if n := sent(); n != 1 {
		t.Errorf("%d %s calls sent, want the confirmed one", n, tool)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
