package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserConnectDiagnosis registers an HTTP+SSE server as Streamable
// HTTP and connects: the failure shows its diagnosis under the error on the
// server page, what was checked unfolds, and the suggestion's button
// switches the server to HTTP+SSE and connects. A server behind a
// self-signed certificate shows the certificate. When
// PLAYGROUND_SCREENSHOT_DIR is set, screenshots go there
// (connect-diagnosis.png, connect-diagnosis-checked.png,
// connect-diagnosis-tls.png and their -full versions).
// It needs PLAYGROUND_CHROMIUM.
func TestBrowserConnectDiagnosis(t *testing.T) {
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	const head = `[data-testid="connection"]`
	const diagnosis = `[data-testid="diagnosis"]`
	addAndConnect := func(name, url string) {
		t.Helper()
		const form = `[data-testid="server-form"]`
		e2eNavigate(p, "open the new-server form", srv.URL+"/servers/new", form)
		p.choose("#transport", "Streamable HTTP — connect to a URL")
		p.typeInto("#name", name)
		p.typeInto("#url", url)
		p.do("save "+name, form, chromedp.Click(chromedp.CSS(`[data-testid="save-server"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)))
		p.do("connect "+name, head, chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
			chromedp.WaitVisible(chromedp.CSS(diagnosis)))
	}

	addAndConnect("Legacy SSE server", startSDKSSE(t))
	if got := p.text(`[data-testid="diagnosis-summary"]`); !strings.Contains(got, "This URL is an HTTP+SSE server") {
		t.Errorf("the diagnosis says %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "connect-diagnosis", head)
	}
	p.do("unfold what was checked", head, chromedp.Click(chromedp.CSS(`[data-testid="diagnosis-findings"] summary`)))
	if got := p.text(`[data-testid="diagnosis-findings"]`); !strings.Contains(got, "an endpoint event (an HTTP+SSE server)") {
		t.Errorf("the findings say %q", got)
	}
	if overflow := e2eEval[bool](p, "measure the banner", head,
		`(() => { const b = document.querySelector('[data-testid="connect-error"]'); return b.scrollWidth > b.clientWidth || document.documentElement.scrollWidth > document.documentElement.clientWidth; })()`); overflow {
		t.Error("the diagnosis overflows its banner or the page")
	}
	if shots != "" {
		p.screenshot(shots, "connect-diagnosis-checked", head)
	}
	p.do("try the suggestion", head, chromedp.Click(chromedp.CSS(`[data-testid="try-fix"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="current-session"]`)))
	p.waitLive()
	if badge := p.text(head + ` .badge`); badge != "sse" {
		t.Errorf("the server's transport after the fix shows as %q, want sse", badge)
	}

	// A web site where the MCP server was expected: a page, then a 404 page.
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path != "/" {
			w.WriteHeader(http.StatusNotFound)
		}
		fmt.Fprint(w, "<!DOCTYPE html><html><head><title>Acme Intranet</title><style>p{margin:0}</style></head><body>"+strings.Repeat("<p>news</p>", 300)+"</body></html>")
	}))
	t.Cleanup(site.Close)
	for _, c := range []struct{ name, url, said string }{
		{"Web page", site.URL + "/", `This URL is not an MCP endpoint: it answered HTTP 200 with a web page titled "Acme Intranet"`},
		{"Missing page", site.URL + "/api", "The server answered HTTP 404 Not Found at this URL"},
	} {
		addAndConnect(c.name, c.url)
		if got := p.text(`[data-testid="diagnosis-summary"]`); !strings.Contains(got, c.said) {
			t.Errorf("%s: the diagnosis says %q", c.name, got)
		}
		p.do("unfold what was checked", head, chromedp.Click(chromedp.CSS(`[data-testid="diagnosis-findings"] summary`)))
		if got := p.text(`[data-testid="connect-error"]`); strings.Contains(got, "<") || strings.Contains(got, "news news") {
			t.Errorf("%s: the failed connect quotes the page's markup or text: %q", c.name, got)
		}
		if shots != "" {
			p.screenshot(shots, "connect-diagnosis-"+strings.ToLower(strings.ReplaceAll(c.name, " ", "-")), head)
		}
	}

	tlsServer := httptest.NewTLSServer(http.NotFoundHandler())
	t.Cleanup(tlsServer.Close)
	addAndConnect("Self-signed", tlsServer.URL+"/mcp")
	p.waitJS("read the TLS diagnosis", diagnosis, `(() => { const d = document.querySelector('[data-testid="diagnosis"]');
		return !!d && d.textContent.includes("authority this machine does not trust") && d.textContent.includes("CA bundle"); })()`)
	p.do("unfold what was checked", head, chromedp.Click(chromedp.CSS(`[data-testid="diagnosis-findings"] summary`)))
	if shots != "" {
		p.screenshot(shots, "connect-diagnosis-tls", head)
	}
}
