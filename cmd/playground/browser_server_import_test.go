package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserServerImport pastes a Claude Desktop config into the import
// form, reads the preview (a script in a name shows as text) and imports
// the entries. When PLAYGROUND_SCREENSHOT_DIR is set, the preview goes
// there as server-import-preview.png.
// It needs PLAYGROUND_CHROMIUM.
func TestBrowserServerImport(t *testing.T) {
	srv, p := e2eBrowse(t)
	const form = `[data-testid="server-import-form"]`
	const preview = `[data-testid="server-import-preview"]`
	config := `{"mcpServers": {
  "<b>bold</b>": {"command": "sh", "args": ["-c", "cat"], "env": {"API_KEY": "sk-1"}},
  "remote": {"url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer x"}}}}`
	e2eNavigate(p, "open the import form", srv.URL+"/servers/import", form)
	p.do("paste the config", form, chromedp.SetValue(chromedp.CSS(`#config`), config))
	p.do("preview", form, chromedp.Click(chromedp.CSS(`[data-testid="import-preview"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="import-entries"]`)))
	if shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); shots != "" {
		p.screenshot(shots, "server-import-preview", preview)
	}
	names := e2eEval[string](p, "read the names", preview,
		`Array.from(document.querySelectorAll('[data-testid="import-name"]'), e => e.value).join("|")`)
	if names != "<b>bold</b>|remote" {
		t.Errorf("the preview names are %q", names)
	}
	if strings.Contains(p.text(preview), "sk-1") || e2eEval[int](p, "count injected tags", preview, `document.querySelectorAll("b").length`) != 0 {
		t.Errorf("the preview shows a secret or renders markup from a name:\n%s", p.dump(preview))
	}
	p.do("import", preview, chromedp.Click(chromedp.CSS(`[data-testid="import-confirm"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="import-created"]`)))
	if got := strings.Count(p.dump(preview), `data-testid="import-created"`); got != 2 {
		t.Errorf("%d servers imported, want 2:\n%s", got, p.dump(preview))
	}
}
