package main

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserTrafficIsPaged records a session of about 150 frames, one of
// them a 20 KiB echo, and reads it in Chromium: the session page shows the
// newest 50 frames; "Show older frames" brings the earlier pages in place,
// each frame once and in order; the large body is a preview until "Show
// all" loads the whole of it.
func TestBrowserTrafficIsPaged(t *testing.T) {
	srv, p := e2eBrowse(t)

	demoHref := p.openDemoServerLink(srv.URL)
	var session struct {
		ID int64 `json:"id"`
	}
	e2ePostJSON(t, srv.URL+"/api/v1"+demoHref+"/sessions", nil, http.StatusCreated, &session)
	sessionID := fmt.Sprint(session.ID)
	requests := srv.URL + "/api/v1/sessions/" + sessionID + "/requests"
	const marker = "END-OF-THE-LONG-MESSAGE"
	long := strings.Repeat("0123456789", 2048) + marker
	e2ePostJSON(t, requests, map[string]any{"method": "tools/call", "params": map[string]any{"name": "echo", "arguments": map[string]any{"message": long}}}, http.StatusOK, nil)
	for range 70 {
		e2ePostJSON(t, requests, map[string]any{"method": "ping"}, http.StatusOK, nil)
	}
	// A closed session records nothing more: the page can be compared
	// with what the API lists.
	req, _ := http.NewRequest(http.MethodDelete, srv.URL+"/api/v1/sessions/"+sessionID, nil)
	resp, err := e2eHTTPDo(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	stored := srv.apiFrames(t, sessionID)
	if len(stored) < 140 {
		t.Fatalf("the session recorded %d frames, want at least 140", len(stored))
	}

	p.do("open the session page", "main", chromedp.Navigate(srv.URL+"/sessions/"+sessionID),
		chromedp.WaitVisible(chromedp.CSS(`#frames [data-testid="frame"]`)))
	first := p.frames()
	if len(first) != 50 || first[len(first)-1].DOMID != fmt.Sprintf("frame-%d", stored[len(stored)-1].ID) {
		t.Fatalf("the session page shows %d frames ending with %s, want the newest 50 ending with frame-%d\n%s",
			len(first), first[len(first)-1].DOMID, stored[len(stored)-1].ID, e2eSummary(first))
	}
	if got := p.text(`[data-testid="frame-count"]`); got != fmt.Sprintf("%d frames", len(stored)) {
		t.Errorf("the session says %q, want %d frames", got, len(stored))
	}

	shown := len(first)
	for pages := 1; shown < len(stored); pages++ {
		if pages > 5 {
			t.Fatalf("after %d pages the panel shows %d of %d frames", pages, shown, len(stored))
		}
		p.do("click Show older frames", `[data-testid="traffic-panel"]`,
			chromedp.Click(chromedp.CSS(`[data-testid="older-frames"] a`)))
		before := shown
		p.waitJS("wait for the older frames", `[data-testid="traffic-panel"]`,
			fmt.Sprintf(`document.querySelectorAll('#frames [data-testid="frame"]').length > %d`, before))
		shown = len(p.frames())
	}
	all := p.frames()
	p.checkFrameOrder(all)
	if len(all) != len(stored) || all[0].DOMID != fmt.Sprintf("frame-%d", stored[0].ID) {
		t.Errorf("paging back shows %d frames from %s, want all %d from frame-%d", len(all), all[0].DOMID, len(stored), stored[0].ID)
	}
	p.waitJS("the first frame is marked as the session's start", "", `!!document.querySelector('[data-testid="frames-start"]') && !document.querySelector('[data-testid="older-frames"]')`)

	// The echo's request and result are previews until asked for (so may
	// be the long tools/list result of the interface revision).
	previews := `[data-testid="frame"][data-method="tools/call"] [data-testid="body-preview"]`
	if n := e2eEval[int](p, "count the previews", "", `document.querySelectorAll('`+previews+`').length`); n != 2 {
		t.Errorf("%d bodies are previewed, want 2 (the long echo and its result)", n)
	}
	if e2eEval[bool](p, "look for the end of the long message", "", `document.body.textContent.includes(`+e2eJS(marker)+`)`) {
		t.Error("the page holds the whole long message before it is asked for")
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "session-paged", previews)
	}
	// Rows are compact until opened.
	if e2eEval[bool](p, "look for the Show all button", "", `(() => { const b = document.querySelector('`+previews+` [data-testid="show-body"]'); return b.checkVisibility(); })()`) {
		t.Error("a closed row shows its body")
	}
	rowID := e2eEval[string](p, "find the long echo's row", "", `document.querySelector('`+previews+`').closest("details").id`)
	p.do("open the long echo's row", previews, chromedp.Click(chromedp.CSS("#"+rowID+" > summary")))
	p.do("click Show all", previews, chromedp.Click(chromedp.CSS(previews+` [data-testid="show-body"]`)))
	p.waitJS("wait for the whole body", "", `(() => {
		const b = document.querySelector('[data-testid="whole-body"]');
		return !!b && b.textContent.includes(`+e2eJS(marker)+`);
	})()`)
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "session-whole-body", `[data-testid="whole-body"]`)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// TestBrowserTrafficFilter filters the demo server's live traffic to
// errors: only the tool error and the JSON-RPC error stay, each marked; a
// new failure streams in and a success does not; clearing the filter
// brings every frame back.
func TestBrowserTrafficFilter(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	sessionID := p.liveSessionID()
	requests := srv.URL + "/api/v1/sessions/" + sessionID + "/requests"
	call := func(tool string, args map[string]any) {
		e2ePostJSON(t, requests, map[string]any{"method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}}, http.StatusOK, nil)
	}
	call("fail", map[string]any{"reason": "first failure"})
	call("protocol_error", map[string]any{})
	call("echo", map[string]any{"message": "fine"})
	p.waitJS("wait for the calls in the panel", `[data-testid="traffic-panel"]`,
		`document.querySelectorAll('#frames [data-testid="frame"][data-method="tools/call"]').length >= 6`)

	p.do("filter to errors", `[data-testid="traffic-panel"]`, chromedp.Click(chromedp.CSS(`[data-testid="filter-errors"]`)))
	p.waitJS("wait for the filtered panel", `[data-testid="traffic-panel"]`, `(() => {
		const box = document.querySelector('[data-testid="filter-errors"]');
		return !!box && box.checked && document.querySelectorAll('#frames [data-testid="frame"]').length === 2;
	})()`)
	marks := e2eEval[[]string](p, "read the marks", `[data-testid="traffic-panel"]`,
		`Array.from(document.querySelectorAll('#frames [data-testid="frame-mark"]'), m => m.textContent.trim())`)
	if len(marks) != 2 || marks[0] != "isError" || !strings.HasPrefix(marks[1], "error ") {
		t.Errorf("the filtered panel marks %q, want isError and a JSON-RPC error", marks)
	}
	p.waitJS("wait for the filtered panel's live stream", `[data-testid="traffic-panel"]`,
		`(() => { const s = document.querySelector("[data-ws-status]"); return !!s && s.textContent.trim() === "live"; })()`)
	call("echo", map[string]any{"message": "still fine"})
	call("fail", map[string]any{"reason": "second failure"})
	p.waitJS("wait for the new failure", `[data-testid="traffic-panel"]`,
		`document.querySelectorAll('#frames [data-testid="frame"]').length === 3`)
	if e2eEval[bool](p, "look for the echo", "", `document.querySelector('#frames').textContent.includes("still fine")`) {
		t.Error("a call that did not fail streamed into the panel filtered to errors")
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "traffic-errors", `[data-testid="traffic-panel"]`)
	}

	p.do("clear the filter", `[data-testid="traffic-panel"]`, chromedp.Click(chromedp.CSS(`[data-testid="filter-errors"]`)))
	p.waitJS("wait for every frame", `[data-testid="traffic-panel"]`,
		`document.querySelectorAll('#frames [data-testid="frame"][data-method="tools/call"]').length >= 10`)
	p.checkFrameOrder(p.frames())

	// Pause stops following; frames still arrive and are counted.
	p.waitJS("wait for the unfiltered panel's live stream", `[data-testid="traffic-panel"]`,
		`(() => { const s = document.querySelector("[data-ws-status]"); return !!s && s.textContent.trim() === "live"; })()`)
	p.do("click Pause", `[data-testid="traffic-panel"]`, chromedp.Click(chromedp.CSS(`[data-testid="pause"]`)))
	e2eEval[bool](p, "scroll the panel to its top", "", `(document.querySelector("#frames").scrollTop = 0) === 0`)
	e2ePostJSON(t, requests, map[string]any{"method": "ping"}, http.StatusOK, nil)
	e2ePostJSON(t, requests, map[string]any{"method": "ping"}, http.StatusOK, nil)
	p.waitJS("wait for the count of new frames", `[data-testid="traffic-panel"]`,
		`document.querySelector('[data-testid="pause"]').textContent.trim() === "Resume (2 new)"`)
	if top := e2eEval[float64](p, "read the panel's scroll", "", `document.querySelector("#frames").scrollTop`); top != 0 {
		t.Errorf("the paused panel scrolled to %v", top)
	}
	p.do("click Resume", `[data-testid="traffic-panel"]`, chromedp.Click(chromedp.CSS(`[data-testid="pause"]`)))
	p.waitJS("wait for the panel at its newest frame", `[data-testid="traffic-panel"]`,
		`(() => { const l = document.querySelector("#frames"); return l.scrollHeight - l.scrollTop - l.clientHeight < 40; })()`)
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
