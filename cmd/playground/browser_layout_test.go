package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

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
	// The panel follows its newest frame once the row has been laid out.
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if e2eEval[string](p, "check the newest row", "", e2eShownJS+`(`+e2eJS("#"+newest)+`)`) == "" {
			break
		}
	}

	if h := e2eEval[int](p, "measure the page", "", `document.documentElement.scrollHeight`); h > e2eLaptopHeight {
		t.Errorf("the server page is %d pixels tall in a %d-pixel window: it scrolls, and panes with it", h, e2eLaptopHeight)
	}
	for _, sel := range []string{"#" + newest, e2eCard(tool), e2eCard(tool) + ` [data-testid="outcome"]`, `[data-testid="item-list"]`} {
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
