package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// importList has a server named like one registered, a new one whose
// name and command carry a script, and an HTTP server.
const importList = `{"mcpServers": {
	"taken": {"command": "sh", "args": ["-c", "cat"]},
	"<script>alert(1)</script>": {"command": "sh", "args": ["<img src=x onerror=alert(2)>"]},
	"remote": {"type": "http", "url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer s3cret"}}
}}`

func TestServerImportSkipsAndRenames(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	d.MustAPIServer(t, map[string]any{"name": "taken", "transport": "stdio", "command": "cat"})

	preview := d.postForm(t, "/servers/import/preview", url.Values{"_csrf": {token}, "config": {importList}})
	if preview.Status != http.StatusOK {
		t.Fatalf("preview: %d %s", preview.Status, preview.Body)
	}
	for _, want := range []string{"Claude Desktop / Cursor", `value="taken (2)"`, `data-testid="import-taken"`, "&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=alert(2)&gt;"} {
		if !strings.Contains(preview.Body, want) {
			t.Errorf("preview lacks %q", want)
		}
	}
	// The list as pasted goes back in a hidden field, to the person who pasted it.
	shown := hiddenConfig.ReplaceAllString(preview.Body, "")
	for _, leak := range []string{"<script>alert", "<img src=x", "s3cret"} {
		if strings.Contains(shown, leak) {
			t.Errorf("preview shows %q unescaped or unredacted", leak)
		}
	}
	// Entries are ordered by name: "<script>…" 0, "remote" 1, "taken" 2.
	form := url.Values{"_csrf": {token}, "config": {importList},
		"action.0": {"skip"}, "name.0": {"<script>alert(1)</script>"},
		"action.1": {"import"}, "name.1": {"remote"},
		"action.2": {"import"}, "name.2": {"taken (2)"}}
	done := d.postForm(t, "/servers/import", form)
	if done.Status != http.StatusOK || strings.Count(done.Body, `data-testid="import-created"`) != 2 {
		t.Fatalf("import: %d %s", done.Status, done.Body)
	}
	names := serverNames(t, d)
	if strings.Join(names, ",") != "remote,taken,taken (2)" {
		t.Errorf("registered %v", names)
	}

	// Skipping the duplicate leaves it as it is.
	form.Set("action.2", "skip")
	form.Set("action.1", "skip")
	d.postForm(t, "/servers/import", form)
	if got := serverNames(t, d); len(got) != 3 {
		t.Errorf("after skipping: %v", got)
	}
}

func TestServerImportRefusesMalformed(t *testing.T) {
	d := MustDashboard(t)
	r := d.postForm(t, "/servers/import/preview", url.Values{"_csrf": {d.MustCSRF(t)}, "config": {`{"servers": {"x": {"type": "http"}}}`}})
	if r.Status != http.StatusUnprocessableEntity && r.Status != http.StatusBadRequest {
		t.Errorf("status %d", r.Status)
	}
	if !strings.Contains(r.Body, `data-testid="form-error"`) || !strings.Contains(r.Body, "field &#34;url&#34;") {
		t.Errorf("no error naming the field: %s", r.Body)
	}
}

func TestEditorCannotImportStdio(t *testing.T) {
	d := MustDashboard(t)
	d.mustAccount(t, "eddie", backend.RoleEditor)
	editor := newClient()
	d.mustSignIn(t, editor, "eddie")
	token := csrfOf(t, d, editor)
	list := `{"mcpServers": {"local": {"command": "cat"}, "remote": {"url": "http://127.0.0.1:1/mcp"}}}`
	preview := d.postFormWith(t, editor, "/servers/import/preview", url.Values{"_csrf": {token}, "config": {list}})
	if !strings.Contains(preview.Body, `data-testid="import-needs-admin"`) {
		t.Errorf("preview does not mark the stdio entry: %s", preview.Body)
	}
	done := d.postFormWith(t, editor, "/servers/import", url.Values{"_csrf": {token}, "config": {list},
		"action.0": {"import"}, "name.0": {"local"}, "action.1": {"import"}, "name.1": {"remote"}})
	if !strings.Contains(done.Body, "refused: Only admins") {
		t.Errorf("the stdio entry was not refused: %s", done.Body)
	}
	if got := serverNames(t, d); strings.Join(got, ",") != "remote" {
		t.Errorf("registered %v", got)
	}
}

func TestServerExportKeepsSecrets(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "remote", "transport": "http", "url": "http://127.0.0.1:1/mcp", "headers": map[string]string{"Authorization": "Bearer s3cret", "X-Team": "blue"}})
	id := strconv.FormatInt(srv.ID, 10)
	for _, format := range []string{"claude", "vscode", "registry"} {
		r := d.get(t, "/servers/"+id+"/export?format="+format)
		if r.Status != http.StatusOK || strings.Contains(r.Body, "s3cret") || !strings.Contains(r.Body, "blue") {
			t.Errorf("%s: %d %s", format, r.Status, r.Body)
		}
	}
	edit := d.get(t, "/servers/"+id+"/edit")
	if !strings.Contains(edit.Body, `data-testid="export-vscode"`) || strings.Contains(edit.Body, "s3cret") {
		t.Errorf("edit page: %s", edit.Body)
	}
}

var hiddenConfig = regexp.MustCompile(`<input type="hidden" name="config" value="[^"]*">`)

var serverNameCell = regexp.MustCompile(`data-testid="server-name">([^<]*)<`)

// serverNames lists the registered servers' names as the list page shows them.
func serverNames(t *testing.T, d *dashboard) []string {
	t.Helper()
	var names []string
	for _, m := range serverNameCell.FindAllStringSubmatch(d.get(t, "/").Body, -1) {
		names = append(names, m[1])
	}
	return names
}
