package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserHistoryImport makes a call on the demo server, downloads the
// history search that finds it as NDJSON from the history page's export
// link, imports the file through the import form, and sees the imported
// session with its read-only badge and its frames, which history then
// finds beside the recorded ones.
func TestBrowserHistoryImport(t *testing.T) {
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	p.connectDemoServer(srv.URL)
	card := e2eCard("add")
	p.openTool("add")
	p.setValue(card+` [name="arg.a"]`, "60606")
	p.setValue(card+` [name="arg.b"]`, "6060") // 66666 occurs in the result alone
	p.submitTool("add")
	p.wantOutcome("add", "result")

	e2eNavigate(p, "search history", srv.URL+"/history?q=66666", `[data-testid="history-results"]`)
	href := e2eEval[string](p, "find the export link", "main", `document.querySelector('[data-testid="history-export"]').getAttribute("href")`)
	if href != "/history/export?q=66666" {
		t.Fatalf("the export link is %q", href)
	}
	if shots != "" {
		p.screenshot(shots, "history-export", "main")
	}
	resp, err := e2eHTTPGet(srv.URL + href)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment;") {
		t.Fatalf("GET %s: %d %q %v", href, resp.StatusCode, resp.Header.Get("Content-Disposition"), err)
	}
	if lines := strings.Count(string(body), "\n"); lines != 2 || !strings.Contains(string(body), "66666") || !strings.Contains(string(body), `"serverName":"Demo server"`) {
		t.Fatalf("the export holds %d lines:\n%s", lines, body)
	}
	file := filepath.Join(t.TempDir(), "adds.ndjson")
	if err := os.WriteFile(file, body, 0o600); err != nil {
		t.Fatal(err)
	}

	bad := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(bad, []byte("these are not frames\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.do("import a file that is not an export", "main", chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-file"]`), []string{bad}),
		chromedp.Click(chromedp.CSS(`[data-testid="import-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="import-form"] [data-testid="import-error"]`)))
	if msg := p.text(`[data-testid="import-error"]`); !strings.Contains(msg, "Line 1 is not a frame of an NDJSON export") {
		t.Errorf("the import form says %q", msg)
	}
	if shots != "" {
		p.screenshot(shots, "history-import-error", "main")
	}
	oddID := filepath.Join(t.TempDir(), "odd-id.ndjson")
	if err := os.WriteFile(oddID, []byte(regexp.MustCompile(`"rpcId":[^,]+`).ReplaceAllString(string(body), `"rpcId":{"x":1}`)), 0o600); err != nil {
		t.Fatal(err)
	}
	e2eNavigate(p, "open the import form", srv.URL+"/sessions/import", `[data-testid="import-form"]`)
	p.do("import a file whose JSON-RPC id is an object", "main", chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-file"]`), []string{oddID}),
		chromedp.Click(chromedp.CSS(`[data-testid="import-submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="import-form"] [data-testid="import-error"]`)))
	if msg := p.text(`[data-testid="import-error"]`); !strings.Contains(msg, `Line 1: the rpcId {"x":1} is not a JSON-RPC id, which is a string or a number.`) {
		t.Errorf("the import form says %q", msg)
	}
	if shots != "" {
		p.screenshot(shots, "history-import-object-id", "main")
	}
	p.forgetConsole(srv.URL + "/sessions/import") // the refusals' 422
	p.do("choose the export", "main", chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-file"]`), []string{file}))
	p.follow("import the export", `[data-testid="import-submit"]`)
	p.do("see the imported session", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="imported-badge"]`)))
	if badge := p.text(`[data-testid="imported-badge"]`); !strings.Contains(badge, "Imported from adds.ndjson at") || !strings.Contains(badge, "read-only") {
		t.Errorf("the badge reads %q", badge)
	}
	if title := p.text("h1"); !strings.Contains(title, "Demo server") {
		t.Errorf("the imported session's title reads %q", title)
	}
	frames := p.frames()
	if len(frames) != 2 || frames[0].Direction != "out" || frames[0].RPCType != "request" || frames[1].RPCType != "result" {
		t.Errorf("the imported session shows %s", e2eSummary(frames))
	}
	if text := p.text(`[data-testid="frames"]`); !strings.Contains(text, "66666") {
		t.Errorf("the imported frames read %q", text)
	}
	if n := e2eEval[int](p, "count the session's controls", "main", `document.querySelectorAll('[data-testid="disconnect"], [data-testid="connect"]').length`); n != 0 {
		t.Errorf("the imported session offers %d connect or disconnect controls", n)
	}
	imported := strings.TrimPrefix(e2eEval[string](p, "read the page's address", "main", `location.pathname`), "/sessions/")
	if shots != "" {
		p.screenshot(shots, "history-imported-session", "main")
	}

	e2eNavigate(p, "search history again", srv.URL+"/history?q=66666", `[data-testid="history-results"]`)
	rows := e2eEval[[]string](p, "read the rows' sessions", "main",
		`Array.from(document.querySelectorAll('[data-testid="history-row"] a[href^="/sessions/"]:not([data-testid])'), a => a.getAttribute("href"))`)
	if len(rows) != 2 || rows[0] != "/sessions/"+imported {
		t.Errorf("history finds the sessions %q, want the imported %s first and the recorded one", rows, imported)
	}
	if marks := e2eEval[[]string](p, "read the imported marks", "main",
		`Array.from(document.querySelectorAll('[data-testid="history-imported"]'), m => m.closest("td").innerText)`); len(marks) != 1 || !strings.Contains(marks[0], "#"+imported) {
		t.Errorf("history marks %q as imported, want the session #%s alone", marks, imported)
	}
	if shots != "" {
		p.screenshot(shots, "history-with-import", "main")
	}

	nul := srv.URL + "/history?q=66666%00"
	e2eNavigate(p, "search history for a NUL", nul, `[data-testid="history-error"]`)
	if msg := p.text(`[data-testid="history-error"]`); !strings.Contains(msg, "cannot be searched for (a NUL, or bytes that are not UTF-8)") {
		t.Errorf("the search box says %q", msg)
	}
	if shots != "" {
		p.screenshot(shots, "history-nul-query", "main")
	}
	p.forgetConsole(nul) // the refusal's 400
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
