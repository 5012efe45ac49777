package main

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserCollectionImportExport saves a weather call into a new
// collection and runs it, so that the export control offers the demo
// server's interface as baseline first; downloads the export, imports it
// under another name through the import form, and lands on the new
// collection's page with the notice of what came in. A file of version 2
// is then refused at the import form. When PLAYGROUND_SCREENSHOT_DIR is
// set, collections-export.png, collections-imported.png and
// collections-import-error.png are saved there.
func TestBrowserCollectionImportExport(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	save := p.callForSaving("weather", map[string]string{"city": "Paris"})
	p.saveToCollection(save, "Smoke", "Paris weather", true)
	p.do("open the collection", "main",
		chromedp.Click(chromedp.CSS(save+` [data-testid="saved-collection-link"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="run-all"]`)))
	p.do("run it", "main",
		chromedp.Click(chromedp.CSS(`[data-testid="run-all"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="run-summary"]`)))
	p.do("back to the collection", "main",
		chromedp.Click(chromedp.CSS(`.crumbs a[href^="/collections/"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="export-form"]`)))

	picked := e2eEval[string](p, "read the picked baseline", `[data-testid="export-card"]`,
		`(s => s.options[s.selectedIndex].textContent)(document.querySelector('[data-testid="export-server"]'))`)
	if picked != "Latest interface of Demo server" {
		t.Errorf("the export control picks %q first, want the demo server of the latest run", picked)
	}
	if shots != "" {
		p.screenshot(shots, "collections-export", `[data-testid="export-card"]`)
	}
	exportURL := e2eEval[string](p, "read the export's URL", `[data-testid="export-card"]`,
		`(f => f.action + "?" + new URLSearchParams(new FormData(f)))(document.querySelector('[data-testid="export-form"]'))`)
	resp, err := e2eHTTPGet(exportURL)
	if err != nil {
		t.Fatal(err)
	}
	file, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v\n%s", exportURL, resp.StatusCode, err, file)
	}
	if got := resp.Header.Get("Content-Disposition"); got != `attachment; filename="Smoke.collection.json"` {
		t.Errorf("the export downloads as %q", got)
	}
	for _, w := range []string{`"name": "Smoke"`, `"name": "Paris weather"`, `"interface": {`} {
		if !strings.Contains(string(file), w) {
			t.Errorf("the export lacks %s:\n%s", w, file)
		}
	}
	dir := t.TempDir()
	exported := filepath.Join(dir, "Smoke.collection.json")
	future := filepath.Join(dir, "future.collection.json")
	if err := os.WriteFile(exported, file, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(future, []byte(strings.Replace(string(file), `"version": 1,`, `"version": 2,`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}

	importFile := func(path, as, waitFor string) {
		t.Helper()
		p.do("open the collections", "main", chromedp.Navigate(srv.URL+"/collections"),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="import-form"]`)),
			chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="import-file"]`), []string{path}))
		if as != "" {
			p.typeInto(`[data-testid="import-name"]`, as)
		}
		p.do("import "+filepath.Base(path), "main",
			chromedp.Click(chromedp.CSS(`[data-testid="import-submit"]`)),
			chromedp.WaitVisible(chromedp.CSS(waitFor)))
	}
	importFile(exported, "Smoke copy", `[data-testid="import-notice"]`)
	if got := p.text(`[data-testid="collection-name"]`); got != "Smoke copy" {
		t.Errorf("the import landed on %q, want Smoke copy", got)
	}
	if got := strings.Join(strings.Fields(p.text(`[data-testid="import-notice"]`)), " "); got != "Imported 1 example." {
		t.Errorf("the import's notice reads %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "collections-imported", `[data-testid="import-notice"]`)
	}
	if e2eEval[int](p, "count the examples", "main", `document.querySelectorAll('[data-testid="example"][data-example-name="Paris weather"]').length`) != 1 {
		t.Errorf("the imported collection lacks its example\n%s", p.dump("main"))
	}

	importFile(future, "", `[data-testid="import-form"] [data-testid="import-error"]`)
	if msg := p.text(`[data-testid="import-error"]`); !strings.Contains(msg, "version 2, made by a newer MCP Playground") {
		t.Errorf("the import form's error reads %q", msg)
	}
	// The answer opens at the form (#import), however long the page.
	if !e2eEval[bool](p, "see whether the error is in view", "main",
		`location.hash === "#import" && (r => r.top >= 0 && r.bottom <= window.innerHeight)(document.querySelector('[data-testid="import-error"]').getBoundingClientRect())`) {
		t.Errorf("the import form's error is out of view at %s", e2eEval[string](p, "read the address", "main", "location.href"))
	}
	if n := e2eEval[int](p, "count the collections", "main", `document.querySelectorAll('[data-testid="collection-row"]').length`); n != 2 {
		t.Errorf("%d collections listed after the refused import, want 2", n)
	}
	if shots != "" {
		p.screenshot(shots, "collections-import-error", `[data-testid="import-card"]`)
	}
}
