package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestBrowserResources drives the Resources section against
// server-everything: it opens a resource by its stable URL and reads it,
// and after a reload its card shows that read again; it reads a text and a binary resource through their templates' variable
// forms, and subscribes to a resource, whose update then shows on it live
// (server-everything sends updates every 5 s once its
// toggle-subscriber-updates tool ran); Read again shows the new contents.
// Paging runs against an SDK server that lists two resources a page, since
// server-everything lists all of its own in one. Screenshots go to
// PLAYGROUND_SCREENSHOT_DIR when it is set.
func TestBrowserResources(t *testing.T) {
	everything := filepath.Join(e2eNodeModules(), "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(everything); err != nil {
		t.Skipf("needs @modelcontextprotocol/server-everything in node_modules: %v", err)
	}
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	var created struct {
		ID int64 `json:"id"`
	}
	e2ePostJSON(t, srv.URL+"/api/v1/servers", map[string]any{"name": "everything", "transport": "stdio",
		"command": "node", "args": []string{everything, "stdio"}}, http.StatusCreated, &created)
	section := fmt.Sprintf("%s/servers/%d/resources", srv.URL, created.ID)
	p.do("open the Resources section and connect", "main", chromedp.Navigate(section),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="not-connected"] button`)),
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="tab-resources"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="resource-items"] [data-testid="item-link"]`)))
	if shots != "" {
		p.screenshot(shots, "resources-list", `[data-testid="section-resources"]`)
	}

	const doc = "demo://resource/static/document/features.md"
	t.Run("open a resource by its URL and read it", func(t *testing.T) {
		p.do("open "+doc, "main", chromedp.Navigate(section+"?uri="+url.QueryEscape(doc)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="resource"]`)))
		if got := p.text(`[data-testid="resource-uri"]`); got != doc {
			t.Errorf("the open resource is %q", got)
		}
		if !e2eEval[bool](p, "find the active list entry", "main",
			`!!document.querySelector('[data-testid="item-link"].active[data-item=`+e2eJS(doc)+`]')`) {
			t.Error("the list does not mark the open resource")
		}
		p.do("read it", `[data-testid="resource"]`, chromedp.Click(chromedp.CSS(`[data-testid="read"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="resource-text"]`)))
		if got := p.text(`[data-testid="resource-text"]`); !strings.Contains(got, "Features") {
			t.Errorf("the read shows %.200q", got)
		}
		if shots != "" {
			p.screenshot(shots, "resource-read", `[data-testid="resource"]`)
		}
		slot := `[data-testid="read-slot"]`
		e2eNavigate(p, "reload "+doc, section+"?uri="+url.QueryEscape(doc), slot+` [data-testid="outcome-from"]`)
		if got := p.text(slot + ` [data-testid="resource-text"]`); !strings.Contains(got, "Features") {
			t.Errorf("after a reload the read slot shows %.200q", got)
		}
		if got := p.text(slot + ` [data-testid="outcome-from"]`); !strings.Contains(got, "Last call, from") || !strings.Contains(got, "session "+p.liveSessionID()) {
			t.Errorf("after a reload the origin line reads %q", got)
		}
		if shots != "" {
			p.screenshot(shots, "resource-reloaded", `[data-testid="resource"]`)
		}
	})

	readTemplate := func(t *testing.T, tmpl, id string) {
		t.Helper()
		p.do("open the template "+tmpl, "main", chromedp.Navigate(section+"?template="+url.QueryEscape(tmpl)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="template-form"]`)))
		input := `[data-testid="template-var"][data-var="resourceId"]`
		if got := e2eEval[string](p, "read the completion attributes", "main",
			`(() => { const i = document.querySelector(`+e2eJS(input)+`); return [i.dataset.completeRef, i.dataset.completeName, i.dataset.completeArg].join(" "); })()`); got != "resource "+tmpl+" resourceId" {
			t.Errorf("the variable's completion attributes read %q", got)
		}
		p.setValue(input, id)
		p.do("read through the form", "main", chromedp.Click(chromedp.CSS(`[data-testid="template-read"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="expanded-uri"]`)))
	}
	t.Run("template with a text resource", func(t *testing.T) {
		readTemplate(t, "demo://resource/dynamic/text/{resourceId}", "7")
		if got := p.text(`[data-testid="expanded-uri"]`); got != "demo://resource/dynamic/text/7" {
			t.Errorf("the expanded URI is %q", got)
		}
		p.waitJS("wait for the text", "main", `(document.querySelector('[data-testid="resource-text"]') || {textContent: ""}).textContent.startsWith("Resource 7:")`)
		if shots != "" {
			p.screenshot(shots, "resource-template", `[data-testid="template"]`)
		}
		p.do("open the expanded URI as a resource", "main", chromedp.Click(chromedp.CSS(`[data-testid="open-expanded"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="resource"]`)))
		if got := p.text(`[data-testid="resource-uri"]`); got != "demo://resource/dynamic/text/7" {
			t.Errorf("the expanded URI opened %q", got)
		}
	})
	t.Run("template with a binary resource", func(t *testing.T) {
		readTemplate(t, "demo://resource/dynamic/blob/{resourceId}", "3")
		p.waitJS("wait for the download link", "main", `!!document.querySelector('[data-testid="resource-download"]')`)
		if got := e2eEval[string](p, "read the link", "main", `document.querySelector('[data-testid="resource-download"]').getAttribute("href")`); !strings.HasPrefix(got, "data:application/octet-stream;base64,") {
			t.Errorf("the download link is %.80q", got)
		}
	})

	t.Run("subscription update shown live", func(t *testing.T) {
		subscribe := func(uri string) {
			t.Helper()
			p.do("open "+uri+" and subscribe", "main", chromedp.Navigate(section+"?uri="+url.QueryEscape(uri)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="subscribe"]`)),
				chromedp.Click(chromedp.CSS(`[data-testid="subscribe"]`)),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid="unsubscribe"]`)))
		}
		// The document is listed; the dynamic resource is not, and says the
		// time it was read.
		const dynamic = "demo://resource/dynamic/text/1"
		subscribe(doc)
		subscribe(dynamic)
		p.waitLive()
		p.do("read it", `[data-testid="resource"]`, chromedp.Click(chromedp.CSS(`[data-testid="read"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="resource-text"]`)))
		first := p.text(`[data-testid="resource-text"]`)
		if e2eEval[bool](p, "look for an update", "main", `!!document.querySelector('[data-testid="updated-at"], [data-testid="resource-marker"] .updated')`) {
			t.Fatal("the page shows an update before any")
		}
		// server-everything sends updates once this tool ran.
		e2ePostJSON(t, fmt.Sprintf("%s/api/v1/sessions/%s/requests", srv.URL, p.liveSessionID()),
			map[string]any{"method": "tools/call", "params": map[string]any{"name": "toggle-subscriber-updates", "arguments": map[string]any{}}},
			http.StatusOK, nil)
		p.waitJS("wait for the update on the resource", `[data-testid="resource"]`, `!!document.querySelector('[data-testid="updated-at"]')`)
		p.waitJS("wait for the list to mark the updated document", `[data-testid="item-list"]`,
			`!!document.querySelector('[data-testid="item-link"][data-item=`+e2eJS(doc)+`] .updated')`)
		time.Sleep(1100 * time.Millisecond) // the dynamic text names the second it was read
		p.do("read again", `[data-testid="resource"]`, chromedp.Click(chromedp.CSS(`[data-testid="read-again"]`)))
		p.waitJS("wait for the new contents", `[data-testid="resource"]`,
			`(document.querySelector('[data-testid="resource-text"]') || {textContent: ""}).textContent !== `+e2eJS(first))
		if shots != "" {
			p.screenshot(shots, "resource-updated", `[data-testid="resource"]`)
		}
		p.do("unsubscribe", `[data-testid="resource"]`, chromedp.Click(chromedp.CSS(`[data-testid="unsubscribe"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="subscribe"]`)))
	})

	t.Run("paging", func(t *testing.T) {
		e2ePostJSON(t, srv.URL+"/api/v1/servers", map[string]any{"name": "paged", "transport": "http", "url": e2ePagedResourceServer(t)},
			http.StatusCreated, &created)
		paged := fmt.Sprintf("%s/servers/%d/resources", srv.URL, created.ID)
		p.do("open the paged server and connect", "main", chromedp.Navigate(paged),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
			chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)),
			chromedp.Navigate(paged),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="more-resources"]`)))
		count := func() int {
			return e2eEval[int](p, "count the resources", "main", `document.querySelectorAll('[data-testid="resource-items"] [data-testid="item-link"]').length`)
		}
		if n := count(); n != 2 {
			t.Errorf("the first page lists %d resources, want 2", n)
		}
		p.do("load the next page", "main", chromedp.Click(chromedp.CSS(`[data-testid="more-resources"]`)))
		p.waitJS("wait for the next page", "main", `document.querySelectorAll('[data-testid="resource-items"] [data-testid="item-link"]').length === 4`)
		p.do("load the last page", "main", chromedp.Click(chromedp.CSS(`[data-testid="more-resources"]`)))
		p.waitJS("wait for the last page", "main", `document.querySelectorAll('[data-testid="resource-items"] [data-testid="item-link"]').length === 5 && !document.querySelector('[data-testid="more-resources"]')`)
		p.do("open one of the last page", "main", chromedp.Click(chromedp.CSS(`[data-item="paged://5"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="resource"][data-resource="paged://5"]`)))
		if shots != "" {
			p.screenshot(shots, "resources-paged", `[data-testid="section-resources"]`)
		}
	})
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// e2ePagedResourceServer serves an SDK server with five resources, two a
// page, over Streamable HTTP on loopback, and returns its MCP URL.
func e2ePagedResourceServer(t *testing.T) string {
	s := mcp.NewServer(&mcp.Implementation{Name: "paged", Version: "1.0"}, &mcp.ServerOptions{PageSize: 2})
	for i := 1; i <= 5; i++ {
		uri := fmt.Sprintf("paged://%d", i)
		s.AddResource(&mcp.Resource{URI: uri, Name: fmt.Sprintf("item %d", i), MIMEType: "text/plain"},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, Text: uri}}}, nil
			})
	}
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}
