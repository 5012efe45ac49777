package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserServerFormSplitsAndRoots adds "Everything (npx)" as a newcomer
// would: the Command field shows only with stdio chosen, the command line
// typed whole is saved as a program and its arguments and the saved page
// says so, roots are added and removed with the roots editor and kept, and
// a program missing from the PATH is flagged at the Command field. When
// PLAYGROUND_SCREENSHOT_DIR is set, screenshots go there (server-form-roots,
// server-split, server-form-bogus). It needs PLAYGROUND_CHROMIUM.
func TestBrowserServerFormSplitsAndRoots(t *testing.T) {
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	const form = `[data-testid="server-form"]`
	visible := func(sel string) bool {
		t.Helper()
		return e2eEval[bool](p, "see whether "+sel+" shows", form,
			`(() => { const e = document.querySelector(`+e2eJS(sel)+`); return !!e && e.getClientRects().length > 0; })()`)
	}
	rootRows := func() string {
		t.Helper()
		return e2eEval[string](p, "read the root rows", form, `Array.from(document.querySelectorAll('[data-root-list] [data-root-row]'),
			r => r.querySelector('[name=root_uri]').value + "=" + r.querySelector('[name=root_name]').value).join("|")`)
	}

	e2eNavigate(p, "open the new-server form", srv.URL+"/servers/new", form)
	p.choose("#transport", "Streamable HTTP — connect to a URL")
	if visible("#command") || !visible("#url") || !visible(`[data-testid="roots-fields"]`) {
		t.Errorf("with Streamable HTTP chosen: command shows %v, url %v, roots %v", visible("#command"), visible("#url"), visible(`[data-testid="roots-fields"]`))
	}
	p.choose("#transport", "stdio — start a local process")
	if !visible("#command") || visible("#url") {
		t.Errorf("with stdio chosen: command shows %v, url %v", visible("#command"), visible("#url"))
	}

	p.typeInto("#name", "Everything (npx)")
	p.typeInto("#command", "npx -y @modelcontextprotocol/server-everything")
	if !visible(`[data-testid="add-root"]`) || !visible(`[data-testid="remove-root"]`) {
		t.Fatalf("the roots editor's buttons do not show\n%s", p.dump(`[data-testid="roots-fields"]`))
	}
	row := func(n int, field string) string {
		return fmt.Sprintf(`[data-root-list] [data-root-row]:nth-child(%d) [name=%s]`, n, field)
	}
	p.typeInto(row(1, "root_uri"), "file:///work/project")
	p.typeInto(row(1, "root_name"), "Project (main)")
	p.do("add a root", form, chromedp.Click(chromedp.CSS(`[data-testid="add-root"]`)))
	p.typeInto(row(2, "root_uri"), "file:///tmp/scratch")
	p.do("add another root", form, chromedp.Click(chromedp.CSS(`[data-testid="add-root"]`)))
	p.typeInto(row(3, "root_uri"), "file:///oops")
	if got := rootRows(); got != "file:///work/project=Project (main)|file:///tmp/scratch=|file:///oops=" {
		t.Errorf("after adding, the root rows are %q", got)
	}
	p.do("remove the third root", form, chromedp.Click(chromedp.CSS(`[data-root-list] [data-root-row]:nth-child(3) [data-testid="remove-root"]`)))
	if got := rootRows(); got != "file:///work/project=Project (main)|file:///tmp/scratch=" {
		t.Errorf("after removing, the root rows are %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "server-form-roots", `[data-testid="roots-fields"]`)
	}
	p.do("save the server", form, chromedp.Click(chromedp.CSS(`[data-testid="save-server"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="split-notice"]`)))
	words := e2eEval[string](p, "read the command line", `[data-testid="connection"]`,
		`Array.from(document.querySelectorAll('[data-testid="server-command"], [data-testid="server-arg"]'), e => e.textContent).join("|")`)
	if words != "npx|-y|@modelcontextprotocol/server-everything" {
		t.Errorf("the server page shows the command line as %q", words)
	}
	if notice := p.text(`[data-testid="split-notice"]`); !strings.Contains(notice, "split into the program npx and 2 arguments") {
		t.Errorf("the split notice says %q", notice)
	}
	roots := e2eEval[string](p, "read the roots", `[data-testid="connection"]`,
		`Array.from(document.querySelectorAll('[data-testid="server-root"]'), e => e.textContent.trim().replace(/\s+/g, " ")).join("|")`)
	if roots != "file:///work/project · Project (main)|file:///tmp/scratch" {
		t.Errorf("the server page shows the roots as %q", roots)
	}
	if shots != "" {
		p.screenshot(shots, "server-split", `[data-testid="connection"]`)
	}
	p.do("open the edit form", form, chromedp.Click(chromedp.CSS(`[data-testid="split-notice"] a`)), chromedp.WaitVisible(chromedp.CSS(form)))
	if got := rootRows(); got != "file:///work/project=Project (main)|file:///tmp/scratch=|=" {
		t.Errorf("the edit form shows the root rows %q", got)
	}
	if got := p.value("#args"); got != "-y\n@modelcontextprotocol/server-everything" {
		t.Errorf("the edit form shows the arguments %q", got)
	}

	e2eNavigate(p, "open the new-server form again", srv.URL+"/servers/new", form)
	p.typeInto("#name", "bogus")
	p.typeInto("#command", "no-such-mcp-server --stdio")
	p.do("save a server whose program is missing", form, chromedp.Click(chromedp.CSS(`[data-testid="save-server"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="error-command"]`)))
	if msg := p.text(`[data-testid="error-command"]`); !strings.Contains(msg, `no program named "no-such-mcp-server" on this machine's PATH`) {
		t.Errorf("the Command field's error is %q", msg)
	}
	if shots != "" {
		p.screenshot(shots, "server-form-bogus", `[data-testid="error-command"]`)
	}
	for _, m := range p.consoleErrors() {
		if !strings.Contains(m, "/servers") || !strings.Contains(m, "422") {
			t.Errorf("browser console: %s", m)
		}
	}
}

// TestBrowserServersListConnect connects the demo server and
// server-everything from the servers list, both at once, and sees each
// row's session; server-everything, asked for its roots, names the roots
// registered for it, and after the roots are edited while it is connected
// it names the new ones (notifications/roots/list_changed made it ask
// again). A server that cannot start shows why on its row; Disconnect on a
// row closes only that server's session. When PLAYGROUND_SCREENSHOT_DIR is
// set, a screenshot of the list goes there (servers-list.png). It needs
// PLAYGROUND_CHROMIUM and server-everything in node_modules.
func TestBrowserServersListConnect(t *testing.T) {
	everything := filepath.Join(e2eNodeModules(), "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(everything); err != nil {
		t.Skipf("needs @modelcontextprotocol/server-everything in node_modules: %v", err)
	}
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	demoID, err := strconv.ParseInt(strings.TrimPrefix(p.openDemoServerLink(srv.URL), "/servers/"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	evID := srv.apiCreateServer(t, map[string]any{"name": "everything", "transport": "stdio", "command": "node", "args": []string{everything, "stdio"},
		"roots": []map[string]string{{"uri": "file:///work/project", "name": "Project"}}})
	badID := srv.apiCreateServer(t, map[string]any{"name": "exits", "transport": "stdio", "command": "sh", "args": []string{"-c", "echo broken >&2; exit 4"}})
	const list = `[data-testid="server-list"]`
	rowSel := func(id int64) string { return fmt.Sprintf(`[data-testid="server-row"][data-server-id="%d"]`, id) }
	connect := func(id int64) {
		t.Helper()
		p.do(fmt.Sprintf("connect server %d from the list", id), list,
			chromedp.Click(chromedp.CSS(rowSel(id)+` [data-testid="list-connect"]`)),
			chromedp.WaitVisible(chromedp.CSS(rowSel(id)+` [data-testid="list-disconnect"], `+rowSel(id)+` [data-testid="connect-failure"]`)))
		if loc := e2eEval[string](p, "read the location", "", `location.pathname`); loc != "/" {
			t.Errorf("after Connect on the list the browser is at %s", loc)
		}
	}
	state := func(id int64) string {
		t.Helper()
		return strings.Join(strings.Fields(p.text(rowSel(id)+` [data-testid="server-state"]`)), " ")
	}

	e2eNavigate(p, "open the servers list", srv.URL+"/", list)
	connect(demoID)
	connect(evID)
	connect(badID)
	sessions := map[int64]string{}
	for _, id := range []int64{demoID, evID} {
		sessions[id] = p.text(rowSel(id) + ` [data-testid="server-session"]`)
		if st := state(id); st != "connected session "+sessions[id] {
			t.Errorf("server %d's state reads %q", id, st)
		}
	}
	if sessions[demoID] == sessions[evID] {
		t.Errorf("both servers show session %s", sessions[demoID])
	}
	if st := state(badID); !strings.Contains(st, "connect failed") || !strings.Contains(st, "exit status 4") {
		t.Errorf("the failing server's state reads %q", st)
	}
	if shots != "" {
		p.screenshot(shots, "servers-list", list)
	}

	// askRoots calls get-roots-list until its answer names want: the server
	// fetches new roots on its own after notifications/roots/list_changed.
	askRoots := func(want string) {
		t.Helper()
		var got string
		for range 20 {
			p.do("open server-everything's get-roots-list", "main", chromedp.Navigate(fmt.Sprintf("%s/servers/%d/tools/get-roots-list", srv.URL, evID)),
				chromedp.WaitVisible(chromedp.CSS(e2eCard("get-roots-list"))))
			p.submitTool("get-roots-list")
			if got = p.text(e2eCard("get-roots-list") + ` [data-testid="content-text"]`); strings.Contains(got, want) {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Errorf("server-everything's roots read %q, want them to name %s", got, want)
	}
	askRoots("file:///work/project")
	p.do("edit server-everything", "main", chromedp.Navigate(fmt.Sprintf("%s/servers/%d/edit", srv.URL, evID)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="server-form"]`)))
	p.typeInto(`[data-root-list] [data-root-row]:nth-child(2) [name=root_uri]`, "file:///srv/second")
	p.do("save the roots", "main", chromedp.Click(chromedp.CSS(`[data-testid="save-server"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connection"]`)))
	askRoots("file:///srv/second")

	e2eNavigate(p, "open the servers list again", srv.URL+"/", list)
	p.do("disconnect the demo server from the list", list,
		chromedp.Click(chromedp.CSS(rowSel(demoID)+` [data-testid="list-disconnect"]`)),
		chromedp.WaitVisible(chromedp.CSS(rowSel(demoID)+` [data-testid="list-connect"]`)))
	if st := state(demoID); st != "disconnected" {
		t.Errorf("after Disconnect the demo server's state reads %q", st)
	}
	if st := state(evID); st != "connected session "+sessions[evID] {
		t.Errorf("disconnecting the demo server left server-everything %q", st)
	}
	p.do("disconnect server-everything from the list", list,
		chromedp.Click(chromedp.CSS(rowSel(evID)+` [data-testid="list-disconnect"]`)),
		chromedp.WaitVisible(chromedp.CSS(rowSel(evID)+` [data-testid="list-connect"]`)))
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}

// TestBrowserServerFormOffersEditorsWhatTheyMaySave opens the new-server
// form as an editor: Streamable HTTP is chosen, its URL field shows, and
// stdio, which only admins may save, is offered disabled with a note
// saying why. When PLAYGROUND_SCREENSHOT_DIR is set, a screenshot goes
// there (server-form-editor.png). It needs PLAYGROUND_CHROMIUM.
func TestBrowserServerFormOffersEditorsWhatTheyMaySave(t *testing.T) {
	srv, _ := e2eBrowse(t)
	srv.addUser(t, "eddie", "editor")
	ctx, cancel := context.WithTimeout(context.Background(), e2eBrowserTimeout)
	t.Cleanup(cancel)
	p := e2eOpenBrowser(t, ctx, e2eChromium(t))
	p.signInAs(srv, "eddie")
	const form = `[data-testid="server-form"]`
	e2eNavigate(p, "open the new-server form", srv.URL+"/servers/new", form)
	if got := p.value("#transport"); got != "http" {
		t.Errorf("the editor's form starts with transport %q, want http", got)
	}
	if !e2eEval[bool](p, "read the stdio option", form, `document.querySelector('#transport option[value="stdio"]').disabled`) {
		t.Error("stdio is offered to an editor")
	}
	if !e2eEval[bool](p, "see the fields", form, `document.querySelector('#url').getClientRects().length > 0 && document.querySelector('#command').getClientRects().length === 0`) {
		t.Error("the editor's form does not show the URL field alone")
	}
	if note := p.text(`[data-testid="stdio-admins-only"]`); !strings.Contains(note, "Only admins add stdio servers") {
		t.Errorf("the note reads %q", note)
	}
	if shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); shots != "" {
		p.screenshot(shots, "server-form-editor", form)
	}
}
