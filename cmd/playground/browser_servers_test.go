package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserServerForm adds a stdio server through the new-server form as
// a newcomer would: only the chosen transport's fields show (the others
// come and go as the transport changes), a name with parentheses is
// accepted, a whole command line typed into Command is saved as a program
// and its arguments and shown so, what was typed into the hidden HTTP
// fields is not saved, and a program missing from the PATH is reported at
// the Command field, which takes the cursor. When PLAYGROUND_SCREENSHOT_DIR
// is set, screenshots of the form with stdio and with HTTP chosen go there
// (server-form-stdio.png, server-form-http.png and their -full versions),
// and of the saved server's page (server-saved.png).
// It needs PLAYGROUND_CHROMIUM.
func TestBrowserServerForm(t *testing.T) {
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	const form = `[data-testid="server-form"]`
	// shown reports which of the form's fields a user can see.
	shown := func() string {
		t.Helper()
		return e2eEval[string](p, "list the visible fields", form, `["name", "transport", "era", "command", "args", "env", "dir", "url", "headers"]
			.filter(id => { const e = document.getElementById(id); return e && e.getClientRects().length > 0; }).join(" ")`)
	}
	wantShown := func(when, want string) {
		t.Helper()
		if got := shown(); got != want {
			t.Errorf("%s, the visible fields are %q, want %q\n%s", when, got, want, p.dump(form))
		}
	}

	e2eNavigate(p, "open the new-server form", srv.URL+"/servers/new", form)
	wantShown("with stdio chosen", "name transport era command args env dir")
	if e2eEval[bool](p, "look for the no-script hint", form, `document.querySelector("[data-transport-hint]").getClientRects().length > 0`) {
		t.Error("the hint for browsers without script shows although script runs")
	}
	if shots != "" {
		p.screenshot(shots, "server-form-stdio", form)
	}

	p.choose("#transport", "Streamable HTTP — connect to a URL")
	wantShown("with Streamable HTTP chosen", "name transport era url headers")
	p.typeInto("#url", "http://127.0.0.1:9/mcp")
	if shots != "" {
		p.screenshot(shots, "server-form-http", form)
	}
	p.choose("#transport", "HTTP+SSE — the deprecated transport of 2024-11-05")
	wantShown("with HTTP+SSE chosen", "name transport era url headers")

	p.choose("#transport", "stdio — start a local process")
	wantShown("with stdio chosen again", "name transport era command args env dir")
	p.typeInto("#name", "Everything (npx)")
	p.typeInto("#command", "sh -c 'exec cat'")
	p.do("save the server", form, chromedp.Click(chromedp.CSS(`[data-testid="save-server"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="server-command"]`)))
	if h1 := strings.TrimSpace(p.text("h1")); h1 != "Everything (npx)" {
		t.Errorf("the saved server's page is titled %q", h1)
	}
	words := e2eEval[string](p, "read the command line", `[data-testid="connection"]`,
		`Array.from(document.querySelectorAll('[data-testid="server-command"], [data-testid="server-arg"]'), e => e.textContent).join("|")`)
	if words != "sh|-c|exec cat" {
		t.Errorf("the server page shows the command line as %q, want sh|-c|exec cat", words)
	}
	if shots != "" {
		p.screenshot(shots, "server-saved", `[data-testid="connection"]`)
	}
	if list := e2eGet(t, srv.URL+"/api/v1/servers"); strings.Contains(list, "127.0.0.1:9") {
		t.Errorf("the URL typed before switching to stdio was saved: %s", list)
	}

	// An error shows at its field, and the cursor goes there.
	e2eNavigate(p, "open the new-server form again", srv.URL+"/servers/new", form)
	p.typeInto("#name", "missing")
	p.typeInto("#command", "no-such-program-mcp --stdio")
	p.do("save a server whose program is missing", form, chromedp.Click(chromedp.CSS(`[data-testid="save-server"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="error-command"]`)))
	if msg := p.text(`[data-testid="error-command"]`); !strings.Contains(msg, `no program named "no-such-program-mcp" on this machine's PATH`) {
		t.Errorf("the Command field's error is %q", msg)
	}
	// The page shows before its deferred script has run: wait for it.
	p.waitJS("wait for the cursor in the Command field in error", form, `document.readyState === "complete" && !!document.activeElement && document.activeElement.id === "command"`)
	near := e2eEval[bool](p, "place the error", form, `document.getElementById("command").parentElement.contains(document.querySelector('[data-testid="error-command"]'))`)
	if !near {
		t.Error("the Command error is not next to the Command field")
	}
	for _, m := range p.consoleErrors() {
		if !strings.Contains(m, "/servers") || !strings.Contains(m, "422") {
			t.Errorf("browser console: %s", m)
		}
	}
}
