package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// e2eProbe is a word every hostile text starts with, so that a test can
// see the text was shown (as text) and the history can find it.
const e2eProbe = "XSSPROBE"

// e2ePayload is what a hostile server puts in every text the dashboard
// shows. Each part would change the page if it ran or were inserted as
// markup: it sets document.title to PWNED or window.__pwned, swaps the
// body through htmx, or posts through htmx to /pwn; each element carries
// a data-pwn marker that no page of the dashboard has.
const e2ePayload = e2eProbe + ` <script>document.title="PWNED";window.__pwned=1</script>` +
	`<img src=x onerror="document.title='PWNED';window.__pwned=2" data-pwn="img">` +
	`<svg onload="document.title='PWNED';window.__pwned=3" data-pwn="svg"></svg>` +
	`"><iframe srcdoc="<script>parent.document.title='PWNED'</script>" data-pwn="iframe"></iframe>` +
	`<div hx-get="/servers/new" hx-trigger="load" hx-target="body" data-pwn="hx-get">swap</div>` +
	`<a hx-post="/pwn" hx-trigger="load" data-pwn="hx-post">post</a>` +
	` {{ .Secret }} ${document.title='PWNED'} javascript:document.title='PWNED'`

// e2eMarkdownPayload is a hostile text that the results view renders as
// Markdown: links to javascript: URLs, raw HTML, an image that would run
// a handler.
const e2eMarkdownPayload = "# " + e2eProbe + " heading\n\n" +
	"[click me](javascript:document.title='PWNED')\n\n" +
	"[also me](  JaVaScRiPt:window.__pwned=4 )\n\n" +
	"![pic](x \"title\" onerror=\"document.title='PWNED'\")\n\n" +
	"<img src=x onerror=\"document.title='PWNED'\" data-pwn=\"md-img\">\n\n" +
	"<div hx-get=\"/servers/new\" hx-trigger=\"load\" hx-target=\"body\" data-pwn=\"md-hx\">raw html</div>\n\n" +
	"- " + e2eProbe + " item with **bold** and `code`\n"

// e2eKeyPayload is a payload short enough to be a schema's property name,
// which the form puts in names, ids and labels.
const e2eKeyPayload = `x"><img src=x onerror="document.title='PWNED'" data-pwn="key">`

// e2eJavaScriptURL is a link target that runs script when followed.
const e2eJavaScriptURL = "javascript:document.title='PWNED';window.__pwned=5"

// e2eSVGPayload is an SVG image with script in it.
const e2eSVGPayload = `<svg xmlns="http://www.w3.org/2000/svg" onload="document.title='PWNED'" data-pwn="svg-blob">` +
	`<script>document.title='PWNED'</script><text y="20">` + e2eProbe + `</text></svg>`

// e2eInertJS lists the ways in which a payload ran or became live markup
// on the current page; an empty list means none did.
const e2eInertJS = `(() => {
	const bad = [], seen = new Set();
	if (document.title === "PWNED") bad.push("document.title was set to PWNED");
	if (window.__pwned !== undefined) bad.push("window.__pwned was set to " + window.__pwned);
	const report = (e, what) => {
		if (seen.has(e)) return;
		seen.add(e);
		bad.push(what + ": " + e.outerHTML.slice(0, 200));
	};
	const live = {
		"img[onerror]": "an img with an onerror handler",
		"[onload]": "an element with an onload handler",
		"iframe[srcdoc]": "an iframe with srcdoc",
		'[hx-get="/servers/new"]': "an element with the payload's hx-get",
		'[hx-post="/pwn"]': "an element with the payload's hx-post",
		"[data-pwn]": "an element that carries a payload's data-pwn marker",
		'[data-testid="server-form"]': "the new-server form, which the htmx payload swaps in",
	};
	for (const [sel, what] of Object.entries(live)) document.querySelectorAll(sel).forEach(e => report(e, what));
	for (const s of document.scripts) if (s.textContent.includes("PWNED")) report(s, "a script element with the payload");
	for (const e of document.querySelectorAll("[href], [src], [action], [formaction], [data], [xlink\\:href]")) {
		for (const a of ["href", "src", "action", "formaction", "data", "xlink:href"]) {
			const v = e.getAttribute(a);
			if (v !== null && /^[\s\x00-\x1f]*(javascript|vbscript|data:text\/html)/i.test(v)) report(e, "a " + a + " that runs script");
		}
	}
	return bad;
})()`

// TestBrowserPayloads connects the dashboard to a hostile server that puts
// script, event handlers, frames, htmx attributes and javascript: links in
// everything it controls: its own name, title, version, website and
// instructions; tool titles, descriptions and schemas (property names,
// enum titles, defaults, an array's item template); every kind of tool
// result (plain text, Markdown, links, embedded resources, images of HTML
// and SVG types, structuredContent, _meta, tool errors); resources and
// their contents; a template; a prompt and its messages; completions; log
// entries; a form and a URL elicitation and a sampling request. After each
// is shown, in the console section, on the session page and in a history
// search for it, the payloads
// must not have run (document.title, window.__pwned), must not be in the
// page as live elements, and must be readable as text; and the console
// must report no error, so no Content-Security-Policy violation either:
// a blocked inline script means the escaping failed even though the
// policy held. Screenshots of the hostile result and of the overview go
// to PLAYGROUND_SCREENSHOT_DIR when it is set.
func TestBrowserPayloads(t *testing.T) {
	srv, tab := e2eBrowse(t)
	p := &e2eHostileTab{e2ePage: tab}
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	started := time.Now()
	step := func(name string) { t.Logf("%6.2fs  %s", time.Since(started).Seconds(), name) }
	id := srv.apiCreateServer(t, map[string]any{"name": "hostile", "transport": "http", "url": e2eHostileServer(t)})
	serverPage := fmt.Sprintf("%s/servers/%d", srv.URL, id)

	step("connect and read the overview")
	p.do("open the hostile server and connect", "main", chromedp.Navigate(serverPage),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="overview"]`)))
	p.waitLive()
	session := p.liveSessionID()
	p.wantInert("the overview")
	p.wantText("the overview's name", `[data-testid="overview-name"]`, e2ePayload)
	p.wantText("the overview's version", `[data-testid="overview-version"]`, e2ePayload)
	p.wantText("the instructions", `[data-testid="instructions"] pre`, e2ePayload)
	if e2eEval[bool](p.e2ePage, "look for the website link", "", `!!document.querySelector('[data-testid="overview-website"]')`) {
		t.Errorf("the overview links to the server's javascript: website\n%s", p.dump(`[data-testid="overview"]`))
	}
	p.do("unfold the instructions and the raw JSON", `[data-testid="overview"]`,
		chromedp.Evaluate[chromedp.Void](`document.querySelectorAll('[data-testid="overview"] details').forEach(d => d.open = true)`))
	if shots != "" {
		p.screenshot(shots, "payloads-overview", `[data-testid="overview"]`)
	}
	p.wantInert("the overview unfolded")
	// The SDK server logs only once a level is set.
	e2ePostJSON(t, srv.URL+"/api/v1/sessions/"+session+"/requests",
		map[string]any{"method": "logging/setLevel", "params": map[string]any{"level": "debug"}}, http.StatusOK, nil)

	step("the hostile tool and its result")
	card := e2eCard("hostile_result")
	p.openTool("hostile_result")
	p.wantInert("the hostile tool's card")
	p.wantText("the tool's card", card, e2eProbe)
	if got := p.value(card + ` [name="arg.text"]`); got != e2ePayload {
		t.Errorf("the text field's default reads %q, want the schema's default as it is", got)
	}
	// An added row is cloned from a template that holds the item's
	// payload-named field.
	p.do("add a row", card, chromedp.Click(chromedp.CSS(card+` [data-testid="sf-add"]`)),
		chromedp.WaitVisible(chromedp.CSS(card+` [data-testid="sf-item"]`)))
	p.wantInert("the tool's form with a row added")
	p.wantText("the added row", card+` [data-testid="sf-item"]`, e2eProbe)
	p.startTool("hostile_result")
	p.waitShown("the hostile result", card+`:not([data-e2e-stale])`)
	p.wantOutcome("hostile_result", "result")
	if got := p.text(card + ` [data-testid="content-block"][data-type="text"] pre[data-testid="content-text"]`); got != e2ePayload {
		t.Errorf("the plain text result reads %q, want the payload as text", got)
	}
	p.wantText("the Markdown result", card+` [data-testid="markdown"]`, e2eProbe+" heading")
	p.wantText("the resource link", card+` [data-testid="resource-link"]`, e2eProbe)
	// A long name without spaces wraps inside the card.
	if w := e2eEval[[]int](p.e2ePage, "measure the resource link", card, `(() => {
		const e = document.querySelector(`+e2eJS(card+` [data-testid="resource-link"]`)+`);
		return [e.scrollWidth, e.clientWidth];
	})()`); w[0] > w[1]+1 {
		t.Errorf("the resource link's name is %d px wide in a block of %d px: it runs out of the card", w[0], w[1])
	}
	p.wantText("the embedded resource", card+` [data-testid="content-embedded"]`, e2eProbe)
	p.wantText("the structuredContent", card+` [data-testid="structured"]`, e2eProbe)
	p.wantText("the result's _meta", card+` [data-testid="result-meta"]`, e2eProbe)
	p.wantText("a block's _meta", card+` [data-testid="block-meta"]`, e2eProbe)
	// The Markdown's javascript: links are shown as their text, which does
	// nothing when clicked; the resource link's javascript: URI is read
	// from the server, never followed.
	clicked := e2eEval[int](p.e2ePage, "click the Markdown's links", card, `(() => {
		const md = Array.from(document.querySelectorAll(`+e2eJS(card+` [data-testid="markdown"] *`)+`));
		const links = md.filter(e => e.children.length === 0 && ["click me", "also me"].includes(e.textContent.trim()));
		links.forEach(e => e.click());
		return links.length;
	})()`)
	if clicked != 4 { // two in the text block, two in the embedded Markdown resource
		t.Errorf("clicked %d of the Markdown's four javascript: links; want each shown as text\n%s", clicked, p.dump(card+` [data-testid="markdown"]`))
	}
	p.do("read the resource link", card, chromedp.Click(chromedp.CSS(card+` [data-testid="read-resource"]`)),
		chromedp.WaitVisible(chromedp.CSS(card+` [data-testid="resource-read"] [data-testid="resource-read-result"]`)))
	p.wantInert("the hostile result after following its links")
	if shots != "" {
		p.screenshot(shots, "payloads-tool", card+` [data-testid="markdown"]`)
	}

	step("a tool error")
	p.openTool("hostile_error")
	p.startTool("hostile_error")
	p.waitShown("the tool error", e2eCard("hostile_error")+`:not([data-e2e-stale])`)
	p.wantOutcome("hostile_error", "tool-error")
	p.wantText("the tool error", e2eCard("hostile_error")+` [data-testid="content-text"]`, e2ePayload)

	step("an elicitation")
	p.openTool("hostile_ask")
	p.startTool("hostile_ask")
	ask := p.waitInput("elicit-form", "")
	p.wantInert("the elicitation")
	p.wantText("the elicitation's message", ask+` [data-testid="input-message"]`, e2ePayload)
	p.wantText("the elicitation's form", ask, e2eProbe+" title")
	p.do("decline", ask, chromedp.Click(chromedp.CSS(ask+` [data-testid="input-decline"]`)))
	p.awaitTool("hostile_ask")
	p.wantInert("the elicitation's answer")

	step("a URL elicitation to a javascript: URL")
	p.openTool("hostile_visit")
	p.startTool("hostile_visit")
	visit := p.waitInput("elicit-url", "")
	p.wantInert("the URL elicitation")
	p.wantText("the URL elicitation's message", visit+` [data-testid="input-message"]`, e2ePayload)
	p.wantText("the refused URL", visit+` [data-testid="url-refused"]`, e2eJavaScriptURL)
	p.do("decline the visit", visit, chromedp.Click(chromedp.CSS(visit+` [data-testid="input-decline"]`)))
	p.awaitTool("hostile_visit")
	p.wantInert("the URL elicitation's answer")

	step("a sampling request")
	p.openTool("hostile_sample")
	p.startTool("hostile_sample")
	sample := p.waitInput("sample", "")
	p.wantInert("the sampling request")
	p.wantText("the sampling message", sample+` [data-testid="sample-text"]`, e2ePayload)
	p.wantText("the sampling system prompt", sample+` [data-testid="sample-system"]`, e2eProbe)
	p.typeInto(sample+` textarea[name="reply"]`, "fine")
	p.accept("the reply", sample)
	p.awaitTool("hostile_sample")
	p.wantInert("the sampling answer")

	step("the logs")
	p.openSection("logs")
	p.waitJS("wait for the hostile log entries", `[data-testid="logs"]`,
		`document.querySelectorAll('[data-testid="log-entry"]').length >= 2`)
	p.wantInert("the logs")
	p.wantText("the logs", `[data-testid="logs"]`, e2ePayload)

	p.openSection("console")
	p.wantInert("the console section")

	step("the resources")
	for _, r := range []struct{ uri, shown string }{
		{"hostile://page.html", `[data-testid="resource-text"]`},
		{"hostile://notes.md", `[data-testid="resource-text"] [data-testid="markdown"]`},
		{"hostile://picture.svg", `[data-testid="resource-contents"]`},
	} {
		p.do("open "+r.uri, "main", chromedp.Navigate(serverPage+"/resources?uri="+url.QueryEscape(r.uri)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="resource"]`)))
		p.wantInert("the resources list and " + r.uri)
		p.wantText(r.uri+"'s card", `[data-testid="resource"]`, e2eProbe)
		p.do("read "+r.uri, `[data-testid="resource"]`, chromedp.Click(chromedp.CSS(`[data-testid="read"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="read-slot"] [data-testid="resource-contents"]`)))
		p.wantInert("the contents of " + r.uri)
		if r.uri != "hostile://picture.svg" {
			p.wantText("the contents of "+r.uri, r.shown, e2eProbe)
		}
	}
	p.do("open the template", "main", chromedp.Navigate(serverPage+"/resources?template="+url.QueryEscape("hostile://items/{id}")),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="template"]`)))
	p.wantInert("the resource template")
	p.wantText("the template's card", `[data-testid="template"]`, e2eProbe)

	step("the prompt and a completion")
	prompt := e2ePromptCard("hostile")
	e2eNavigate(p.e2ePage, "open the hostile prompt", serverPage+"/prompts/hostile", prompt)
	p.wantInert("the prompt's card")
	p.wantText("the prompt's card", prompt, e2eProbe)
	topic := prompt + ` [name="arg.topic"]`
	p.typeInto(topic, "x")
	p.waitJS("wait for the hostile suggestions", topic+` ~ [data-complete-list]`, `!!`+e2eSuggestionJS(topic, e2ePayload))
	p.wantInert("the completion suggestions")
	p.do("get the prompt", prompt, chromedp.Click(chromedp.CSS(prompt+` [data-testid="get-prompt"]`)),
		chromedp.WaitVisible(chromedp.CSS(prompt+` [data-testid="prompt-message"]`)))
	p.wantInert("the prompt's messages")
	p.wantText("the prompt's message", prompt+` [data-testid="prompt-message"] [data-testid="message-text"]`, e2ePayload)
	p.wantText("the prompt's description", prompt+` [data-testid="prompt-description"]`, e2ePayload)

	step("the session page")
	e2eNavigate(p.e2ePage, "open the session", srv.URL+"/sessions/"+session, `#frames [data-testid="frame"]`)
	p.wantInert("the session page")
	p.wantText("the session's frames", "#frames", e2eProbe)

	step("the history")
	e2eNavigate(p.e2ePage, "open the history page", srv.URL+"/history", `[data-testid="history-form"]`)
	p.typeInto(`[data-testid="history-q"]`, e2eProbe)
	p.follow("search the history", `[data-testid="history-search"]`)
	p.waitJS("wait for the history rows", "main", `document.querySelectorAll('[data-testid="history-row"]').length > 0`)
	p.wantInert("the history search")
	p.wantText("the history's excerpts", `[data-testid="history-results"]`, e2eProbe)
	p.follow("open an exchange", `[data-testid="exchange-link"]`)
	p.wantInert("an exchange's permalink")
	p.wantText("the exchange", "main", e2eProbe)

	step("done")
	p.wantInert("the end")
}

// e2eHostileTab is a tab on pages that show a hostile server's texts.
type e2eHostileTab struct {
	*e2ePage
	seen int // console messages reported so far
}

// wantInert fails the test for each way in which a payload ran or became
// live markup on the page (see e2eInertJS), and for each console error
// since the last check: a Content-Security-Policy violation among them
// means that the page let a payload's markup in.
func (p *e2eHostileTab) wantInert(where string) {
	p.t.Helper()
	for _, bad := range e2eEval[[]string](p.e2ePage, "look for live payloads", "", e2eInertJS) {
		p.t.Errorf("%s: %s", where, bad)
	}
	console := p.consoleErrors()
	for _, m := range console[p.seen:] {
		p.t.Errorf("%s: browser console: %s", where, m)
	}
	p.seen = len(console)
}

// waitShown waits until an element matching sel is in the page or a
// payload ran or went live (which may have swapped sel's place away), then
// reports the payloads as wantInert does, and fails the test when sel
// never came.
func (p *e2eHostileTab) waitShown(what, sel string) {
	p.t.Helper()
	p.waitJS("wait for "+what, "", `!!document.querySelector(`+e2eJS(sel)+`) || `+e2eInertJS+`.length > 0`)
	p.wantInert(what)
	if !e2eEval[bool](p.e2ePage, "look for "+what, "", `!!document.querySelector(`+e2eJS(sel)+`)`) {
		p.t.Fatalf("%s: nothing matches %s\n%s", what, sel, p.dump(""))
	}
}

// wantText fails the test unless the text of the first element matching
// sel holds want: the payload is shown, as text.
func (p *e2eHostileTab) wantText(what, sel, want string) {
	p.t.Helper()
	if got := p.text(sel); !strings.Contains(got, want) {
		p.t.Errorf("%s reads %.300q, want %.300q in it\n%s", what, got, want, p.dump(sel))
	}
}

// e2eHostileServer serves, over Streamable HTTP on loopback, an SDK server
// that puts e2ePayload (and its Markdown, link and SVG kin) in everything
// it sends, and returns its MCP URL.
func e2eHostileServer(t *testing.T) string {
	t.Helper()
	text := func(s string) *mcp.TextContent { return &mcp.TextContent{Text: s} }
	s := mcp.NewServer(&mcp.Implementation{Name: e2ePayload, Title: e2ePayload, Version: e2ePayload, WebsiteURL: e2eJavaScriptURL},
		&mcp.ServerOptions{
			Instructions: e2ePayload,
			CompletionHandler: func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
				return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{e2ePayload, e2eJavaScriptURL}}}, nil
			},
		})

	schema := json.RawMessage(`{"type": "object", "properties": {
		"text": {"type": "string", "title": ` + e2eJS(e2ePayload) + `, "description": ` + e2eJS(e2ePayload) + `, "default": ` + e2eJS(e2ePayload) + `},
		"choice": {"type": "string", "description": ` + e2eJS(e2eMarkdownPayload) + `, "oneOf": [
			{"const": "a", "title": ` + e2eJS(e2ePayload) + `}, {"const": ` + e2eJS(e2ePayload) + `, "title": "b"}]},
		"plain": {"type": "string", "enum": [` + e2eJS(e2ePayload) + `, "b"]},
		` + e2eJS(e2eKeyPayload) + `: {"type": "string", "description": "a property whose name is a payload"},
		"rows": {"type": "array", "description": ` + e2eJS(e2ePayload) + `, "items": {"type": "object", "title": ` + e2eJS(e2ePayload) + `, "properties": {
			` + e2eJS(e2eKeyPayload) + `: {"type": "string", "title": ` + e2eJS(e2ePayload) + `, "default": ` + e2eJS(e2ePayload) + `}}}}}}`)
	svg := []byte(e2eSVGPayload)
	s.AddTool(&mcp.Tool{Name: "hostile_result", Title: e2ePayload, Description: e2ePayload, InputSchema: schema},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for _, data := range []any{e2ePayload, map[string]any{"html": e2ePayload}} {
				if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: e2ePayload, Data: data}); err != nil {
					return nil, err
				}
			}
			return &mcp.CallToolResult{
				Content: []mcp.Content{
					text(e2ePayload),
					text(e2eMarkdownPayload),
					&mcp.ResourceLink{URI: e2eJavaScriptURL, Name: e2ePayload, Title: e2ePayload, Description: e2ePayload, MIMEType: "text/html"},
					&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "hostile://embedded.html", MIMEType: "text/html", Text: e2ePayload}},
					&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "hostile://embedded.md", MIMEType: "text/markdown", Text: e2eMarkdownPayload}},
					&mcp.ImageContent{MIMEType: "text/html", Data: []byte(e2ePayload)},
					&mcp.ImageContent{MIMEType: "image/svg+xml", Data: svg},
					&mcp.TextContent{Text: e2eProbe + " annotated", Meta: mcp.Meta{"html": e2ePayload}},
				},
				StructuredContent: map[string]any{"html": e2ePayload, "link": e2eJavaScriptURL},
				Meta:              mcp.Meta{"html": e2ePayload},
			}, nil
		})
	s.AddTool(&mcp.Tool{Name: "hostile_error", Description: e2ePayload, InputSchema: json.RawMessage(`{"type": "object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{text(e2ePayload)}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "hostile_ask", Description: e2ePayload, InputSchema: json.RawMessage(`{"type": "object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: e2ePayload, RequestedSchema: json.RawMessage(`{"type": "object", "properties": {
				"answer": {"type": "string", "title": ` + e2eJS(e2eProbe+" title "+e2ePayload) + `, "description": ` + e2eJS(e2ePayload) + `, "default": ` + e2eJS(e2ePayload) + `}}}`)})
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{text(res.Action + " " + e2ePayload)}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "hostile_visit", Description: e2ePayload, InputSchema: json.RawMessage(`{"type": "object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: e2ePayload, URL: e2eJavaScriptURL, ElicitationID: "pwn"})
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{text(res.Action)}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "hostile_sample", Description: e2ePayload, InputSchema: json.RawMessage(`{"type": "object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10, SystemPrompt: e2ePayload,
				Messages: []*mcp.SamplingMessage{{Role: "user", Content: text(e2ePayload)}, {Role: "assistant", Content: text(e2eMarkdownPayload)}}})
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{text(e2ePayload), res.Content}}, nil
		})

	for _, r := range []struct {
		uri, mimeType string
		contents      mcp.ResourceContents
	}{
		{"hostile://page.html", "text/html", mcp.ResourceContents{Text: e2ePayload}},
		{"hostile://notes.md", "text/markdown", mcp.ResourceContents{Text: e2eMarkdownPayload}},
		{"hostile://picture.svg", "image/svg+xml", mcp.ResourceContents{Blob: svg}},
	} {
		contents := r.contents
		contents.URI, contents.MIMEType = r.uri, r.mimeType
		s.AddResource(&mcp.Resource{URI: r.uri, Name: e2eProbe + " " + e2ePayload, Title: e2ePayload, Description: e2ePayload, MIMEType: r.mimeType},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{&contents}}, nil
			})
	}
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "hostile://items/{id}", Name: e2ePayload, Title: e2ePayload, Description: e2ePayload, MIMEType: "text/html"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/html", Text: e2ePayload}}}, nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "hostile", Title: e2ePayload, Description: e2ePayload,
		Arguments: []*mcp.PromptArgument{{Name: "topic", Title: e2ePayload, Description: e2ePayload}}},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Description: e2ePayload, Messages: []*mcp.PromptMessage{
				{Role: "user", Content: text(e2ePayload)},
				{Role: "assistant", Content: text(e2eMarkdownPayload)},
				{Role: "user", Content: &mcp.ImageContent{MIMEType: "image/svg+xml", Data: svg}},
				{Role: "user", Content: &mcp.ResourceLink{URI: e2eJavaScriptURL, Name: e2ePayload}},
			}}, nil
		})

	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}
