package main

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

const (
	// e2eBrowserTimeout bounds the whole browser session of a test.
	e2eBrowserTimeout = 90 * time.Second
	// e2eStepTimeout bounds one step (a wait, a click), so that a stuck step
	// fails with a dump of the page while the browser still answers.
	e2eStepTimeout = 30 * time.Second
)

// TestBrowserDashboard drives the dashboard in headless Chromium against the
// bundled demo server: connect, call tools through the generated forms,
// answer the server's elicitation and sampling requests as they arrive,
// watch the traffic arrive live over the WebSocket, and find the session's
// frames again after leaving the page. No page it opens (those, the
// new-server form and an error page) may violate the Content-Security-Policy
// or log another console error. It needs PLAYGROUND_CHROMIUM (see
// e2eChromium). When PLAYGROUND_SCREENSHOT_DIR is set, screenshots of the
// server page after the greet call go there (server-page.png, the viewport at
// the greet card, and server-page-full.png, the whole page).
func TestBrowserDashboard(t *testing.T) {
	srv, p := e2eBrowse(t)
	started := time.Now()
	step := func(name string) {
		t.Logf("%6.2fs  %s", time.Since(started).Seconds(), name)
	}

	// Dashboard → demo server → Connect.
	step("open the dashboard")
	demoHref := p.openDemoServerLink(srv.URL)
	step("open the demo server")
	p.do("click the demo server's link", `[data-testid="server-list"]`,
		chromedp.Click(chromedp.CSS(`[data-testid="server-row"] a[href="`+demoHref+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)))
	step("connect")
	p.do("click Connect and wait for the session", "main",
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="session-status"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	if loc := e2eEval[string](p, "read the location", "", `location.pathname`); loc != demoHref {
		t.Fatalf("after Connect the browser is at %s, want the server page %s", loc, demoHref)
	}
	sessionID := strings.TrimPrefix(e2eEval[string](p, "find the session link", `[data-testid="connection"]`,
		`(() => {
			const a = document.querySelector('[data-testid="connection"] a[href^="/sessions/"]');
			return a ? a.getAttribute("href") : "";
		})()`), "/sessions/")
	if _, err := strconv.ParseInt(sessionID, 10, 64); err != nil {
		t.Fatalf("the connection card links to no /sessions/ID (got %q)\n%s", sessionID, p.dump(`[data-testid="connection"]`))
	}
	if status := p.text(`[data-testid="session-status"]`); !strings.Contains(status, "open") {
		t.Errorf("session status = %q, want it to say open", status)
	}
	p.waitLive()
	p.openTool("greet")
	tools := e2eEval[[]string](p, "list the tools", `[data-testid="item-list"]`,
		`Array.from(document.querySelectorAll('[data-testid="item-link"]'), e => e.dataset.item)`)
	for _, want := range []string{"echo", "add", "greet", "create_user", "tiny_image", "fail"} {
		if !slices.Contains(tools, want) {
			t.Errorf("the tools section lists no %q; it lists %q", want, tools)
		}
	}
	// A navigation would drop this marker: the live frames must arrive
	// without one.
	e2eEval[bool](p, "mark the page", "", `window.e2eSamePage = true`)
	if dups := e2eEval[[]string](p, "look for duplicate ids", "", e2eDuplicateIDsJS); len(dups) > 0 {
		t.Errorf("the server page has duplicate element ids %q; ids must be unique across tool cards", dups)
	}
	// Each field's label must lead to the field in its own card, also when
	// another card has a field of the same name (greet and create_user both
	// have "name"; echo and log both have "message").
	if wrong := e2eEval[[]string](p, "check the labels", "", e2eStrayLabelsJS); len(wrong) > 0 {
		t.Errorf("labels that lead to a field of another tool card:\n  %s", strings.Join(wrong, "\n  "))
	}

	// greet with typed arguments.
	step("call greet with typed arguments")
	greet := e2eCard("greet")
	p.typeInto(greet+` [name="arg.name"]`, "Ada")
	p.typeInto(greet+` [name="arg.times"]`, "2")
	p.do("check shout", greet, chromedp.Click(chromedp.CSS(greet+` input[type=checkbox][name="arg.shout"]`)))
	p.choose(greet+` select[name="arg.language"]`, "fr")
	p.submitTool("greet")
	p.wantOutcome("greet", "result")
	const wantGreeting = "BONJOUR, ADA!\nBONJOUR, ADA!" // times 2, shout, fr
	if got := p.text(greet + ` [data-testid="content-text"]`); got != wantGreeting {
		t.Errorf("greet result text = %q, want %q\n%s", got, wantGreeting, p.dump(greet))
	}
	// The latency's unit must reach the reader as written: "µs" shown in
	// capitals reads as "MS", a thousand times slower.
	lat := e2eEval[[]string](p, "read greet's latency", greet, `(() => {
		const e = document.querySelector(`+e2eJS(greet+` [data-testid="outcome"] h4 .muted`)+`);
		return e ? [e.textContent.trim(), e.innerText.trim()] : ["", ""];
	})()`)
	if lat[0] == "" {
		t.Errorf("greet's outcome shows no latency\n%s", p.dump(greet))
	} else if lat[0] != lat[1] {
		t.Errorf("greet's latency %q is rendered as %q: CSS changes the case of its unit", lat[0], lat[1])
	}
	var greetReq e2eRPC
	frames := p.waitFrames("the greet request and its response in the live panel", func(frames []e2eDOMFrame) (bool, string) {
		req, ok := e2eFindToolCall(frames, "greet", "Ada")
		if !ok {
			return false, "no out/request tools/call frame for greet with name Ada"
		}
		greetReq = req
		if _, ok := e2eFindResponse(frames, req.ID); !ok {
			return false, "no in/result tools/call frame with id " + string(req.ID)
		}
		return true, ""
	})
	if !e2eEval[bool](p, "check the marker", "", `window.e2eSamePage === true`) {
		t.Errorf("the page was reloaded while the greet frames arrived; they must arrive over the WebSocket")
	}
	args := greetReq.Params.Arguments
	if v, ok := args["times"].(float64); !ok || v != 2 {
		t.Errorf(`greet request arguments.times = %#v (%T), want the JSON number 2; arguments: %v`, args["times"], args["times"], args)
	}
	if v, ok := args["shout"].(bool); !ok || !v {
		t.Errorf(`greet request arguments.shout = %#v (%T), want the JSON boolean true; arguments: %v`, args["shout"], args["shout"], args)
	}
	if v, ok := args["language"].(string); !ok || v != "fr" {
		t.Errorf(`greet request arguments.language = %#v (%T), want the JSON string "fr"; arguments: %v`, args["language"], args["language"], args)
	}
	if v, ok := args["name"].(string); !ok || v != "Ada" {
		t.Errorf(`greet request arguments.name = %#v, want "Ada"`, args["name"])
	}
	resp, _ := e2eFindResponse(frames, greetReq.ID)
	if !strings.Contains(resp.Body, "BONJOUR, ADA!") {
		t.Errorf("the greet response frame does not hold the greeting:\n%s", resp.Body)
	}
	p.checkFrameOrder(frames)

	// Screenshot of the connected page after the greet call.
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		step("screenshot")
		p.screenshot(dir, "server-page", greet)
	}

	// A required field left empty: a field error, and nothing sent.
	step("call greet without the required name")
	before := e2eCountFrames(srv.apiFrames(t, sessionID), "out", "request", "tools/call")
	if before != 1 {
		t.Errorf("the API lists %d tools/call requests after the greet call, want 1", before)
	}
	p.setValue(greet+` [name="arg.name"]`, "")
	p.submitTool("greet")
	p.do("wait for greet's name error", greet, chromedp.WaitVisible(chromedp.CSS(greet+` [data-testid="error-name"]`)))
	if msg := p.text(greet + ` [data-testid="error-name"]`); strings.TrimSpace(msg) == "" {
		t.Errorf("greet's name error is empty\n%s", p.dump(greet))
	}
	if got := p.outcome("greet"); got != "" {
		t.Errorf("greet with an empty name shows an outcome %q; an invalid form must not be sent\n%s", got, p.dump(greet))
	}
	if after := e2eCountFrames(srv.apiFrames(t, sessionID), "out", "request", "tools/call"); after != before {
		t.Errorf("submitting greet with an empty name recorded %d tools/call requests, want none", after-before)
	}

	// A tool error, invalid raw JSON, an image.
	step("call fail")
	p.openTool("fail")
	failCard := e2eCard("fail")
	const reason = "deliberate failure from the browser test"
	p.typeInto(failCard+` [name="arg.reason"]`, reason)
	p.submitTool("fail")
	p.wantOutcome("fail", "tool-error")
	if got := p.text(failCard + ` [data-testid="content-text"]`); got != reason {
		t.Errorf("fail result text = %q, want %q", got, reason)
	}

	step("call echo with invalid raw JSON")
	p.openTool("echo")
	echoCard := e2eCard("echo")
	p.typeInto(echoCard+` [name="arg.message"]`, "hello")
	p.typeInto(echoCard+` [data-testid="raw-args"]`, `{"message": "hi",`)
	p.submitTool("echo")
	p.do("wait for echo's raw JSON error", echoCard, chromedp.WaitVisible(chromedp.CSS(echoCard+` [data-testid="error-_raw"]`)))
	if got := p.outcome("echo"); got != "" {
		t.Errorf("echo with invalid raw JSON shows an outcome %q; an invalid form must not be sent\n%s", got, p.dump(echoCard))
	}
	if got := p.value(echoCard + ` [data-testid="raw-args"]`); got != `{"message": "hi",` {
		t.Errorf("the raw box lost what was typed: %q", got)
	}

	step("call tiny_image")
	p.openTool("tiny_image")
	imageCard := e2eCard("tiny_image")
	p.submitTool("tiny_image")
	p.wantOutcome("tiny_image", "result")
	img := imageCard + ` img[data-testid="content-image"]`
	p.do("wait for the image", imageCard, chromedp.WaitVisible(chromedp.CSS(img)))
	p.waitJS("wait for the image to decode", imageCard,
		`(() => { const i = document.querySelector(`+e2eJS(img)+`); return !!i && i.complete && i.naturalWidth > 0; })()`)
	size := e2eEval[[]int](p, "read the image size", imageCard,
		`(() => { const i = document.querySelector(`+e2eJS(img)+`); return [i.naturalWidth, i.naturalHeight]; })()`)
	t.Logf("tiny_image rendered at %dx%d", size[0], size[1])
	if src := e2eEval[string](p, "read the image src", imageCard, `document.querySelector(`+e2eJS(img)+`).getAttribute("src")`); !strings.HasPrefix(src, "data:image/png;base64,") {
		t.Errorf("image src = %.60q…, want a data:image/png;base64 URL", src)
	}

	step("call protocol_error")
	p.openTool("protocol_error")
	rpcCard := e2eCard("protocol_error")
	p.submitTool("protocol_error")
	p.wantOutcome("protocol_error", "rpc-error")
	if got := p.text(rpcCard + ` [data-testid="rpc-error-message"]`); got != "the protocol_error tool answers with a JSON-RPC error" {
		t.Errorf("JSON-RPC error message = %q", got)
	}

	// Elicitation: ask_name's call waits while the server asks for a name;
	// the question appears live in the inputs panel and is answered there.
	step("call ask_name and answer its elicitation")
	p.openTool("ask_name")
	askCard := e2eCard("ask_name")
	p.startTool("ask_name")
	input := p.waitInput("elicit-form", "")
	firstAsk := strings.TrimPrefix(input, "#")
	if !e2eEval[bool](p, "check the marker", "", `window.e2eSamePage === true`) {
		t.Errorf("the page was reloaded to show the elicitation; it must arrive over the WebSocket")
	}
	if got := p.text(input + ` [data-testid="input-message"]`); !strings.Contains(got, "What is your name?") {
		t.Errorf("the elicitation card shows the message %q, want the server's %q\n%s", got, "What is your name?", p.dump(input))
	}
	if dups := e2eEval[[]string](p, "look for duplicate ids", "", e2eDuplicateIDsJS); len(dups) > 0 {
		t.Errorf("with an input card shown, the server page has duplicate element ids %q", dups)
	}
	p.typeInto(input+` [name="arg.name"]`, "Ada")
	p.do("check formal", input, chromedp.Click(chromedp.CSS(input+` input[type=checkbox][name="arg.formal"]`)))
	p.accept("Accept", input)
	p.awaitTool("ask_name")
	p.wantOutcome("ask_name", "result")
	if got := p.text(askCard + ` [data-testid="content-text"]`); got != "Good day, Ada." {
		t.Errorf("ask_name result text = %q, want %q\n%s", got, "Good day, Ada.", p.dump(askCard))
	}
	p.waitJS("wait for the answered card to leave the inputs panel", `[data-testid="inputs"]`,
		`!document.querySelector('[data-testid="inputs"] [data-testid="input-request"]')`)
	frames = p.waitFrames("the elicitation/create request and our answer in the live panel", func(frames []e2eDOMFrame) (bool, string) {
		in, out := e2eCountMethod(frames, "in", "request", "elicitation/create"), e2eCountMethod(frames, "out", "result", "elicitation/create")
		return in == 1 && out == 1, fmt.Sprintf("%d in/request and %d out/result elicitation/create frames, want 1 and 1", in, out)
	})
	for _, f := range frames {
		if f.Direction != "out" || f.Method != "elicitation/create" {
			continue
		}
		var answer struct {
			Result struct {
				Action  string         `json:"action"`
				Content map[string]any `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(f.Body), &answer); err != nil {
			t.Errorf("our elicitation answer is not JSON: %v\n%s", err, f.Body)
		} else if a := answer.Result; a.Action != "accept" || a.Content["name"] != "Ada" || a.Content["formal"] != true {
			t.Errorf(`our elicitation answer = %+v, want action accept with content name "Ada" and formal the JSON boolean true`, a)
		}
	}

	// Sampling: summarize's call waits for the "model", played by the user.
	step("call summarize and answer its sampling request")
	p.openTool("summarize")
	sumCard := e2eCard("summarize")
	p.typeInto(sumCard+` [name="arg.text"]`, "hello world")
	p.startTool("summarize")
	input = p.waitInput("sample", "")
	if got := p.text(input + ` [data-testid="sample-text"]`); !strings.Contains(got, "hello world") {
		t.Errorf("the sampling card shows the message %q, want it to quote %q\n%s", got, "hello world", p.dump(input))
	}
	p.typeInto(input+` textarea[name="reply"]`, "short")
	p.accept("Send reply", input)
	p.awaitTool("summarize")
	p.wantOutcome("summarize", "result")
	if got := p.text(sumCard + ` [data-testid="content-text"]`); !strings.HasPrefix(got, "Summary from ") || !strings.Contains(got, "short") {
		t.Errorf("summarize result text = %q, want %q with the reply typed, %q\n%s", got, "Summary from MODEL: short", "short", p.dump(sumCard))
	}

	// Declining: ask_name goes on without a name.
	step("call ask_name and decline")
	p.openTool("ask_name")
	p.startTool("ask_name")
	input = p.waitInput("elicit-form", firstAsk)
	p.do("click Decline", input, chromedp.Click(chromedp.CSS(input+` [data-testid="input-decline"]`)))
	p.awaitTool("ask_name")
	p.wantOutcome("ask_name", "result")
	if got := p.text(askCard + ` [data-testid="content-text"]`); !strings.Contains(got, "decline") {
		t.Errorf("ask_name result text after Decline = %q, want it to say decline\n%s", got, p.dump(askCard))
	}

	// Exactly the seven valid calls reached the server: the empty name and
	// the invalid JSON sent nothing. Each elicitation and sampling request
	// came in once and was answered once. The recorder commits in order, so
	// once the last response is in the live panel the earlier frames are
	// stored too.
	frames = p.waitFrames("seven tools/call requests, their responses and the server's requests in the live panel", func(frames []e2eDOMFrame) (bool, string) {
		req, res, rpcErr := e2eCountDOM(frames, "out", "request"), e2eCountDOM(frames, "in", "result"), e2eCountDOM(frames, "in", "error")
		if req != 7 || res != 6 || rpcErr != 1 {
			return false, fmt.Sprintf("%d tools/call requests, %d results and %d errors, want 7, 6 and 1", req, res, rpcErr)
		}
		for _, m := range []struct {
			method string
			want   int
		}{{"elicitation/create", 2}, {"sampling/createMessage", 1}} {
			in, out := e2eCountMethod(frames, "in", "request", m.method), e2eCountMethod(frames, "out", "result", m.method)
			if in != m.want || out != m.want {
				return false, fmt.Sprintf("%d in/request and %d out/result %s frames, want %d of each", in, out, m.method, m.want)
			}
		}
		return true, ""
	})
	p.checkFrameOrder(frames)
	apiFrames := srv.apiFrames(t, sessionID)
	if n := e2eCountFrames(apiFrames, "out", "request", "tools/call"); n != 7 {
		t.Errorf("the API lists %d tools/call requests, want 7 (greet, fail, tiny_image, protocol_error, ask_name twice, summarize)", n)
	}
	if n := e2eCountFrames(apiFrames, "in", "error", "tools/call"); n != 1 {
		t.Errorf("the API lists %d tools/call error responses, want 1", n)
	}
	if n := e2eCountFrames(apiFrames, "in", "result", "tools/call"); n != 6 {
		t.Errorf("the API lists %d tools/call results, want 6", n)
	}
	for _, m := range []struct {
		method string
		want   int
	}{{"elicitation/create", 2}, {"sampling/createMessage", 1}} {
		if in, out := e2eCountFrames(apiFrames, "in", "request", m.method), e2eCountFrames(apiFrames, "out", "result", m.method); in != m.want || out != m.want {
			t.Errorf("the API lists %d in/request and %d out/result %s frames, want %d of each", in, out, m.method, m.want)
		}
	}

	// Leave the page; the session's stored frames are on its own page.
	step("open the session from /sessions")
	p.do("open the sessions list", "main",
		chromedp.Click(chromedp.CSS(`header a[href="/sessions"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="session-row"]`)))
	sessionLink := `[data-testid="session-row"] a[href="/sessions/` + sessionID + `"]`
	p.do("open session "+sessionID, `[data-testid="session-list"]`,
		chromedp.Click(chromedp.CSS(sessionLink)),
		chromedp.WaitVisible(chromedp.CSS(`#frames [data-testid="frame"]`)))
	if loc := e2eEval[string](p, "read the location", "", `location.pathname`); loc != "/sessions/"+sessionID {
		t.Fatalf("the browser is at %s, want /sessions/%s", loc, sessionID)
	}
	stored := p.frames()
	if req, res, rpcErr := e2eCountDOM(stored, "out", "request"), e2eCountDOM(stored, "in", "result"), e2eCountDOM(stored, "in", "error"); req != 7 || res != 6 || rpcErr != 1 {
		t.Errorf("the session page shows %d tools/call requests, %d results and %d errors, want 7, 6 and 1\n%s", req, res, rpcErr, e2eSummary(stored))
	}
	if req, ok := e2eFindToolCall(stored, "greet", "Ada"); !ok {
		t.Errorf("the session page does not show the greet request\n%s", e2eSummary(stored))
	} else if _, ok := e2eFindResponse(stored, req.ID); !ok {
		t.Errorf("the session page does not show the greet response\n%s", e2eSummary(stored))
	}
	shown := map[string]bool{}
	for _, f := range stored {
		shown[f.DOMID] = true
	}
	for _, f := range apiFrames {
		if !shown["frame-"+strconv.FormatInt(f.ID, 10)] {
			t.Errorf("the session page lacks stored frame %d (%s %s %s)", f.ID, f.Direction, f.RPCType, f.Method)
		}
	}
	p.checkFrameOrder(stored)

	// The remaining pages, for the console check below: each runs under the
	// Content-Security-Policy without a violation.
	step("open the new-server form")
	form := e2eNavigate(p, "open the new-server form", srv.URL+"/servers/new", `[data-testid="server-form"]`)
	if csp := e2eHeader(form, "Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("the new-server form's Content-Security-Policy is %q, want one with frame-ancestors 'none' and script-src 'self'", csp)
	}
	step("open a page that does not exist")
	missing := srv.URL + "/servers/999999"
	if resp := e2eNavigate(p, "open a missing server", missing, `[data-testid="page-error"]`); resp.Status != 404 {
		t.Errorf("a missing server's page answered %d, want 404", resp.Status)
	}
	p.forgetConsole(missing) // the browser reports the 404
	step("done")

	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// TestBrowserInputsKeepWhatIsTyped answers one of the demo server's
// questions while another arrives: the new card must not wipe what the user
// has typed into the first. It needs PLAYGROUND_CHROMIUM.
func TestBrowserInputsKeepWhatIsTyped(t *testing.T) {
	srv, p := e2eBrowse(t)

	p.connectDemoServer(srv.URL)

	p.openTool("ask_name")
	p.startTool("ask_name")
	ask := p.waitInput("elicit-form", "")
	p.typeInto(ask+` [name="arg.name"]`, "Ada")
	p.do("check formal", ask, chromedp.Click(chromedp.CSS(ask+` input[type=checkbox][name="arg.formal"]`)))

	// A second question arrives while the first is being filled in, from
	// another tool's card (the first card back on the page for that).
	p.later()
	p.openTool("summarize")
	p.typeInto(e2eCard("summarize")+` [name="arg.text"]`, "hello world")
	p.startTool("summarize")
	sample := p.waitInput("sample", "")
	name := e2eEval[string](p, "read the name typed", ask, `(() => { const e = document.querySelector(`+e2eJS(ask+` [name="arg.name"]`)+`); return e ? e.value : "(no field)"; })()`)
	formal := e2eEval[string](p, "read the formal choice", ask, `(() => { const e = document.querySelector(`+e2eJS(ask+` input[type=checkbox][name="arg.formal"]`)+`); return e ? String(e.checked) : "(no field)"; })()`)
	if name != "Ada" || formal != "true" {
		t.Errorf("when a second request arrived, the first card's fields went from name %q, formal %q to %q, %q: "+
			"the live stream replaces the whole inputs panel (views.InputsPanel with hx-swap-oob=true, values empty) "+
			"and wipes what the user typed; swap only the cards that came or went", "Ada", "true", name, formal)
	}

	// Answer both, so that the calls end before the playground stops.
	p.typeInto(sample+` textarea[name="reply"]`, "short")
	p.accept("Send reply", sample)
	p.awaitTool("summarize")
	p.do("click Decline", ask, chromedp.Click(chromedp.CSS(ask+` [data-testid="input-decline"]`)))
	p.waitJS("wait for the answered requests to leave the inputs panel", `[data-testid="inputs"]`,
		`!document.querySelector('[data-testid="inputs"] [data-testid="input-request"]')`)
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// e2eCard is the CSS selector of a tool's card.
func e2eCard(tool string) string {
	return `[data-testid="tool"][data-tool="` + tool + `"]`
}

// e2eJS quotes s as a JavaScript string literal.
func e2eJS(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // a string always marshals
	}
	return string(b)
}

const e2eDuplicateIDsJS = `(() => {
	const seen = new Set(), dups = new Set();
	document.querySelectorAll("[id]").forEach(e => { if (seen.has(e.id)) dups.add(e.id); seen.add(e.id); });
	return Array.from(dups);
})()`

// e2eStrayLabelsJS lists the labels of tool forms whose control (the
// element their for= names, as the browser resolves it) is missing or in
// another tool's card.
const e2eStrayLabelsJS = `(() => {
	const wrong = [];
	document.querySelectorAll('[data-testid="tool"] label[for]').forEach(l => {
		const card = l.closest('[data-testid="tool"]'), c = l.control;
		const other = c && c.closest('[data-testid="tool"]');
		if (other !== card) {
			wrong.push(card.dataset.tool + ": the label for=" + JSON.stringify(l.htmlFor) + " leads to " +
				(other ? "the " + other.dataset.tool + " card" : c ? "a control outside the tool cards" : "no control"));
		}
	});
	return wrong;
})()`

// e2ePage is one browser tab on the dashboard.
type e2ePage struct {
	t   *testing.T
	ctx context.Context // the tab's chromedp context
	// opened is whether a step has run: until then the tab is a blank
	// page without a document to wait for.
	opened bool

	mu      sync.Mutex
	console []string // console errors and uncaught exceptions
}

// e2eBrowse starts the built playground on a fresh database and a
// browser page for it, both stopped when the test ends.
func e2eBrowse(t *testing.T) (*e2eServer, *e2ePage) {
	t.Helper()
	chromium := e2eChromium(t)
	srv := e2eServe(t, e2eBuildPlayground(t))
	ctx, cancel := context.WithTimeout(context.Background(), e2eBrowserTimeout)
	t.Cleanup(cancel) // runs after the browser's cleanup
	p := e2eOpenBrowser(t, ctx, chromium)
	p.signIn(srv)
	return srv, p
}

// e2eOpenBrowser starts Chromium with a fresh profile and opens a tab. The
// browser closes at cleanup; its output goes to the test log on failure.
func e2eOpenBrowser(t *testing.T, parent context.Context, chromium string) *e2ePage {
	t.Helper()
	profile := filepath.Join(t.TempDir(), "profile")
	output, logs := &e2eLog{}, &e2eLog{}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(parent,
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-breakpad", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.WindowSize(1280, 1024),
		chromedp.UserDataDir(profile),
		chromedp.CombinedOutput(output),
	)
	logf := func(format string, args ...any) { fmt.Fprintf(logs, format+"\n", args...) }
	tabCtx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithLogf(logf), chromedp.WithErrorf(logf))
	p := &e2ePage{t: t, ctx: tabCtx}
	consoleDone := make(chan struct{})
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(tabCtx, 10*time.Second)
		if err := chromedp.Cancel(cctx); err != nil {
			t.Logf("closing Chromium: %v", err)
		}
		cancel()
		cancelTab()
		cancelAlloc() // waits for the browser process to exit
		<-consoleDone
		if err := e2eRemoveAllRetry(profile); err != nil {
			t.Logf("removing the Chromium profile: %v", err)
		}
		if t.Failed() {
			t.Logf("Chromium output:\n%s\nchromedp log:\n%s", output.String(), logs.String())
		}
	})

	// The first Run starts the browser, which lives as long as tabCtx: no
	// step timeout on this one.
	if err := chromedp.Do(tabCtx); err != nil {
		close(consoleDone)
		t.Fatalf("starting %s: %v\n%s", chromium, err, output.String())
	}
	messages := chromedp.Console(tabCtx)
	// Each document reports the Content-Security-Policy violations in it as
	// console errors, so that a test that checks the console fails on one.
	// (Scripts added through DevTools run whatever the page's policy says.)
	if _, err := chromedp.Call(tabCtx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: e2eReportCSPViolationsJS}); err != nil {
		t.Fatalf("adding the CSP violation listener: %v", err)
	}
	go func() {
		defer close(consoleDone)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type != chromedp.ConsoleError && !m.IsException() {
				continue
			}
			if strings.HasSuffix(m.URL, "/favicon.ico") { // the dashboard has none
				continue
			}
			p.mu.Lock()
			p.console = append(p.console, m.String()+" ("+m.URL+")")
			p.mu.Unlock()
		}
	}()
	return p
}

// e2eReportCSPViolationsJS logs each Content-Security-Policy violation of
// the document as a console error.
const e2eReportCSPViolationsJS = `document.addEventListener("securitypolicyviolation", e => console.error(
	"Content-Security-Policy violation on " + location.href + ": " + e.effectiveDirective + " refused " +
	(e.blockedURI || "?") + " at " + (e.sourceFile || "?") + ":" + e.lineNumber + " " + JSON.stringify(e.sample)));`

// consoleErrors returns the console errors and uncaught exceptions so far.
func (p *e2ePage) consoleErrors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.console)
}

// forgetConsole drops the console errors so far that came from url, such
// as the browser's report of a page's expected error status.
func (p *e2ePage) forgetConsole(url string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.console = slices.DeleteFunc(p.console, func(m string) bool { return strings.HasSuffix(m, " ("+url+")") })
}

// do runs the steps within e2eStepTimeout, and fails the test with the
// outer HTML of dumpSel when one fails. The steps start once the page has
// finished loading: a page reached by a click shows (and satisfies a
// WaitVisible) before its styles have settled and before the browser
// renumbers its nodes, and a click in between lands where the element no
// longer is or on a node that is gone. A step that still found a renumbered
// node ("Could not find node with given id") did nothing and is run again.
func (p *e2ePage) do(what, dumpSel string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, e2eStepTimeout)
	defer cancel()
	if p.opened {
		steps = append([]chromedp.Action[chromedp.Void]{e2ePageComplete}, steps...)
	}
	p.opened = true
	err := chromedp.Do(ctx, steps...)
	for tries := 1; err != nil && e2eNavigatedAway(err) && ctx.Err() == nil && tries < 5; tries++ {
		err = chromedp.Do(ctx, steps...)
	}
	if err != nil {
		p.t.Fatalf("%s: %v\n%s", what, err, p.dump(dumpSel))
	}
}

// e2eNavigatedAway reports whether err is Chromium's answer to a step that
// raced a page load or a swap: the node or the script context it used went
// with the old page, so the steps are to be tried again.
func e2eNavigatedAway(err error) bool {
	for _, msg := range []string{"Could not find node with given id", "Cannot find context with specified id", "Execution context was destroyed"} {
		if strings.Contains(err.Error(), msg) {
			return true
		}
	}
	return false
}

// e2ePageComplete waits until the page has finished loading and htmx has
// settled what it swapped in: htmx wires up new content (a form's hx-post)
// only when it settles, some 20 ms after it shows, so a click on a
// freshly swapped form before then submits it as a plain form.
var e2ePageComplete = chromedp.Poll[chromedp.Void](`document.readyState === "complete" && (typeof htmx === "undefined" || (
	!document.querySelector(".htmx-swapping, .htmx-settling") &&
	Array.from(document.querySelectorAll("[hx-get], [hx-post], [hx-put], [hx-patch], [hx-delete]")).every(e => e["htmx-internal-data"])))`,
	chromedp.WithPollingInterval(20*time.Millisecond))

// e2eEval evaluates a JavaScript expression in the page.
func e2eEval[T any](p *e2ePage, what, dumpSel, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, e2eStepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		p.t.Fatalf("%s: %v\n%s", what, err, p.dump(dumpSel))
	}
	return v
}

// openDemoServerLink opens the dashboard at base and returns the href of
// the server list's link to "Demo server", which must be a /servers/ID link.
func (p *e2ePage) openDemoServerLink(base string) string {
	p.t.Helper()
	p.do("open "+base+"/", "main", chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="server-row"]`)))
	demoHref := e2eEval[string](p, "find the demo server's link", `[data-testid="server-list"]`,
		`(() => {
			const a = Array.from(document.querySelectorAll('[data-testid="server-row"] a'))
				.find(a => a.textContent.trim() === "Demo server");
			return a ? a.getAttribute("href") : "";
		})()`)
	if !strings.HasPrefix(demoHref, "/servers/") {
		p.t.Fatalf("no server row links to %q with a /servers/ID link (got %q)\n%s", "Demo server", demoHref, p.dump(`[data-testid="server-list"]`))
	}
	return demoHref
}

// e2eNavigate opens url, waits until an element matching sel is visible,
// and returns the page's HTTP response.
func e2eNavigate(p *e2ePage, what, url, sel string) *network.Response {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, e2eStepTimeout)
	defer cancel()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(url))
	if err == nil {
		err = chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(sel)))
	}
	if err != nil {
		p.t.Fatalf("%s: %v\n%s", what, err, p.dump(sel))
	}
	return resp
}

// follow clicks the link or submit button sel and waits until the page it
// leads to has loaded; a page that answers with an error status fails the
// test. Waiting for an element of the new page instead can be satisfied by
// the old one.
func (p *e2ePage) follow(what, sel string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, e2eStepTimeout)
	defer cancel()
	resp, err := chromedp.RunResponse(ctx, e2ePageComplete, chromedp.Click(chromedp.CSS(sel)))
	if err == nil && resp.Status >= 400 {
		err = fmt.Errorf("%s answered %d %s", resp.URL, resp.Status, resp.StatusText)
	}
	if err != nil {
		p.t.Fatalf("%s: %v\n%s", what, err, p.dump("main"))
	}
}

// e2eHeader returns a response header's value, "" when there is none.
func e2eHeader(resp *network.Response, name string) string {
	for k, v := range resp.Headers {
		if s, ok := v.(string); ok && strings.EqualFold(k, name) {
			return s
		}
	}
	return ""
}

// connectDemoServer opens the demo server's page, connects it, and waits
// until its traffic panel streams live.
func (p *e2ePage) connectDemoServer(base string) {
	p.t.Helper()
	demoHref := p.openDemoServerLink(base)
	p.do("open the demo server and connect", "main", chromedp.Navigate(base+demoHref),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
}

// waitLive waits until the page's traffic panel streams live.
func (p *e2ePage) waitLive() {
	p.t.Helper()
	p.waitJS("wait for the live panel's WebSocket", `[data-testid="traffic-panel"]`,
		`(() => { const s = document.querySelector("[data-ws-status]"); return !!s && s.textContent.trim() === "live"; })()`)
}

// liveSessionID is the id of the session the server page shows.
func (p *e2ePage) liveSessionID() string {
	p.t.Helper()
	return strings.TrimPrefix(e2eEval[string](p, "find the session link", `[data-testid="connection"]`,
		`document.querySelector('[data-testid="connection"] a[href^="/sessions/"]').getAttribute("href")`), "/sessions/")
}

// waitJS waits until the expression is truthy.
func (p *e2ePage) waitJS(what, dumpSel, expr string) {
	p.t.Helper()
	p.do(what, dumpSel, chromedp.Poll[chromedp.Void](expr,
		chromedp.WithPollingInterval(50*time.Millisecond),
		chromedp.WithPollingTimeout(e2eStepTimeout)))
}

// accept clicks the Accept (or Send reply) button, named what, of the
// server request's card, once the button is enabled: the page enables it
// just after the input that makes the card's fields valid
// (static/requests.js), and a click on it before then does nothing.
func (p *e2ePage) accept(what, card string) {
	p.t.Helper()
	button := card + ` [data-testid="input-accept"]`
	p.waitJS("wait for "+what+" to be enabled", card, `(() => { const b = document.querySelector(`+e2eJS(button)+`); return !!b && !b.disabled; })()`)
	p.do("click "+what, card, chromedp.Click(chromedp.CSS(button)))
}

// dump describes the page for a failure message: its URL and the outer HTML
// of the first element matching sel (the body when sel is empty or matches
// nothing), cut to a readable length.
func (p *e2ePage) dump(sel string) string {
	if sel == "" {
		sel = "body"
	}
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	expr := `(() => {
		const sel = ` + e2eJS(sel) + `, e = document.querySelector(sel);
		if (e) return "page " + location.href + ", outer HTML of " + sel + ":\n" + e.outerHTML;
		return "page " + location.href + ", nothing matches " + sel + "; the body:\n" + (document.body ? document.body.outerHTML : "(none)");
	})()`
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		return "(the page could not be read: " + err.Error() + ")"
	}
	const max = 12000
	if len(s) > max {
		s = s[:max] + fmt.Sprintf("\n… (%d more bytes)", len(s)-max)
	}
	return s
}

// text returns the text content of the first element matching sel.
func (p *e2ePage) text(sel string) string {
	p.t.Helper()
	return e2eEval[string](p, "read the text of "+sel, sel,
		`(() => { const e = document.querySelector(`+e2eJS(sel)+`); if (!e) throw new Error("nothing matches "+`+e2eJS(sel)+`); return e.textContent; })()`)
}

// value returns the value of the form control matching sel.
func (p *e2ePage) value(sel string) string {
	p.t.Helper()
	return e2eEval[string](p, "read the value of "+sel, sel,
		`(() => { const e = document.querySelector(`+e2eJS(sel)+`); if (!e) throw new Error("nothing matches "+`+e2eJS(sel)+`); return e.value; })()`)
}

// setValue sets a form control's value as a script would, and fires input
// and change events. (chromedp.SetValue cannot set "": it passes the empty
// string on as undefined.)
func (p *e2ePage) setValue(sel, value string) {
	p.t.Helper()
	got := e2eEval[string](p, "set the value of "+sel, sel, `(() => {
		const e = document.querySelector(`+e2eJS(sel)+`);
		if (!e) throw new Error("nothing matches "+`+e2eJS(sel)+`);
		e.value = `+e2eJS(value)+`;
		e.dispatchEvent(new Event("input", {bubbles: true}));
		e.dispatchEvent(new Event("change", {bubbles: true}));
		return e.value;
	})()`)
	if got != value {
		p.t.Fatalf("setting %s to %q left it at %q", sel, value, got)
	}
}

// typeInto empties a text input or textarea and types text into it with key
// events.
func (p *e2ePage) typeInto(sel, text string) {
	p.t.Helper()
	p.setValue(sel, "")
	p.do(fmt.Sprintf("type %q into %s", text, sel), sel, chromedp.SendKeys(chromedp.CSS(sel), text))
	if got := p.value(sel); got != text {
		p.t.Fatalf("after typing %q into %s its value is %q", text, sel, got)
	}
}

// choose picks the option of a <select> whose label is label, as a user
// would, whatever its value attribute holds.
func (p *e2ePage) choose(sel, label string) {
	p.t.Helper()
	msg := e2eEval[string](p, "choose "+label+" in "+sel, sel, `(() => {
		const s = document.querySelector(`+e2eJS(sel)+`);
		if (!s) return "nothing matches the selector";
		const o = Array.from(s.options).find(o => o.textContent.trim() === `+e2eJS(label)+`);
		if (!o) return "no option labelled " + `+e2eJS(label)+` + "; the labels are " + Array.from(s.options, o => JSON.stringify(o.textContent.trim())).join(", ");
		s.value = o.value;
		s.dispatchEvent(new Event("input", {bubbles: true}));
		s.dispatchEvent(new Event("change", {bubbles: true}));
		return "";
	})()`)
	if msg != "" {
		p.t.Fatalf("choosing %q in %s: %s\n%s", label, sel, msg, p.dump(sel))
	}
}

// openSection opens a section (tools, resources, prompts, tasks, logs,
// console) of the server page the browser is on, unless it shows that
// section already, and waits until the traffic panel streams live again.
func (p *e2ePage) openSection(section string) {
	p.t.Helper()
	body := `[data-testid="section-` + section + `"]`
	if e2eEval[bool](p, "check the section", "", `!!document.querySelector(`+e2eJS(body)+`)`) {
		return
	}
	p.do("open the "+section+" section", "main",
		chromedp.Click(chromedp.CSS(`[data-testid="tab-`+section+`"]`)),
		chromedp.WaitVisible(chromedp.CSS(body)))
	p.waitLive()
}

// openTool opens the tool's card in the Tools section of the server page
// the browser is on: it clicks the tool in the section's list (going to
// the section first when the page shows another), and waits for the card.
// Opening a tool from the list swaps only the card, so the page's live
// stream and waiting server requests stay.
func (p *e2ePage) openTool(tool string) {
	p.t.Helper()
	p.openSection("tools")
	if e2eEval[bool](p, "look for the "+tool+" card", "", `!!document.querySelector(`+e2eJS(e2eCard(tool))+`)`) {
		return // the section opened on it; a click would swap it for a fresh one
	}
	link := `[data-testid="item-link"][data-item="` + tool + `"]`
	shown := `!!document.querySelector(` + e2eJS(e2eCard(tool)) + `)`
	p.do("click the "+tool+" link", `[data-testid="item-list"]`, chromedp.Click(chromedp.CSS(link)))
	// Seldom, on a busy machine, Chromium drops a click made while the
	// page is busy with a swap; the test says so and clicks once more.
	for deadline := time.Now().Add(10 * time.Second); !e2eEval[bool](p, "look for the "+tool+" card", "", shown); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.t.Logf("the click on the %s link opened nothing in 10 s: clicking again", tool)
			p.do("click the "+tool+" link again", `[data-testid="item-list"]`, chromedp.Click(chromedp.CSS(link)))
			break
		}
	}
	p.do("open the "+tool+" card", `[data-testid="item-list"]`, chromedp.WaitVisible(chromedp.CSS(e2eCard(tool))))
}

// submitTool clicks the tool's Call button and waits until htmx has replaced
// the card with the server's answer.
func (p *e2ePage) submitTool(tool string) {
	p.t.Helper()
	p.startTool(tool)
	p.awaitTool(tool)
}

// startTool marks the tool's card and clicks its Call button, without
// waiting for the answer: a call whose server asks the user something
// answers only once the user has.
func (p *e2ePage) startTool(tool string) {
	p.t.Helper()
	card := e2eCard(tool)
	p.do("mark the "+tool+" card", card, chromedp.SetAttributeValue(chromedp.CSS(card), "data-e2e-stale", ""))
	p.do("click Call "+tool, card, chromedp.Click(chromedp.CSS(card+` [data-testid="call-tool"]`)))
}

// awaitTool waits until htmx has replaced the card marked by startTool with
// the server's answer.
func (p *e2ePage) awaitTool(tool string) {
	p.t.Helper()
	card := e2eCard(tool)
	p.do("wait for the "+tool+" card to be replaced by the answer", card,
		chromedp.WaitVisible(chromedp.CSS(card+`:not([data-e2e-stale])`)))
}

// waitInput waits until the inputs panel, or the dialog a request opens
// in, shows a visible request card of the kind (elicit-form, elicit-url,
// sample) whose id is not among skip (comma-separated), and returns the
// card's selector (#input-N).
func (p *e2ePage) waitInput(kind, skip string) string {
	p.t.Helper()
	find := `Array.from(document.querySelectorAll('[data-testid="inputs"] [data-testid="input-request"][data-kind=` + e2eJS(kind) + `], [data-testid="input-dialog"] [data-testid="input-request"][data-kind=` + e2eJS(kind) + `]'))
		.find(e => !` + e2eJS(skip) + `.split(",").includes(e.id) && e.offsetParent !== null)`
	p.waitJS("wait for a "+kind+" card in the inputs panel", `[data-testid="inputs"]`, `!!(`+find+`)`)
	id := e2eEval[string](p, "read the "+kind+" card's id", `[data-testid="inputs"]`, `(`+find+`).id`)
	if !strings.HasPrefix(id, "input-") {
		p.t.Fatalf("the %s card has the id %q, want input-N\n%s", kind, id, p.dump(`[data-testid="inputs"]`))
	}
	return "#" + id
}

// e2eInputDialog is the selector of the open dialog of a server request.
const e2eInputDialog = `dialog[data-testid="input-dialog"][open]`

// later closes the dialog a server request opened in (its Later button),
// putting the card back on the page.
func (p *e2ePage) later() {
	p.t.Helper()
	p.do("click Later", e2eInputDialog, chromedp.Click(chromedp.CSS(`[data-testid="input-dialog-later"]`)))
	p.waitJS("wait for the dialog to close", "body", `!document.querySelector(`+e2eJS(e2eInputDialog)+`)`)
}

// inDialog makes sure the request card is open in the dialog: it opens
// there by itself once; after Later, the toast's Answer opens it again.
func (p *e2ePage) inDialog(card string) {
	p.t.Helper()
	// A new request moves into the dialog by itself, just after it shows
	// on the page; one put off is announced by the toast instead.
	inDialog := `!!document.querySelector(` + e2eJS(e2eInputDialog+" "+card) + `)`
	p.waitJS("wait for the card in the dialog or the toast", "body", inDialog+` || !!document.querySelector('[data-testid="input-toast-go"]')`)
	if !e2eEval[bool](p, "look for the card in the dialog", "", inDialog) {
		p.do("click Answer", "body", chromedp.Click(chromedp.CSS(`[data-testid="input-toast-go"]`)))
	}
	p.waitJS("wait for the card in the dialog", "body", inDialog)
}

// outcome returns the card's data-outcome, or "" when it shows none.
func (p *e2ePage) outcome(tool string) string {
	p.t.Helper()
	return e2eEval[string](p, "read the "+tool+" outcome", e2eCard(tool),
		`(() => { const o = document.querySelector(`+e2eJS(e2eCard(tool)+` [data-testid="outcome"]`)+`); return o ? o.dataset.outcome : ""; })()`)
}

func (p *e2ePage) wantOutcome(tool, want string) {
	p.t.Helper()
	if got := p.outcome(tool); got != want {
		p.t.Fatalf("%s outcome = %q, want %q\n%s", tool, got, want, p.dump(e2eCard(tool)))
	}
}

// screenshot saves two PNGs into dir: NAME.png, the viewport scrolled to
// the element matching focusSel, and NAME-full.png, the whole page.
func (p *e2ePage) screenshot(dir, name, focusSel string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, e2eStepTimeout)
	defer cancel()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatalf("saving screenshots: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(focusSel))); err != nil {
		p.t.Fatalf("scrolling to %s for a screenshot: %v", focusSel, err)
	}
	shots := []struct {
		file string
		shot chromedp.Action[[]byte]
	}{
		{name + ".png", chromedp.CaptureScreenshot()},
		{name + "-full.png", chromedp.FullScreenshot(100)},
	}
	for _, s := range shots {
		png, err := chromedp.Run(ctx, s.shot)
		if err != nil {
			p.t.Fatalf("taking screenshot %s: %v", s.file, err)
		}
		path := filepath.Join(dir, s.file)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			p.t.Fatalf("saving the screenshot: %v", err)
		}
		p.t.Logf("screenshot: %s", path)
	}
}

// e2eDOMFrame is a frame row of a traffic panel as the page shows it.
type e2eDOMFrame struct {
	DOMID     string `json:"domId"`
	Direction string `json:"direction"`
	RPCType   string `json:"rpcType"`
	Method    string `json:"method"`
	Body      string `json:"body"`
	// Answer says that the frame is a response shown in its request's entry.
	Answer bool `json:"answer"`
}

// e2eRPC is the part of a JSON-RPC message that the test reads.
type e2eRPC struct {
	ID     json.RawMessage `json:"id"`
	Params struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	} `json:"params"`
}

const e2eFramesJS = `Array.from(document.querySelectorAll('#frames [data-testid="frame"]'), f => ({
	domId: f.id,
	direction: f.dataset.direction || "",
	rpcType: f.dataset.rpcType || "",
	method: f.dataset.method || "",
	body: (() => {
		const v = f.querySelector(".json-view, pre");
		if (!v) return "";
		const c = v.cloneNode(true);
		c.querySelectorAll(".jv-folded").forEach(x => x.remove());
		return c.textContent;
	})(),
	answer: !!f.closest("[data-response-slot]"),
}))`

// frames returns the frame rows of the page's traffic panel.
func (p *e2ePage) frames() []e2eDOMFrame {
	p.t.Helper()
	return e2eEval[[]e2eDOMFrame](p, "read the frames", "#frames", e2eFramesJS)
}

// waitFrames polls the traffic panel until cond holds, and returns the
// frames it held then. On timeout it fails with cond's reason and a summary
// of the panel.
func (p *e2ePage) waitFrames(what string, cond func([]e2eDOMFrame) (bool, string)) []e2eDOMFrame {
	p.t.Helper()
	deadline := time.Now().Add(e2eStepTimeout)
	for {
		frames := p.frames()
		ok, why := cond(frames)
		if ok {
			return frames
		}
		if time.Now().After(deadline) {
			status := e2eEval[string](p, "read the WebSocket status", "", `(() => { const s = document.querySelector("[data-ws-status]"); return s ? s.textContent.trim() : "(no status)"; })()`)
			p.t.Fatalf("waiting for %s: %s after %v (WebSocket status %q); the panel holds:\n%s",
				what, why, e2eStepTimeout, status, e2eSummary(frames))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkFrameOrder reports frames shown twice or out of order: the panel is
// the page's frames followed by the streamed ones, each exactly once; a
// response shown in its request's entry stands where the request does.
func (p *e2ePage) checkFrameOrder(frames []e2eDOMFrame) {
	p.t.Helper()
	var last int64
	seen := map[int64]bool{}
	for _, f := range frames {
		id, err := strconv.ParseInt(strings.TrimPrefix(f.DOMID, "frame-"), 10, 64)
		if err != nil {
			p.t.Errorf("frame row with id %q, want frame-N", f.DOMID)
			continue
		}
		if seen[id] {
			p.t.Errorf("frame %d is shown twice", id)
		} else if f.Answer {
			seen[id] = true
			continue
		} else if id < last {
			p.t.Errorf("frame %d is shown after frame %d", id, last)
		}
		seen[id] = true
		last = max(last, id)
	}
}

// e2eFindToolCall finds the out/request tools/call frame that calls tool
// with arguments.name == name, and decodes its body.
func e2eFindToolCall(frames []e2eDOMFrame, tool, name string) (e2eRPC, bool) {
	for _, f := range frames {
		if f.Direction != "out" || f.RPCType != "request" || f.Method != "tools/call" {
			continue
		}
		var m e2eRPC
		if json.Unmarshal([]byte(f.Body), &m) != nil {
			continue
		}
		if m.Params.Name == tool && m.Params.Arguments["name"] == name {
			return m, true
		}
	}
	return e2eRPC{}, false
}

// e2eFindResponse finds the in/result tools/call frame answering the id.
func e2eFindResponse(frames []e2eDOMFrame, id json.RawMessage) (e2eDOMFrame, bool) {
	for _, f := range frames {
		if f.Direction != "in" || f.RPCType != "result" || f.Method != "tools/call" {
			continue
		}
		var m e2eRPC
		if json.Unmarshal([]byte(f.Body), &m) == nil && string(m.ID) == string(id) {
			return f, true
		}
	}
	return e2eDOMFrame{}, false
}

// e2eCountDOM counts the tools/call frames with the direction and type.
func e2eCountDOM(frames []e2eDOMFrame, direction, rpcType string) int {
	n := 0
	for _, f := range frames {
		if f.Direction == direction && f.RPCType == rpcType && f.Method == "tools/call" {
			n++
		}
	}
	return n
}

// e2eCountMethod counts the frames with the direction, type and method.
func e2eCountMethod(frames []e2eDOMFrame, direction, rpcType, method string) int {
	n := 0
	for _, f := range frames {
		if f.Direction == direction && f.RPCType == rpcType && f.Method == method {
			n++
		}
	}
	return n
}

// e2eSummary lists frames one a line, with the start of their bodies.
func e2eSummary(frames []e2eDOMFrame) string {
	if len(frames) == 0 {
		return "  (no frames)"
	}
	var b strings.Builder
	for _, f := range frames {
		body := strings.Join(strings.Fields(f.Body), " ")
		if len(body) > 160 {
			body = body[:160] + "…"
		}
		fmt.Fprintf(&b, "  %s %s %s %s %s\n", f.DOMID, f.Direction, f.RPCType, f.Method, body)
	}
	return b.String()
}

// TestBrowserDeleteAsksFirst deletes a server from its page: the Delete
// button asks first (app.js does, for the form's data-confirm, since the
// Content-Security-Policy allows no inline handler), and a No keeps the
// server. It needs PLAYGROUND_CHROMIUM.
func TestBrowserDeleteAsksFirst(t *testing.T) {
	chromium := e2eChromium(t)
	bin := e2eBuildPlayground(t)
	srv := e2eServe(t, bin)
	serverPage := fmt.Sprintf("%s/servers/%d", srv.URL, srv.apiCreateServer(t, map[string]any{
		"name": "doomed", "transport": "stdio", "command": "/bin/true"}))
	registered := func() bool { return strings.Contains(e2eGet(t, srv.URL+"/api/v1/servers"), `"name":"doomed"`) }
	ctx, cancel := context.WithTimeout(context.Background(), e2eBrowserTimeout)
	t.Cleanup(cancel)
	p := e2eOpenBrowser(t, ctx, chromium)
	p.signIn(srv)

	p.do("open the server's page", "main", chromedp.Navigate(serverPage),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="delete-server"]`)))
	// Nobody answers a dialog in a headless browser: the page's confirm
	// answers as told instead, and keeps the question.
	answer := func(yes bool) {
		t.Helper()
		e2eEval[bool](p, "stand in for confirm", "", `window.asked = ""; window.e2eSamePage = true;
			window.confirm = m => { window.asked = m; return `+strconv.FormatBool(yes)+`; }; true`)
	}

	answer(false)
	p.do("click Delete and answer No", "main", chromedp.Click(chromedp.CSS(`[data-testid="delete-server"]`)))
	time.Sleep(500 * time.Millisecond) // time for a post that should not be sent
	if asked := e2eEval[string](p, "read the question", "", `String(window.asked ?? "")`); !strings.Contains(asked, "Delete this server?") {
		t.Errorf("Delete asked %q, want the question whether to delete the server", asked)
	}
	if !e2eEval[bool](p, "check the marker", "", `window.e2eSamePage === true`) || !registered() {
		t.Fatal("answering No to Delete deleted the server")
	}

	answer(true)
	p.do("click Delete and answer Yes", "main", chromedp.Click(chromedp.CSS(`[data-testid="delete-server"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="add-server"]`)))
	if registered() {
		t.Error("answering Yes to Delete kept the server")
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// TestBrowserClickjacking plays a page on another origin that frames the
// dashboard's server page, invisible, over its whole window, and clicks
// where the framed Connect button is, as a tricked user would. The frame
// must stay empty, and the click must start nothing: the server's command,
// `touch FILE`, must never run. A form that the attacker's page submits to
// the connect route, and a plain HTTP post that claims to come from the
// dashboard's own page (Sec-Fetch-Site: same-origin), both without the CSRF
// token, must be refused as well. It needs PLAYGROUND_CHROMIUM.
func TestBrowserClickjacking(t *testing.T) {
	chromium := e2eChromium(t)
	bin := e2eBuildPlayground(t)
	srv := e2eServe(t, bin)
	touched := filepath.Join(t.TempDir(), "touched")
	victim := fmt.Sprintf("%s/servers/%d", srv.URL, srv.apiCreateServer(t, map[string]any{
		"name": "touch", "transport": "stdio", "command": "touch", "args": []string{touched}}))

	// Another port is another origin, though the same site: the browser
	// sends the dashboard's SameSite=Strict cookies to the framed page.
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/":
			fmt.Fprintf(w, `<!doctype html><title>You have won</title>
<style>html, body { margin: 0; height: 100%%; } iframe { position: fixed; inset: 0; width: 100%%; height: 100%%; border: 0; opacity: 0; }</style>
<iframe id="victim" src="%s" onload="window.framed = true"></iframe>`, html.EscapeString(victim))
		case "/form":
			fmt.Fprintf(w, `<!doctype html><title>You have won</title>
<form method="post" action="%s/connect"><input type="hidden" name="_csrf" value="forged"></form>
<script>document.forms[0].submit()</script>`, html.EscapeString(victim))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(attacker.Close)

	ctx, cancel := context.WithTimeout(context.Background(), e2eBrowserTimeout)
	t.Cleanup(cancel)
	p := e2eOpenBrowser(t, ctx, chromium)
	p.signIn(srv)

	// The user has the dashboard open: the browser holds its cookie, and
	// the Connect button's place in the window is where the framed one
	// would be.
	p.do("open the touch server", "main", chromedp.Navigate(victim),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)))
	at := e2eEval[[]float64](p, "find the Connect button", `[data-testid="connection"]`, `(() => {
		const r = document.querySelector('[data-testid="connect"]').getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`)

	step := "the framing page"
	sessions := strings.Count(e2eGet(t, victim), `data-testid="session-row"`)
	notTouched := func() {
		t.Helper()
		// Starting a process takes a moment; give a click that got through
		// the time to show.
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if _, err := os.Stat(touched); err == nil {
				t.Errorf("%s started the registered command: %s exists", step, touched)
				_ = os.Remove(touched)
				break
			}
		}
		if n := strings.Count(e2eGet(t, victim), `data-testid="session-row"`); n != sessions {
			t.Errorf("%s opened a session of the touch server", step)
			sessions = n
		}
	}

	p.do("open the framing page", "body", chromedp.Navigate(attacker.URL+"/"))
	p.waitJS("wait for the frame to load", "body", `window.framed === true`)
	doc, err := chromedp.Call(p.ctx, dom.GetDocument, dom.GetDocumentParams{Depth: new(int64(-1)), Pierce: new(true)})
	if err != nil {
		t.Fatalf("reading the framing page's DOM: %v", err)
	}
	frame := e2eFindNode(doc.Root, func(n *cdp.Node) bool { return n.LocalName == "iframe" })
	if frame == nil {
		t.Fatalf("the framing page has no iframe\n%s", p.dump("body"))
	}
	if d := frame.ContentDocument; d != nil {
		t.Logf("the frame holds %s", d.DocumentURL)
	}
	if d := frame.ContentDocument; d != nil && e2eFindNode(d, func(n *cdp.Node) bool { return e2eAttr(n, "data-testid") == "connect" }) != nil {
		t.Errorf("the dashboard shows its Connect button inside another site's frame (%s)", d.DocumentURL)
	}
	p.do("click where the framed Connect button is", "body", chromedp.MouseClickXY(at[0], at[1]))
	notTouched()

	step = "a form the attacker's page submitted"
	p.do("open the page that submits a form", "body", chromedp.Navigate(attacker.URL+"/form"))
	p.waitJS("wait for the form's answer", "body", `location.href === `+e2eJS(victim+"/connect"))
	notTouched()

	step = "a post without the token that claims to come from the dashboard's page"
	req, err := http.NewRequest(http.MethodPost, victim+"/connect", strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", srv.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Sec-Fetch-Mode", "navigate")
	resp, err := e2eHTTPDo(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusBadRequest {
		t.Errorf("%s: status %s, want it refused with 403 or 400", step, resp.Status)
	}
	notTouched()
}

// e2eFindNode returns the first node under n, n included, for which match
// holds, looking into frames' documents too.
func e2eFindNode(n *cdp.Node, match func(*cdp.Node) bool) *cdp.Node {
	if n == nil {
		return nil
	}
	if match(n) {
		return n
	}
	for _, c := range n.Children {
		if m := e2eFindNode(c, match); m != nil {
			return m
		}
	}
	return e2eFindNode(n.ContentDocument, match)
}

// e2eAttr returns the value of a node's attribute, "" when it has none.
func e2eAttr(n *cdp.Node, name string) string {
	for i := 0; i+1 < len(n.Attributes); i += 2 {
		if n.Attributes[i] == name {
			return n.Attributes[i+1]
		}
	}
	return ""
}
