package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// e2eEchoCalls returns the echo calls the session recorded, as the
// messages they sent, oldest first.
func e2eEchoCalls(t *testing.T, srv *e2eServer, sessionID string) []string {
	t.Helper()
	var out []string
	for _, f := range srv.apiFrames(t, sessionID) {
		var m e2eRPC
		if f.Direction == "out" && f.RPCType == "request" && f.Method == "tools/call" && json.Unmarshal(f.Body, &m) == nil && m.Params.Name == "echo" {
			out = append(out, fmt.Sprint(m.Params.Arguments["message"]))
		}
	}
	return out
}

// TestBrowserTrafficExchanges calls the demo server's echo and reads the
// live traffic panel in Chromium: the request and its response are one
// entry (the tool's name, the latency, an OK badge) that opens to both
// bodies; a tool error and a JSON-RPC error are badged so. Replay sends
// the request again, recorded as a new exchange that joins the panel;
// Edit and replay refuses what is not a JSON-RPC request at the editor,
// and sends the edited params.
func TestBrowserTrafficExchanges(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	sessionID := p.liveSessionID()
	requests := srv.URL + "/api/v1/sessions/" + sessionID + "/requests"
	call := func(tool string, args map[string]any) {
		e2ePostJSON(t, requests, map[string]any{"method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}}, http.StatusOK, nil)
	}
	call("echo", map[string]any{"message": "first words"})
	call("fail", map[string]any{"reason": "on purpose"})
	call("protocol_error", map[string]any{})

	const echoes = `#frames [data-testid="exchange"]:has([data-testid="exchange-item"])`
	p.waitJS("wait for the three calls as entries", `[data-testid="traffic-panel"]`, `(() => {
		const calls = Array.from(document.querySelectorAll('`+echoes+`')).filter(e => e.querySelector('[data-method="tools/call"]'));
		return calls.length === 3 && calls.every(e => e.dataset.status !== "pending");
	})()`)
	type entry struct {
		ID, Item, Status, Badge, Latency string
		Frames                           []string
		Replay, Edit                     bool
	}
	entries := e2eEval[[]entry](p, "read the entries", `[data-testid="traffic-panel"]`, `Array.from(document.querySelectorAll('`+echoes+`'), e => ({
		ID: e.dataset.exchange,
		Item: e.querySelector('[data-testid="exchange-item"]').textContent.trim(),
		Status: e.dataset.status,
		Badge: e.querySelector('[data-testid="exchange-status"]').textContent.trim(),
		Latency: e.querySelector('[data-testid="exchange-latency"]').textContent.trim(),
		Frames: Array.from(e.querySelectorAll('[data-testid="frame"]'), f => f.dataset.direction + " " + f.dataset.rpcType + " " + f.dataset.method),
		Replay: !!e.querySelector('[data-testid="exchange-replay"]'),
		Edit: !!e.querySelector('[data-testid="exchange-edit"]'),
	}))`)
	want := map[string][2]string{"echo": {"ok", "OK"}, "fail": {"tool-error", "isError"}, "protocol_error": {"rpc-error", "error "}}
	for _, e := range entries {
		w, ok := want[e.Item]
		if !ok {
			continue
		}
		delete(want, e.Item)
		if e.Status != w[0] || !strings.HasPrefix(e.Badge, w[1]) || e.Latency == "" || !e.Replay || !e.Edit {
			t.Errorf("the %s entry: %+v, want status %s, badge %q, a latency, Replay and Edit and replay", e.Item, e, w[0], w[1])
		}
		if want := []string{"out request tools/call", "in " + map[bool]string{true: "error", false: "result"}[e.Item == "protocol_error"] + " tools/call"}; fmt.Sprint(e.Frames) != fmt.Sprint(want) {
			t.Errorf("the %s entry holds the frames %q, want %q", e.Item, e.Frames, want)
		}
	}
	if len(want) > 0 {
		t.Fatalf("no entry for %v among %+v", want, entries)
	}
	if n := e2eEval[int](p, "count the rows of tools/call", "", `document.querySelectorAll('#frames > [data-testid="frame"][data-method="tools/call"]').length`); n != 0 {
		t.Errorf("%d tools/call frames are rows of their own, want every one in its entry", n)
	}
	p.checkFrameOrder(p.frames())

	echo := `#frames [data-testid="exchange"]:has([data-testid="exchange-item"])`
	echoID := e2eEval[string](p, "find the echo entry", "", `Array.from(document.querySelectorAll('`+echo+`')).find(e => e.querySelector('[data-testid="exchange-item"]').textContent.trim() === "echo").id`)
	entrySel := "#" + echoID
	p.do("open the echo entry", entrySel, chromedp.Click(chromedp.CSS(entrySel+" > summary")))
	if body := p.text(entrySel + ` [data-testid="exchange-response"]`); !strings.Contains(body, "first words") {
		t.Errorf("the opened entry's response says %q, want the echo", body)
	}
	// The bodies, once in sight, come back highlighted, and each object
	// folds to its first line.
	e2eEval[bool](p, "scroll to the response", entrySel, `(document.querySelector('`+entrySel+` [data-testid="exchange-response"]').scrollIntoView({block: "end"}), true)`)
	p.waitJS("wait for the highlighted bodies", entrySel, `document.querySelectorAll('`+entrySel+` [data-testid="frame"] .json-view').length === 2`)
	params := entrySel + ` [data-testid="exchange-request"] .json-view > details > .jv-children > details`
	if k := p.text(params + ` > summary .jv-key`); k != `"params"` {
		t.Fatalf("the request's first folding member is %s, want \"params\"", k)
	}
	if s := p.text(entrySel + ` [data-testid="exchange-response"] .jv-str`); s != `"2.0"` {
		t.Errorf("the response's first string reads %s, want \"2.0\"", s)
	}
	p.do("fold the params", params, chromedp.Click(chromedp.CSS(params+" > summary")))
	if folded := e2eEval[string](p, "read the folded params", params, `(() => {
		const d = document.querySelector('`+params+`');
		return d.open ? "(open)" : d.querySelector("summary").innerText;
	})()`); folded != `"params": { 2 keys }` {
		t.Errorf("the folded params read %q", folded)
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "traffic-exchange-folded", entrySel)
	}
	p.do("unfold the params", params, chromedp.Click(chromedp.CSS(params+" > summary")))
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "traffic-exchange", entrySel)
	}

	// Replay: a new exchange, recorded, that joins the panel as an entry.
	p.do("click Replay", entrySel, chromedp.Click(chromedp.CSS(entrySel+` [data-testid="exchange-replay"]`)))
	p.waitJS("wait for the replay's verdict", entrySel, `!!document.querySelector('`+entrySel+` [data-testid="exchange-result"] [data-testid="run-result"]')`)
	if got := e2eEchoCalls(t, srv, sessionID); fmt.Sprint(got) != "[first words first words]" {
		t.Errorf("after Replay the session recorded the echo calls %q, want the first one twice", got)
	}
	if o := p.text(entrySel + ` [data-testid="run-result"] .badge`); o != "pass" {
		t.Errorf("the replay's verdict is %q, want pass (the same answer)", o)
	}
	p.waitJS("wait for the replayed exchange in the panel", "#frames", `Array.from(document.querySelectorAll('`+echo+`')).filter(e =>
		e.querySelector('[data-testid="exchange-item"]').textContent.trim() === "echo" && e.dataset.status === "ok").length === 2`)

	// Edit and replay: what is not a JSON-RPC request stays at the editor.
	p.do("click Edit and replay", entrySel, chromedp.Click(chromedp.CSS(entrySel+` [data-testid="exchange-edit"]`)))
	editor := entrySel + ` [data-testid="edit-request"]`
	p.do("wait for the editor", entrySel, chromedp.WaitVisible(chromedp.CSS(editor)))
	var sent map[string]any
	if err := json.Unmarshal([]byte(p.value(editor)), &sent); err != nil || sent["method"] != "tools/call" {
		t.Fatalf("the editor holds %q (%v), want the request", p.value(editor), err)
	}
	p.setValue(editor, `{"jsonrpc": "2.0", "id": 9, "params": {}}`)
	p.do("send a request without a method", entrySel, chromedp.Click(chromedp.CSS(entrySel+` [data-testid="edit-request-send"]`)))
	p.waitJS("wait for the editor's error", entrySel, `!!document.querySelector('`+entrySel+` [data-testid="edit-request-error"]')`)
	if msg := p.text(entrySel + ` [data-testid="edit-request-error"]`); !strings.Contains(msg, `"method"`) {
		t.Errorf("the editor says %q, want that the method is missing", msg)
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "traffic-edit-error", entrySel+` [data-testid="edit-request-form"]`)
	}
	sent["params"].(map[string]any)["arguments"] = map[string]any{"message": "edited words"}
	edited, _ := json.MarshalIndent(sent, "", "  ")
	p.setValue(editor, string(edited))
	p.do("send the edited request", entrySel, chromedp.Click(chromedp.CSS(entrySel+` [data-testid="edit-request-send"]`)))
	p.waitJS("wait for the edited request's answer", entrySel, `(() => {
		const o = document.querySelector('`+entrySel+` [data-testid="exchange-result"] [data-testid="outcome"]');
		return !!o && o.textContent.includes("edited words");
	})()`)
	if got := e2eEchoCalls(t, srv, sessionID); fmt.Sprint(got) != "[first words first words edited words]" {
		t.Errorf("after Edit and replay the session recorded the echo calls %q, want the edited one last", got)
	}
	p.waitJS("wait for the edited exchange in the panel", "#frames", `Array.from(document.querySelectorAll('`+echo+`')).some(e =>
		e.dataset.status === "ok" && e.querySelector('[data-testid="exchange-response"]').textContent.includes("edited words"))`)
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "traffic-edit-sent", entrySel+` [data-testid="exchange-result"]`)
	}
	p.checkFrameOrder(p.frames())
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
