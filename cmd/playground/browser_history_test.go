package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// e2eOffByOneServer serves an official Go SDK server whose add tool
// answers one more than the sum: a second server to replay to.
func e2eOffByOneServer(t *testing.T) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "off-by-one", Version: "1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "adds, badly"},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			A float64 `json:"a"`
			B float64 `json:"b"`
		}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strconv.FormatFloat(in.A+in.B+1, 'g', -1, 64)}}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// TestBrowserHistory finds an exchange by a word that occurs only in its
// result, opens its permalink and sees the request and the response, then
// replays it to a second server, whose different answer shows as a diff,
// and to the first, whose answer matches.
func TestBrowserHistory(t *testing.T) {
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	p.connectDemoServer(srv.URL)
	card := e2eCard("add")
	p.openTool("add")
	for _, ab := range [][2]string{{"31415", "27182"}, {"1", "2"}} { // the first sum, 58597, is in its result alone
		p.setValue(card+` [name="arg.a"]`, ab[0])
		p.setValue(card+` [name="arg.b"]`, ab[1])
		p.submitTool("add")
		p.wantOutcome("add", "result")
	}

	e2eNavigate(p, "open the history page", srv.URL+"/history", `[data-testid="history-form"]`)
	p.typeInto(`[data-testid="history-q"]`, "58597")
	p.follow("search", `[data-testid="history-search"]`)
	rows := e2eEval[[]string](p, "read the rows", "main",
		`Array.from(document.querySelectorAll('[data-testid="history-row"]'), r => r.innerText)`)
	if len(rows) != 1 || !strings.Contains(rows[0], "tools/call") || !strings.Contains(rows[0], "add") || !strings.Contains(rows[0], "58597") {
		t.Fatalf("history rows for 58597 = %q, want the one add call", rows)
	}
	if mark := p.text(`[data-testid="history-excerpt"] mark`); mark != "58597" {
		t.Errorf("the excerpt marks %q", mark)
	}
	if shots != "" {
		p.screenshot(shots, "history-search", `[data-testid="history-results"]`)
	}

	p.follow("open the permalink", `[data-testid="exchange-link"]`)
	if req := p.text(`[data-testid="exchange-request"]`); !strings.Contains(req, "31415") || !strings.Contains(req, "27182") {
		t.Errorf("the request reads %q", req)
	}
	if resp := p.text(`[data-testid="exchange-response"]`); !strings.Contains(resp, "58597") {
		t.Errorf("the response reads %q", resp)
	}
	if call := p.text(`[data-testid="copy-call"]`); !strings.Contains(call, "playground call --stdio") || !strings.Contains(call, `"name":"add"`) || strings.Contains(call, "_meta") {
		t.Errorf("the playground call command reads %q", call)
	}
	p.do("click Copy", "main", chromedp.Click(chromedp.CSS(`[data-testid="copy-jsonrpc-button"]`)))
	p.waitJS("wait for the copy button to answer", `[data-testid="copy-jsonrpc-button"]`,
		`document.querySelector('[data-testid="copy-jsonrpc-button"]').textContent !== "Copy"`)
	if shots != "" {
		p.screenshot(shots, "history-exchange", `[data-testid="exchange-request"]`)
	}

	// Replay: to a second server that adds badly, then to the demo server.
	second := srv.apiCreateServer(t, map[string]any{"name": "Off by one", "transport": "http", "url": e2eOffByOneServer(t)})
	var sess struct{ ID int64 }
	e2ePostJSON(t, fmt.Sprintf("%s/api/v1/servers/%d/sessions", srv.URL, second), nil, http.StatusCreated, &sess)
	p.do("reload the permalink, which now offers both sessions", "main", chromedp.Reload(),
		chromedp.WaitReady(chromedp.CSS(fmt.Sprintf(`[data-testid="replay-session"] option[value="%d"]`, sess.ID))))
	replay := func(session int64, want string) {
		t.Helper()
		p.do("choose the session", "main", chromedp.SetValue(chromedp.CSS(`[data-testid="replay-session"]`), strconv.FormatInt(session, 10)))
		p.do("clear the last replay", "main", chromedp.Evaluate[chromedp.Void](`document.getElementById("replay-result").replaceChildren()`))
		p.do("replay", "main", chromedp.Click(chromedp.CSS(`[data-testid="replay-send"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="replay-result"] [data-testid="run-result"]`)))
		if got := e2eEval[string](p, "read the outcome", "main", `document.querySelector('[data-testid="replay-result"] [data-testid="run-result"]').dataset.outcome`); got != want {
			t.Errorf("replay on session %d: %s, want %s\n%s", session, got, want, p.dump(`[data-testid="replay-result"]`))
		}
	}
	replay(sess.ID, "fail")
	if diff := p.text(`[data-testid="replay-result"] [data-testid="diff-row"]`); !strings.Contains(diff, "/content/0/text") || !strings.Contains(diff, "58597") || !strings.Contains(diff, "58598") {
		t.Errorf("the replay's diff reads %q", diff)
	}
	if shots != "" {
		p.screenshot(shots, "history-replay", `[data-testid="replay"]`)
	}
	demo, err := strconv.ParseInt(strings.TrimPrefix(e2eEval[string](p, "find the exchange's session", "main",
		`document.querySelector('[data-testid="exchange-meta"] a[href^="/sessions/"]').getAttribute("href")`), "/sessions/"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	replay(demo, "pass")

	// The exchange can be kept as an example from its permalink too.
	save := `.exchange-save [data-testid="save-to-collection"]`
	if got := p.saveToCollection(save, "From history", "big sum", true); !strings.Contains(got, "big sum") || !strings.Contains(got, "From history") {
		t.Errorf("the saved message reads %q", got)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
