package main

import (
	"context"
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

// e2eRevealCookie is the cookie e2eCookieServer sets: a secret behind
// markup that must stay text, and a token long enough to need breaking.
var e2eRevealCookie = `sid=<script>alert("cookie")</script>cookie-s3cret-` + strings.Repeat("0123456789abcdef", 24)

// e2eCookieServer serves an official Go SDK server over Streamable HTTP
// that sets e2eRevealCookie on every answer, and returns its MCP URL with
// the credentials ann:url-s3cret-pw in it.
func e2eCookieServer(t *testing.T) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "cookies", Version: "1.0"}, nil)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Set-Cookie", e2eRevealCookie)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	u, _ := url.Parse(ts.URL + "/mcp")
	u.User = url.UserPassword("ann", "url-s3cret-pw")
	return u.String()
}

// TestBrowserRevealFrameSecrets opens, as an admin, the page of the
// initialize request sent to a server with credentials in its URL and a
// configured Authorization header: the card lists the URL as sealed and
// the header as not recorded. A double click on Reveal sends one request,
// audited once; the URL then shows in the code font, the button gives way
// to Hide values, which drops the values from the page and brings the
// button back without a request. The response's cookie, revealed, is
// text: its script does not run, its long token wraps within the card. A
// request without a sealed value offers no reveal and says so; a
// server's settings reveal and hide alike. A viewer sees neither the
// button nor a value. When
// PLAYGROUND_SCREENSHOT_DIR is set, the card is saved there before and
// after the reveal (reveal-before.png, reveal-after.png, reveal-cookie.png,
// reveal-nothing-sealed.png, reveal-server.png, reveal-viewer.png).
func TestBrowserRevealFrameSecrets(t *testing.T) {
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	id := srv.apiCreateServer(t, map[string]any{"name": "Cookies", "transport": "http", "url": e2eCookieServer(t),
		"headers": map[string]string{"Authorization": "Bearer conf-s3cret-token"}})
	request, response := e2eInitializeFrames(t, srv, id)
	card := `[data-testid="frame-http"]`
	rowsJS := `Array.from(document.querySelectorAll('[data-testid="frame-http"] tr[data-testid]'), r => r.innerText.replace(/\s+/g, " ").trim())`

	e2eNavigate(p, "open the request's page", fmt.Sprintf("%s/frames/%d/body", srv.URL, request), card)
	rows := e2eEval[[]string](p, "read the secret places", card, rowsJS)
	want := []string{"URL url sealed — shown as REDACTED",
		"header Authorization not recorded — the server's configured secret is replaced before recording"}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("before the reveal the card lists %q, want %q", rows, want)
	}
	if shots != "" {
		p.screenshot(shots, "reveal-before", card)
	}

	p.do("double-click Reveal", card, chromedp.Evaluate[chromedp.Void](`(() => {
		const b = document.querySelector('[data-testid="reveal-frame-http"]');
		b.click(); b.click();
	})()`))
	p.do("wait for the values", card, chromedp.WaitVisible(chromedp.CSS(`[data-testid="hide-secrets"]`)))
	rows = e2eEval[[]string](p, "read the revealed values", card, rowsJS)
	if len(rows) != 2 || !strings.HasPrefix(rows[0], "URL url http://ann:url-s3cret-pw@127.0.0.1:") || rows[1] != want[1] {
		t.Errorf("after the reveal the card lists %q", rows)
	}
	if shown := e2eEval[bool](p, "look for the Reveal button", card,
		`!document.querySelector('[data-testid="reveal-frame-http"]').hidden`); shown {
		t.Error("after the reveal the Reveal button is still offered")
	}
	if focused := e2eEval[string](p, "read the focus", card, `document.activeElement.dataset.testid || ""`); focused != "hide-secrets" {
		t.Errorf("after the reveal the focus is on %q, want Hide values", focused)
	}
	style := e2eEval[[]string](p, "read the value's style", card, `(() => {
		const s = getComputedStyle(document.querySelector('[data-testid="revealed-secret"] .secret-value'));
		return [s.fontFamily, s.overflowWrap];
	})()`)
	if !strings.Contains(style[0], "mono") || style[1] != "anywhere" {
		t.Errorf("a revealed value's font is %q and it wraps %q, want monospace wrapping anywhere", style[0], style[1])
	}
	if shots != "" {
		p.screenshot(shots, "reveal-after", card)
	}
	revealsJS := `performance.getEntriesByType("resource").filter(e => e.name.endsWith("/reveal")).length`
	sent := e2eEval[int](p, "count the reveal requests", card, revealsJS)
	if sent != 1 {
		t.Errorf("the double click sent %d reveal requests, want 1", sent)
	}

	p.do("hide the values", card, chromedp.Click(chromedp.CSS(`[data-testid="hide-secrets"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="reveal-frame-http"]`)))
	if rows := e2eEval[[]string](p, "read the card after hiding", card, rowsJS); fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("after hiding the card lists %q, want %q", rows, want)
	}
	if held := e2eEval[bool](p, "look for the value", "main", `document.documentElement.outerHTML.includes("url-s3cret-pw")`); held {
		t.Error("after hiding the page still holds the revealed value")
	}
	if n := e2eEval[int](p, "count the reveal requests", card, revealsJS); n != sent {
		t.Errorf("hiding sent %d reveal requests", n-sent)
	}
	if n := e2eRevealAudits(t, srv); n != 1 {
		t.Errorf("the audit log holds %d reveals, want 1", n)
	}

	e2eNavigate(p, "open the response's page", fmt.Sprintf("%s/frames/%d/body", srv.URL, response), card)
	p.do("reveal the cookie", card, chromedp.Click(chromedp.CSS(`[data-testid="reveal-frame-http"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="hide-secrets"]`)))
	cookie := e2eEval[[]any](p, "read the cookie", card, `(() => {
		const cell = Array.from(document.querySelectorAll('[data-testid="revealed-secret"]')).find(r => r.innerText.includes("Set-Cookie")).querySelector(".secret-value");
		const c = document.querySelector('[data-testid="frame-http"]').getBoundingClientRect();
		return [cell.textContent, cell.querySelectorAll("*").length, cell.getBoundingClientRect().right <= c.right];
	})()`)
	if cookie[0] != e2eRevealCookie || cookie[1] != float64(0) || cookie[2] != true {
		t.Errorf("the revealed cookie reads %q with %v elements inside, within the card: %v", cookie[0], cookie[1], cookie[2])
	}
	if shots != "" {
		p.screenshot(shots, "reveal-cookie", card)
	}

	// Without credentials in its URL, the request holds no sealed value.
	plain, _ := url.Parse(e2eCookieServer(t))
	plain.User = nil
	plainID := srv.apiCreateServer(t, map[string]any{"name": "Plain", "transport": "http", "url": plain.String(),
		"headers": map[string]string{"Authorization": "Bearer conf-s3cret-token"}})
	plainRequest, _ := e2eInitializeFrames(t, srv, plainID)
	e2eNavigate(p, "open the plain request's page", fmt.Sprintf("%s/frames/%d/body", srv.URL, plainRequest), card)
	if n := e2eEval[int](p, "look for the Reveal button", card, `document.querySelectorAll('[data-testid="reveal-frame-http"]').length`); n != 0 {
		t.Error("a request with nothing sealed offers a reveal")
	}
	if got := p.text(`[data-testid="nothing-sealed"]`); got != "Nothing in this exchange is sealed, so there is nothing to reveal." {
		t.Errorf("a request with nothing sealed says %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "reveal-nothing-sealed", card)
	}

	// The server's settings reveal alike.
	e2eNavigate(p, "open the server's settings", fmt.Sprintf("%s/servers/%d/edit", srv.URL, plainID), `[data-testid="reveal-card"]`)
	p.do("reveal the settings", `[data-testid="reveal-card"]`, chromedp.Click(chromedp.CSS(`[data-testid="reveal-secrets"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="hide-secrets"]`)))
	if got := p.text(`[data-testid="reveal-card"] [data-testid="revealed-secret"]`); !strings.Contains(got, "Bearer conf-s3cret-token") {
		t.Errorf("the settings' reveal reads %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "reveal-server", `[data-testid="reveal-card"]`)
	}
	p.do("hide the settings", `[data-testid="reveal-card"]`, chromedp.Click(chromedp.CSS(`[data-testid="hide-secrets"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="reveal-secrets"]`)))
	if held := e2eEval[bool](p, "look for the value", "main", `document.documentElement.outerHTML.includes("conf-s3cret-token")`); held {
		t.Error("after hiding the settings the page still holds the value")
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}

	srv.addUser(t, "vera", "viewer")
	ctx, cancel := context.WithTimeout(context.Background(), e2eBrowserTimeout)
	t.Cleanup(cancel)
	vera := e2eOpenBrowser(t, ctx, e2eChromium(t))
	vera.signInAs(srv, "vera")
	e2eNavigate(vera, "open the request's page as a viewer", fmt.Sprintf("%s/frames/%d/body", srv.URL, request), card)
	if n := e2eEval[int](vera, "look for reveal controls", card,
		`document.querySelectorAll('[data-testid="reveal-frame-http"], [data-testid="hide-secrets"], [data-testid="secrets-table"]').length`); n != 0 {
		t.Errorf("the viewer is offered %d reveal controls or tables", n)
	}
	if hint := vera.text(`[data-testid="redaction-hint"]`); !strings.Contains(hint, "[redacted]") || !strings.Contains(hint, "REDACTED") {
		t.Errorf("the viewer's hint reads %q, want both markers", hint)
	}
	if shots != "" {
		vera.screenshot(shots, "reveal-viewer", card)
	}
}

// e2eInitializeFrames connects to server id and returns the frame ids of
// the initialize request and of its result.
func e2eInitializeFrames(t *testing.T, srv *e2eServer, id int64) (request, response int64) {
	t.Helper()
	var sess struct{ ID int64 }
	e2ePostJSON(t, fmt.Sprintf("%s/api/v1/servers/%d/sessions", srv.URL, id), nil, http.StatusCreated, &sess)
	for deadline := time.Now().Add(10 * time.Second); (request == 0 || response == 0) && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, f := range srv.apiFrames(t, fmt.Sprint(sess.ID)) {
			switch {
			case f.Method == "initialize" && f.RPCType == "request":
				request = f.ID
			case f.Method == "initialize" && f.RPCType == "result":
				response = f.ID
			}
		}
	}
	if request == 0 || response == 0 {
		t.Fatalf("session %d recorded no initialize exchange", sess.ID)
	}
	return request, response
}

// e2eRevealAudits returns how many secret.reveal events srv's audit log
// holds (its export writes what is queued first).
func e2eRevealAudits(t *testing.T, srv *e2eServer) int {
	t.Helper()
	resp, err := e2eHTTPGet(srv.URL + "/audit/export?action=secret.reveal")
	if err != nil {
		t.Fatalf("export the audit log: %v", err)
	}
	return strings.Count(e2eReadAll(t, resp), `"action":"secret.reveal"`)
}
