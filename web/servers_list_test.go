package web_test

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// listRow returns the servers list's row for the server with id, or fails.
func listRow(t *testing.T, d *dashboard, id int64) string {
	t.Helper()
	page := d.get(t, "/")
	if page.Status != http.StatusOK {
		t.Fatalf("GET /: %d", page.Status)
	}
	m := regexp.MustCompile(fmt.Sprintf(`(?s)<tr data-testid="server-row" data-server-id="%d">.*?</tr>`, id)).FindString(page.Body)
	if m == "" {
		t.Fatalf("the list has no row for server %d:\n%s", id, page.Body)
	}
	return html.UnescapeString(m)
}

// TestServersListConnectAndDisconnect connects two servers from the list
// and disconnects one: each post returns to the list, which shows every
// server's state (connected with its session, disconnected, or why its last
// connect failed) and the button that fits it.
func TestServersListConnectAndDisconnect(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	a := d.MustAPIServer(t, sdkStdioServer("alpha"))
	b := d.MustAPIServer(t, sdkStdioServer("beta"))
	bad := d.MustAPIServer(t, map[string]any{"name": "exits", "transport": "stdio", "command": "sh", "args": []string{"-c", "exit 4"}})

	if row := listRow(t, d, a.ID); !strings.Contains(row, ">disconnected<") || !strings.Contains(row, `data-testid="list-connect"`) ||
		!strings.Contains(row, `name="return" value="/"`) {
		t.Errorf("a server never connected:\n%s", row)
	}
	for _, id := range []int64{a.ID, b.ID, bad.ID} {
		r := d.postForm(t, fmt.Sprintf("/servers/%d/connect", id), url.Values{"_csrf": {token}, "return": {"/"}})
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/" {
			t.Fatalf("connect %d from the list: %d %q", id, r.Status, r.Header.Get("Location"))
		}
	}
	sessions := map[int64]int64{}
	for _, id := range []int64{a.ID, b.ID} {
		live, ok := d.pool.LiveSession(id)
		if !ok {
			t.Fatalf("server %d is not connected", id)
		}
		sessions[id] = live.ID
		row := listRow(t, d, id)
		if !strings.Contains(row, ">connected<") || !strings.Contains(row, fmt.Sprintf(`data-testid="server-session">%d<`, live.ID)) ||
			!strings.Contains(row, fmt.Sprintf(`action="/sessions/%d/disconnect"`, live.ID)) {
			t.Errorf("connected server %d:\n%s", id, row)
		}
	}
	if row := listRow(t, d, bad.ID); !strings.Contains(row, `data-testid="connect-failure"`) || !strings.Contains(row, "exit status 4") ||
		!strings.Contains(row, `data-testid="list-connect"`) {
		t.Errorf("the failed server's row does not say why:\n%s", row)
	}

	r := d.postForm(t, fmt.Sprintf("/sessions/%d/disconnect", sessions[a.ID]), url.Values{"_csrf": {token}, "return": {"/"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/" {
		t.Fatalf("disconnect from the list: %d %q", r.Status, r.Header.Get("Location"))
	}
	if row := listRow(t, d, a.ID); !strings.Contains(row, ">disconnected<") || strings.Contains(row, "connect-failure") {
		t.Errorf("after disconnecting:\n%s", row)
	}
	if _, ok := d.pool.LiveSession(b.ID); !ok {
		t.Error("disconnecting one server disconnected the other")
	}
}

// TestServersListFormsNeedCSRF refuses connect and disconnect posts without
// the CSRF token, and opens or closes nothing.
func TestServersListFormsNeedCSRF(t *testing.T) {
	d := MustDashboard(t)
	d.MustCSRF(t) // the cookie alone is not enough
	srv := d.MustAPIServer(t, sdkStdioServer("alpha"))
	r := d.postForm(t, fmt.Sprintf("/servers/%d/connect", srv.ID), url.Values{"return": {"/servers"}})
	if r.Status != http.StatusForbidden {
		t.Errorf("connect without a token: %d, want 403", r.Status)
	}
	if _, ok := d.pool.LiveSession(srv.ID); ok {
		t.Error("a connect without a token opened a session")
	}
	sess := d.MustAPISession(t, srv.ID)
	r = d.postForm(t, fmt.Sprintf("/sessions/%d/disconnect", sess.ID), url.Values{"return": {"/servers"}})
	if r.Status != http.StatusForbidden {
		t.Errorf("disconnect without a token: %d, want 403", r.Status)
	}
	if _, ok := d.pool.LiveSession(srv.ID); !ok {
		t.Error("a disconnect without a token closed the session")
	}
}

// TestConnectReturnPathStaysLocal sends connect and disconnect forms with
// return values that point elsewhere: each is ignored and the post leads to
// the server's page, so that no form is an open redirect.
func TestConnectReturnPathStaysLocal(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, sdkStdioServer("alpha"))
	serverPage := fmt.Sprintf("/servers/%d", srv.ID)
	tests := []struct {
		name, ret, want string
	}{
		{"the list", "/", "/"},
		{"local path", "/sessions", "/sessions"},
		{"none", "", serverPage},
		{"another site", "https://evil.example/", serverPage},
		{"scheme-relative", "//evil.example/servers", serverPage},
		{"backslash read as a slash", `/\evil.example`, serverPage},
		{"relative", "servers", serverPage},
		{"javascript", "javascript:alert(1)", serverPage},
		{"line break", "/servers\r\nLocation: https://evil.example", serverPage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := d.postForm(t, serverPage+"/connect", url.Values{"_csrf": {token}, "return": {tt.ret}})
			if r.Status != http.StatusSeeOther || r.Header.Get("Location") != tt.want {
				t.Errorf("connect returned %d to %q, want %q", r.Status, r.Header.Get("Location"), tt.want)
			}
			live, ok := d.pool.LiveSession(srv.ID)
			if !ok {
				t.Fatal("not connected")
			}
			r = d.postForm(t, fmt.Sprintf("/sessions/%d/disconnect", live.ID), url.Values{"_csrf": {token}, "return": {tt.ret}})
			if r.Status != http.StatusSeeOther || r.Header.Get("Location") != tt.want {
				t.Errorf("disconnect returned %d to %q, want %q", r.Status, r.Header.Get("Location"), tt.want)
			}
		})
	}
}

// TestServerFormRoots saves roots typed in the form's rows (empty rows
// dropped), shows them again in the edit form, and reports an invalid one
// at the roots field without saving.
func TestServerFormRoots(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	r := d.postForm(t, "/servers", url.Values{"_csrf": {token}, "name": {"rooted"}, "transport": {"http"}, "url": {"http://127.0.0.1:9/mcp"},
		"root_uri": {"file:///work/project", " ", "file:///tmp"}, "root_name": {"Project", "", ""}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	loc := r.Header.Get("Location")
	var id int64
	fmt.Sscanf(loc, "/servers/%d", &id)
	srv, err := d.reg.Get(t.Context(), id)
	if want := []backend.Root{{URI: "file:///work/project", Name: "Project"}, {URI: "file:///tmp"}}; err != nil || fmt.Sprint(srv.Roots) != fmt.Sprint(want) {
		t.Fatalf("stored roots %+v (%v), want %+v", srv.Roots, err, want)
	}
	edit := d.get(t, loc+"/edit")
	for _, want := range []string{`name="root_uri" value="file:///work/project"`, `name="root_name" value="Project"`, `name="root_uri" value="file:///tmp"`} {
		if !strings.Contains(edit.Body, want) {
			t.Errorf("the edit form lacks %s", want)
		}
	}
	if n := strings.Count(edit.Body, `data-testid="root-row"`); n != 4 { // two roots, a blank row, the template's row
		t.Errorf("the edit form has %d root rows, want 4", n)
	}

	r = d.postForm(t, loc, url.Values{"_csrf": {token}, "name": {"rooted"}, "transport": {"http"}, "url": {"http://127.0.0.1:9/mcp"},
		"root_uri": {"https://example.com/repo"}, "root_name": {"web"}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `data-testid="error-roots"`) ||
		!strings.Contains(html.UnescapeString(r.Body), `"https://example.com/repo", is not a file:// URI`) ||
		!strings.Contains(r.Body, `value="https://example.com/repo"`) {
		t.Errorf("an https root: %d\n%s", r.Status, r.Body)
	}
	if srv, _ := d.reg.Get(t.Context(), id); len(srv.Roots) != 2 {
		t.Errorf("an invalid edit changed the roots to %+v", srv.Roots)
	}
}

// TestServerFormSaysWhatWasSplit leads from saving a command line typed
// whole to the server's page with a notice naming the program; a command
// saved as typed gets no notice, nor does a link that asks for one.
func TestServerFormSaysWhatWasSplit(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	r := d.postForm(t, "/servers", url.Values{"_csrf": {token}, "name": {"Everything (npx)"}, "transport": {"stdio"}, "command": {`sh -c 'exec cat'`}})
	if r.Status != http.StatusSeeOther || !strings.HasSuffix(r.Header.Get("Location"), "?split=1") {
		t.Fatalf("create: %d %q", r.Status, r.Header.Get("Location"))
	}
	page := html.UnescapeString(d.get(t, r.Header.Get("Location")).Body)
	if !strings.Contains(page, `data-testid="split-notice"`) || !strings.Contains(page, `program <span class="mono">sh</span> and 2 arguments`) {
		t.Errorf("the saved page does not say what was split:\n%s", page)
	}
	r = d.postForm(t, "/servers", url.Values{"_csrf": {token}, "name": {"plain"}, "transport": {"stdio"}, "command": {"sh"}, "args": {"-c\nexec cat"}})
	if r.Status != http.StatusSeeOther || strings.Contains(r.Header.Get("Location"), "split") {
		t.Fatalf("create with arguments: %d %q", r.Status, r.Header.Get("Location"))
	}
	bare := d.MustAPIServer(t, map[string]any{"name": "bare", "transport": "stdio", "command": "sh"})
	if page := d.get(t, fmt.Sprintf("/servers/%d?split=1", bare.ID)); strings.Contains(page.Body, "split-notice") {
		t.Error("a server without arguments shows the split notice")
	}
}
