package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// e2eLaptopWidth and e2eLaptopHeight are the window the layout tests
// look through: a common laptop screen.
const (
	e2eLaptopWidth  = 1440
	e2eLaptopHeight = 900
)

// e2eCutNamesJS lists the names in the section's item list that the list
// does not show whole: cut by the link's edge or by an ellipsis.
const e2eCutNamesJS = `Array.from(document.querySelectorAll('[data-testid="item-link"]')).filter(a => {
	const name = a.querySelector(".item-name"), box = a.getBoundingClientRect(), n = name.getBoundingClientRect();
	return a.scrollWidth > a.clientWidth + 1 || name.scrollWidth > name.clientWidth + 1 || n.right > box.right + 1 || n.left < box.left - 1;
}).map(a => a.dataset.item)`

// e2eShownJS reports whether the element matching the selector is shown
// within the window and within every box that scrolls it: its top edge
// visible and, when it is shorter than what shows it, its bottom too.
const e2eShownJS = `((sel) => {
	const e = document.querySelector(sel);
	if (!e) return "nothing matches " + sel;
	const r = e.getBoundingClientRect();
	let top = 0, bottom = window.innerHeight;
	for (let p = e.parentElement; p; p = p.parentElement) {
		const s = getComputedStyle(p);
		if (/(auto|scroll|hidden)/.test(s.overflowY)) {
			const b = p.getBoundingClientRect();
			top = Math.max(top, b.top); bottom = Math.min(bottom, b.bottom);
		}
	}
	if (r.top < top - 1 || r.top > bottom - 8) return sel + " starts at " + Math.round(r.top) + ", outside " + Math.round(top) + ".." + Math.round(bottom);
	if (r.height < bottom - top && r.bottom > bottom + 1) return sel + " ends at " + Math.round(r.bottom) + ", below " + Math.round(bottom);
	return "";
})`

// TestBrowserWorkbenchFitsWindow opens server-everything's page at
// 1440×900 on a session with plenty of traffic and calls a tool: the page
// itself does not scroll (the workbench fits the window under the top bar,
// each pane scrolling inside itself), the tool's card with its answer and
// the newest traffic row are both in view, and the tool list shows every
// name whole. The demo server's tool list shows every name whole too.
// When PLAYGROUND_SCREENSHOT_DIR is set, workbench-everything.png and
// workbench-demo.png are saved there.
func TestBrowserWorkbenchFitsWindow(t *testing.T) {
	everything := filepath.Join(e2eNodeModules(), "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(everything); err != nil {
		t.Skipf("needs @modelcontextprotocol/server-everything in node_modules: %v", err)
	}
	srv, p := e2eBrowse(t)
	p.do("make the window a laptop's", "", chromedp.EmulateViewport(e2eLaptopWidth, e2eLaptopHeight))
	id := srv.apiCreateServer(t, map[string]any{"name": "everything", "transport": "stdio", "command": "node", "args": []string{everything, "stdio"}})
	p.do("open server-everything and connect", "main", chromedp.Navigate(fmt.Sprintf("%s/servers/%d", srv.URL, id)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
	requests := srv.URL + "/api/v1/sessions/" + p.liveSessionID() + "/requests"
	for range 40 {
		e2ePostJSON(t, requests, map[string]any{"method": "ping"}, http.StatusOK, nil)
	}

	const tool = "echo"
	p.openTool(tool)
	p.setValue(e2eCard(tool)+` [name="arg.message"]`, "hello from the layout test")
	p.submitTool(tool)
	p.wantOutcome(tool, "result")
	var newest string
	p.waitFrames("the echo's answer is the newest row", func(fs []e2eDOMFrame) (bool, string) {
		if len(fs) == 0 {
			return false, "no frames"
		}
		last := fs[len(fs)-1]
		newest = last.DOMID
		var msg struct {
			Result json.RawMessage `json:"result"`
		}
		_ = json.Unmarshal([]byte(last.Body), &msg)
		return last.Direction == "in" && len(msg.Result) > 0, e2eSummary(fs[max(0, len(fs)-3):])
	})
	// The answer sits inside its request's entry, and that entry is the
	// newest row; the panel follows it once it has been laid out.
	row := "#" + e2eEval[string](p, "find the newest row", "",
		`(document.getElementById(`+e2eJS(newest)+`).closest('[data-testid="exchange"]') || document.getElementById(`+e2eJS(newest)+`)).id`)
	if !strings.HasPrefix(row, "#exchange-") {
		t.Errorf("the echo's answer %s is not inside its request's entry: the newest row is %s", newest, row)
	}
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if e2eEval[string](p, "check the newest row", "", e2eShownJS+`(`+e2eJS(row)+`)`) == "" {
			break
		}
	}

	if h := e2eEval[int](p, "measure the page", "", `document.documentElement.scrollHeight`); h > e2eLaptopHeight {
		t.Errorf("the server page is %d pixels tall in a %d-pixel window: it scrolls, and panes with it", h, e2eLaptopHeight)
	}
	for _, sel := range []string{row, e2eCard(tool), e2eCard(tool) + ` [data-testid="outcome"]`, `[data-testid="item-list"]`} {
		if why := e2eEval[string](p, "check that "+sel+" is in view", "", e2eShownJS+`(`+e2eJS(sel)+`)`); why != "" {
			t.Errorf("at %d×%d after calling %s: %s", e2eLaptopWidth, e2eLaptopHeight, tool, why)
		}
	}
	if cut := e2eEval[[]string](p, "look for cut tool names", `[data-testid="item-list"]`, e2eCutNamesJS); len(cut) > 0 {
		t.Errorf("server-everything's tool list cuts the names %q", cut)
	}
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	if shots != "" {
		p.screenshot(shots, "workbench-everything", e2eCard(tool))
	}

	p.connectDemoServer(srv.URL)
	p.openSection("tools")
	if cut := e2eEval[[]string](p, "look for cut tool names", `[data-testid="item-list"]`, e2eCutNamesJS); len(cut) > 0 {
		t.Errorf("the demo server's tool list cuts the names %q", cut)
	}
	if shots != "" {
		p.screenshot(shots, "workbench-demo", `[data-testid="item-list"]`)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// e2eBoxJS is the element's box in the window, as {x, y, width, height}.
const e2eBoxJS = `((sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })`

// e2eBox is a box as e2eBoxJS gives it.
type e2eBox struct{ X, Y, Width, Height float64 }

// TestBrowserAppsTab opens the Apps section of a real MCP App server
// (@modelcontextprotocol/server-basic-vanillajs) at 1440×900: it lists the
// server's app tools, and the app called from there gets most of the
// page's width and height. Full screen gives it the whole window, and so
// does the app's own ui/request-display-mode; Esc and the button give the
// window back. A server without apps says so in its Apps section. When
// PLAYGROUND_SCREENSHOT_DIR is set, apps-tab.png and apps-fullscreen.png
// are saved there.
func TestBrowserAppsTab(t *testing.T) {
	command := e2eBasicAppCommand(t)
	srv, p := e2eBrowse(t)
	p.do("make the window a laptop's", "", chromedp.EmulateViewport(e2eLaptopWidth, e2eLaptopHeight))
	id := srv.apiCreateServer(t, command)
	p.do("open the app server and connect", "main", chromedp.Navigate(fmt.Sprintf("%s/servers/%d", srv.URL, id)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
	p.openSection("apps")
	items := e2eEval[[]string](p, "list the apps", `[data-testid="item-list"]`,
		`Array.from(document.querySelectorAll('[data-testid="item-link"]'), a => a.dataset.item)`)
	if len(items) != 1 || items[0] != "get-time" {
		t.Fatalf("the Apps section lists %q, want the server's one app tool get-time", items)
	}
	p.submitTool("get-time")
	p.wantOutcome("get-time", "result")
	frame := e2eCard("get-time") + ` [data-testid="app-iframe"]`
	p.waitJS("the app frame shows", e2eCard("get-time"), `!!document.querySelector(`+e2eJS(frame)+`)`)
	inline := e2eEval[e2eBox](p, "measure the app", frame, e2eBoxJS+`(`+e2eJS(frame)+`)`)
	if inline.Width < 700 || inline.Height < 0.55*e2eLaptopHeight {
		t.Errorf("in the Apps section the app has %.0f×%.0f pixels of a %d×%d window, want at least 700 wide and over half the height",
			inline.Width, inline.Height, e2eLaptopWidth, e2eLaptopHeight)
	}
	src := e2eEval[string](p, "read the app frame's address", frame, `document.querySelector(`+e2eJS(frame)+`).src`)
	app := p.appWorld(src)
	p.waitApp(app, "the app shows the tool's result", `document.getElementById("server-time").textContent.startsWith("20") ? "yes" : ""`)
	// The app's page loads without a console error: its policy is one the
	// browser takes whole (no frame-ancestors source that it refuses).
	for _, m := range p.appConsoleErrors(app, frame) {
		if e2eOwnURLRefusal(m) {
			// The app's page asks for its own address from its opaque
			// origin; Debian's Chromium 148 reports it, later ones do not.
			continue
		}
		t.Errorf("the app's console: %s", m)
	}
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	if shots != "" {
		p.screenshot(shots, "apps-tab", `[data-testid="item-detail"]`)
	}

	full := func(what string, want bool) {
		t.Helper()
		cond := `((b) => b.width >= innerWidth - 40 && b.height >= innerHeight * 0.8)(` + e2eBoxJS + `(` + e2eJS(frame) + `))`
		if !want {
			cond = `!` + cond
		}
		p.waitJS(what, `[data-testid="app-frame"]`, cond)
	}
	button := `[data-testid="app-frame"] [data-testid="app-fullscreen"]`
	p.do("click Full screen", button, chromedp.Click(chromedp.CSS(button)))
	full("the app fills the window", true)
	if got := p.text(button); got != "Exit full screen" {
		t.Errorf("in full screen the button says %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "apps-fullscreen", `[data-testid="app-frame"]`)
	}
	p.do("press Esc", "", chromedp.KeyEvent("\x1b"))
	full("Esc gives the window back", false)

	// The app may ask for the whole window itself.
	mode := p.evalApp(app, `new Promise(resolve => {
		addEventListener("message", e => { if (e.data && e.data.id === "e2e-mode") resolve(JSON.stringify(e.data.result || e.data.error)); });
		parent.postMessage({jsonrpc: "2.0", id: "e2e-mode", method: "ui/request-display-mode", params: {mode: "fullscreen"}}, "*");
	})`)
	if mode != `{"mode":"fullscreen"}` {
		t.Errorf("the app's ui/request-display-mode fullscreen was answered %s", mode)
	}
	full("the app's request fills the window", true)
	p.do("click Exit full screen", button, chromedp.Click(chromedp.CSS(button)))
	full("Exit full screen gives the window back", false)

	p.connectDemoServer(srv.URL)
	p.openSection("apps")
	if got := p.text(`[data-testid="section-apps"] [data-testid="pick-item"]`); got != "This server offers no MCP Apps: none of its tools names a ui:// resource in _meta.ui.resourceUri." {
		t.Errorf("the demo server's Apps section says %q", got)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// e2eOwnURLRefusal reports whether a console message is Chromium refusing a
// sandboxed app page (opaque origin) a load of its own address, and
// nothing else.
func e2eOwnURLRefusal(m string) bool {
	rest, ok := strings.CutPrefix(m, "error: Unsafe attempt to load URL ")
	if !ok {
		return false
	}
	target, frameURL, ok := strings.Cut(strings.TrimSpace(rest), " from frame with URL ")
	frameURL = strings.TrimSuffix(frameURL, ". Domains, protocols and ports must match.")
	return ok && target == frameURL && strings.Contains(target, "/apps/")
}

// appConsoleErrors reloads the app's frame (the iframe that sel finds) and
// returns the console errors that its page gives as it loads again (those
// of its first load went by before the test could attach to its frame).
// The dashboard's page reloads it, as the dashboard would: a sandboxed
// page without allow-same-origin may not navigate itself, and Chromium
// says so on the console.
func (p *e2ePage) appConsoleErrors(app context.Context, sel string) []string {
	p.t.Helper()
	var mu sync.Mutex
	var errs []string
	loaded := make(chan struct{}, 1)
	go func() {
		for m, err := range chromedp.Console(app) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				mu.Lock()
				errs = append(errs, m.String())
				mu.Unlock()
			}
			if strings.Contains(m.String(), "ui/notifications/initialized") {
				select {
				case loaded <- struct{}{}:
				default:
				}
			}
		}
	}()
	e2eEval[string](p, "reload the app frame", sel, `(f => (setTimeout(() => { f.src = f.src }, 50), ""))(document.querySelector(`+e2eJS(sel)+`))`)
	select {
	case <-loaded:
	case <-time.After(e2eStepTimeout):
		p.t.Fatalf("the app did not load again after a reload")
	}
	time.Sleep(300 * time.Millisecond) // what the load logs after initializing
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(errs)
}

// TestBrowserTopBarHoldsManyServers connects seven servers, one with a
// long name, and opens a server's page at 1440×900: the top bar stays one
// line that overflows nothing, names the first servers and offers the
// others in its "4 more" menu, each server reachable by a link; the
// section tabs show no scroll bar.
func TestBrowserTopBarHoldsManyServers(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.do("make the window a laptop's", "", chromedp.EmulateViewport(e2eLaptopWidth, e2eLaptopHeight))
	p.connectDemoServer(srv.URL)
	lone := e2eEval[float64](p, "measure the top bar", "header.top", `document.querySelector("header.top").getBoundingClientRect().height`)
	var ids []int64
	for i := range 6 {
		name := fmt.Sprintf("server %d", i+2)
		if i == 0 {
			name = "a server whose name is longer than the top bar shows"
		}
		id := srv.apiCreateServer(t, map[string]any{"name": name, "transport": "stdio", "command": srv.Bin, "args": []string{"demo-server"}})
		e2ePostJSON(t, fmt.Sprintf("%s/api/v1/servers/%d/sessions", srv.URL, id), nil, http.StatusCreated, nil)
		ids = append(ids, id)
	}
	p.do("open a server's page", "main", chromedp.Navigate(fmt.Sprintf("%s/servers/%d/tools", srv.URL, ids[0])),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connected-servers"]`)))
	type tabsBox struct{ ScrollHeight, ClientHeight, ScrollWidth, ClientWidth float64 }
	type topBar struct {
		Height, ScrollWidth, ClientWidth float64
		Shown, InMenu                    int
		More                             string
		Overflowing                      []string
		Tabs                             tabsBox
	}
	bar := e2eEval[topBar](p, "measure the top bar", "header.top", `(() => {
		const h = document.querySelector("header.top"), more = h.querySelector('[data-testid="more-servers"] summary');
		const right = h.getBoundingClientRect().right;
		const tabs = document.querySelector('[data-testid="sections"]');
		return {
			height: h.getBoundingClientRect().height, scrollWidth: h.scrollWidth, clientWidth: h.clientWidth,
			shown: h.querySelectorAll('.connected > [data-testid="connected-server"]').length,
			inMenu: h.querySelectorAll('[data-testid="more-servers"] [data-testid="connected-server"]').length,
			more: more ? more.textContent.trim() : "",
			overflowing: Array.from(h.querySelectorAll("a, summary, button")).filter(e => e.offsetParent && e.getBoundingClientRect().right > right + 1).map(e => e.textContent.trim()),
			tabs: {scrollHeight: tabs.scrollHeight, clientHeight: tabs.clientHeight, scrollWidth: tabs.scrollWidth, clientWidth: tabs.clientWidth},
		};
	})()`)
	if bar.Height > lone+1 || bar.ScrollWidth > bar.ClientWidth || len(bar.Overflowing) > 0 {
		t.Errorf("with 7 servers the top bar is %.0f pixels tall (%.0f with one), %.0f of %.0f wide, and %q stick out", bar.Height, lone, bar.ScrollWidth, bar.ClientWidth, bar.Overflowing)
	}
	if bar.Shown+bar.InMenu != 7 || bar.InMenu == 0 || bar.More != fmt.Sprintf("%d more", bar.InMenu) {
		t.Errorf("the top bar names %d servers and its menu (%q) %d, want all 7, the rest in the menu", bar.Shown, bar.More, bar.InMenu)
	}
	if tb := bar.Tabs; tb.ScrollHeight > tb.ClientHeight || tb.ScrollWidth > tb.ClientWidth {
		t.Errorf("the section tabs scroll: %.0f of %.0f high, %.0f of %.0f wide", tb.ScrollHeight, tb.ClientHeight, tb.ScrollWidth, tb.ClientWidth)
	}
	if bar.InMenu > 0 {
		p.do("open the menu", "header.top", chromedp.Click(chromedp.CSS(`[data-testid="more-servers"] summary`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="more-servers"] [data-testid="connected-server"]`)))
		if shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); shots != "" {
			p.screenshot(shots, "top-bar-many", "header.top")
		}
		p.do("follow the menu's last server", "header.top",
			chromedp.Click(chromedp.CSS(`[data-testid="more-servers"] [data-testid="connected-server"]:last-child`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="connection"]`)))
		if got := p.text(`[data-testid="connection"] h1`); got == "" {
			t.Errorf("the menu's link led to no server page")
		}
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// e2eMainPages are the dashboard's pages that a person opens from the top
// bar and a server's tabs, for a demo server with the id and the session
// given; each is a path and what shows once it has loaded.
func e2eMainPages(serverID int64, sessionID string) [][2]string {
	server := fmt.Sprintf("/servers/%d", serverID)
	pages := [][2]string{
		{"/", `[data-testid="server-row"]`},
		{"/servers/new", "form"},
		{server + "/edit", "form"},
		{"/sessions", "main"},
		{"/sessions/" + sessionID, `[data-testid="traffic-panel"]`},
		{"/collections", "main"},
		{"/history", "main"},
		{"/account", "main"},
		{"/users", "main"},
		{"/audit", "main"},
		{server, `[data-testid="section-overview"]`},
	}
	for _, s := range []string{"tools", "apps", "resources", "prompts", "tasks", "logs", "console"} {
		pages = append(pages, [2]string{server + "/" + s, `[data-testid="section-` + s + `"]`})
	}
	return pages
}

// TestBrowserMainPagesObeyCSP opens every main page on a connected demo
// server and fails on any console error, a Content-Security-Policy
// violation (an inline style or script the policy refuses) above all.
func TestBrowserMainPagesObeyCSP(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	sessionID := p.liveSessionID()
	href := p.openDemoServerLink(srv.URL)
	var serverID int64
	if _, err := fmt.Sscanf(href, "/servers/%d", &serverID); err != nil {
		t.Fatalf("the demo server's link is %q: %v", href, err)
	}
	// An example saved and run, so that the collection's page and its
	// run's have something to show.
	p.do("open the demo server", "main", chromedp.Navigate(srv.URL+href), chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
	p.saveToCollection(p.callForSaving("echo", map[string]string{"message": "for the pages"}), "layout", "echo", true)
	pages := e2eMainPages(serverID, sessionID)
	p.do("open the collections", "main", chromedp.Navigate(srv.URL+"/collections"), chromedp.WaitVisible(chromedp.CSS(`main a[href^="/collections/"]`)))
	collection := e2eEval[string](p, "find the collection", "main", `document.querySelector('main a[href^="/collections/"]').getAttribute("href")`)
	p.do("open the collection", "main", chromedp.Navigate(srv.URL+collection), chromedp.WaitVisible(chromedp.CSS(`[data-testid="run-all"]`)))
	p.follow("run all", `[data-testid="run-all"]`)
	p.do("wait for the run to end", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="run-summary"]`)))
	run := e2eEval[string](p, "read the run's address", "main", `location.pathname`)
	p.do("search the history", "main", chromedp.Navigate(srv.URL+"/history?q=echo"), chromedp.WaitVisible(chromedp.CSS(`[data-testid="history-results"] a[href*="/exchanges/"]`)))
	exchange := e2eEval[string](p, "find an exchange", "main", `document.querySelector('[data-testid="history-results"] a[href*="/exchanges/"]').getAttribute("href")`)
	// A server that fails to connect, with the connection doctor's
	// diagnosis on its page.
	failing := srv.apiCreateServer(t, map[string]any{"name": "missing", "transport": "stdio", "command": "node", "args": []string{"/nonexistent/missing.js"}})
	e2ePostJSON(t, fmt.Sprintf("%s/api/v1/servers/%d/sessions", srv.URL, failing), nil, http.StatusBadGateway, nil)
	pages = append(pages, [2]string{fmt.Sprintf("/servers/%d", failing), `[data-testid="connection"]`})
	pages = append(pages, [2]string{collection, "main"}, [2]string{run, "main"}, [2]string{"/history?q=echo", `[data-testid="history-results"]`},
		[2]string{exchange, "main"}, [2]string{fmt.Sprintf("/servers/%d/revisions", serverID), "main"})
	p.mu.Lock()
	p.console = nil
	p.mu.Unlock()
	for _, pg := range pages {
		p.do("open "+pg[0], "main", chromedp.Navigate(srv.URL+pg[0]), chromedp.WaitVisible(chromedp.CSS(pg[1])))
		p.do("let "+pg[0]+" settle", "", chromedp.Sleep(300*time.Millisecond))
		for _, m := range p.consoleErrors() {
			t.Errorf("on %s, browser console: %s", pg[0], m)
		}
		p.mu.Lock()
		p.console = nil
		p.mu.Unlock()
	}
}

// e2eLowContrastJS lists the visible texts of the page whose colour stands
// out from the background behind them by a contrast ratio under 3 (WCAG's
// floor for large text and controls): what a theme leaves unreadable.
const e2eLowContrastJS = `(() => {
	const rgba = s => { const m = s.match(/[\d.]+/g) || [0, 0, 0, 0]; return m.map(Number).concat([1]).slice(0, 4); };
	const lum = ([r, g, b]) => { const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
	const behind = e => {
		for (let p = e; p; p = p.parentElement) {
			const c = rgba(getComputedStyle(p).backgroundColor);
			if (c[3] > 0.5) return c;
		}
		return rgba(getComputedStyle(document.documentElement).backgroundColor || "rgb(255,255,255)");
	};
	const low = [];
	for (const e of document.querySelectorAll("body *")) {
		if (!Array.from(e.childNodes).some(n => n.nodeType === 3 && n.textContent.trim())) continue;
		if (!e.getClientRects().length || getComputedStyle(e).visibility === "hidden" || e.closest("[disabled], option")) continue;
		const fg = rgba(getComputedStyle(e).color), bg = behind(e);
		const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
		const ratio = (a + 0.05) / (b + 0.05);
		if (ratio < 3) low.push(e.tagName.toLowerCase() + "." + e.className + " " + JSON.stringify(e.textContent.trim().slice(0, 40)) + " " + ratio.toFixed(2));
	}
	return low.slice(0, 20);
})()`

// TestBrowserThemes opens the main pages at 1440×900 on a browser whose
// system asks for a dark scheme: every page is dark, and no text on it is
// unreadable. The top bar's toggle switches to the light theme, which
// stays after a reload (localStorage) whatever the system says, and every
// page is readable in it too. When PLAYGROUND_SCREENSHOT_DIR is set, each
// page is saved there as theme-dark-NAME.png and theme-light-NAME.png.
func TestBrowserThemes(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.do("make the window a laptop's", "", chromedp.EmulateViewport(e2eLaptopWidth, e2eLaptopHeight))
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
		t.Fatalf("asking for the dark scheme: %v", err)
	}
	p.connectDemoServer(srv.URL)
	sessionID := p.liveSessionID()
	p.callForSaving("echo", map[string]string{"message": "in the dark"})
	var serverID int64
	if _, err := fmt.Sscanf(p.openDemoServerLink(srv.URL), "/servers/%d", &serverID); err != nil {
		t.Fatal(err)
	}
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	check := func(theme string) {
		t.Helper()
		for _, pg := range e2eMainPages(serverID, sessionID) {
			p.do("open "+pg[0], "main", chromedp.Navigate(srv.URL+pg[0]), chromedp.WaitVisible(chromedp.CSS(pg[1])))
			got := e2eEval[string](p, "read the theme", "", `document.documentElement.dataset.theme + " " + getComputedStyle(document.body).backgroundColor`)
			dark := strings.HasPrefix(got, "dark rgb(21, 22, 26)")
			if (theme == "dark") != dark {
				t.Errorf("on %s the theme is %q, want %s", pg[0], got, theme)
			}
			if low := e2eEval[[]string](p, "look for unreadable text", "", e2eLowContrastJS); len(low) > 0 {
				t.Errorf("in the %s theme %s has texts hard to read: %q", theme, pg[0], low)
			}
			if shots != "" {
				name := strings.NewReplacer("/", "-", "?", "-", "=", "-").Replace(strings.Trim(pg[0], "/"))
				if name == "" {
					name = "servers"
				}
				p.screenshot(shots, "theme-"+theme+"-"+name, "body")
			}
		}
	}
	check("dark")

	p.do("switch to the light theme", "header.top", chromedp.Click(chromedp.CSS(`[data-testid="theme-toggle"]`)))
	p.waitJS("the page turns light", "", `document.documentElement.dataset.theme === "light"`)
	if got := e2eEval[string](p, "read the stored theme", "", `localStorage.getItem("playground-theme")`); got != "light" {
		t.Errorf("the stored theme is %q, want light", got)
	}
	if got := p.text(`[data-testid="theme-toggle"]`); got != "Dark theme" {
		t.Errorf("in the light theme the toggle says %q", got)
	}
	check("light")
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
