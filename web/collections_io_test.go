package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend/collections"
)

// collectionFile is a collection file with one example of the SDK
// server's echo tool and an environment with a secret.
func collectionFile(name string, version int) string {
	return fmt.Sprintf(`{
  "format": "mcp-playground-collection",
  "version": %d,
  "name": %q,
  "description": "imported",
  "examples": [
    {
      "name": "echo hi",
      "method": "tools/call",
      "params": {"name": "echo", "arguments": {"text": "hi"}},
      "expect": {"result": {"content": [{"type": "text", "text": "echo: hi"}]}}
    }
  ],
  "environments": [
    {"name": "staging", "values": [{"name": "host", "value": "example.org"}, {"name": "token", "secret": true}]}
  ]
}
`, version, name)
}

// importForm posts the import form as a browser does: multipart, with the
// file (when file is not nil) and the "import as" name; token "" leaves
// the CSRF token out.
func (d *dashboard) importForm(t *testing.T, token string, file []byte, name string) response {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	if token != "" {
		w.WriteField("_csrf", token)
	}
	if file != nil {
		fw, err := w.CreateFormFile("file", "x.collection.json")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(file)
	}
	w.WriteField("name", name)
	w.Close()
	req := d.newRequest(t, http.MethodPost, "/collections/import", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return d.do(t, req)
}

// collectionCount is how many collections there are.
func (d *dashboard) collectionCount(t *testing.T) int {
	t.Helper()
	list, err := d.db.ListCollections(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

var (
	exportOptionRe = regexp.MustCompile(`<option value="(\d+)"( selected)?>Latest interface of ([^<]*)</option>`)
	nameLineRe     = regexp.MustCompile(`(?m)^  "name": .*$`)
)

// TestCollectionExportImportRoundTrip imports a file through the API,
// exports it with a server's interface as baseline (page and API give
// the same bytes), imports the export under another name through the
// form, and exports that: the two exports differ only in the name. The
// page of the import says what came in, once; the export control offers
// only servers with an interface revision, the one of the latest run
// first; a server without a revision or a missing collection is refused.
func TestCollectionExportImportRoundTrip(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, sdkStdioServer("io-sdk"))
	sess := d.MustAPISession(t, srv.ID)
	unseen := d.MustAPIServer(t, map[string]any{"name": "never connected", "transport": "stdio", "command": "/bin/true"})
	token := d.MustCSRF(t)

	var created struct {
		ID           int64  `json:"id"`
		Name         string `json:"name"`
		Examples     int    `json:"examples"`
		Environments int    `json:"environments"`
	}
	req := d.newRequest(t, http.MethodPost, "/api/v1/collections/import", strings.NewReader(collectionFile("smoke", 1)))
	req.Header.Set("Content-Type", "application/json")
	if r := d.do(t, req); r.Status != http.StatusCreated || json.Unmarshal([]byte(r.Body), &created) != nil ||
		created.Name != "smoke" || created.Examples != 1 || created.Environments != 1 {
		t.Fatalf("API import: %d %s", r.Status, r.Body)
	}
	colPath := fmt.Sprintf("/collections/%d", created.ID)

	page := d.get(t, colPath)
	opts := exportOptionRe.FindAllStringSubmatch(page.Body, -1)
	if len(opts) != 1 || opts[0][1] != fmt.Sprint(srv.ID) || opts[0][2] != "" || opts[0][3] != "io-sdk" {
		t.Fatalf("before any run the export control offers %q, want io-sdk not selected:\n%s", opts, page.Body)
	}
	if strings.Contains(page.Body, `data-testid="import-notice"`) {
		t.Errorf("an API import leaves a notice on the page")
	}
	if r := d.postForm(t, colPath+"/run", url.Values{"_csrf": {token}, "session": {fmt.Sprint(sess.ID)}, "example": {"0"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("run: %d %s", r.Status, r.Body)
	}
	if opts := exportOptionRe.FindAllStringSubmatch(d.get(t, colPath).Body, -1); len(opts) != 1 || opts[0][2] != " selected" {
		t.Errorf("after a run on io-sdk the export control offers %q, want it selected", opts)
	}

	export := func(path string) response {
		t.Helper()
		r := d.get(t, fmt.Sprintf("%s/export?server=%d", path, srv.ID))
		if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("export %s: %d %q\n%s", path, r.Status, r.Header.Get("Content-Type"), r.Body)
		}
		return r
	}
	first := export(colPath)
	if got := first.Header.Get("Content-Disposition"); got != `attachment; filename="smoke.collection.json"` {
		t.Errorf("Content-Disposition = %q", got)
	}
	for _, w := range []string{`"interface": {`, `"name": "echo"`, `"name": "token",`, `"secret": true`} {
		if !strings.Contains(first.Body, w) {
			t.Errorf("the export lacks %s:\n%s", w, first.Body)
		}
	}
	if api := export("/api/v1" + colPath); api.Body != first.Body {
		t.Errorf("the API's export differs from the page's:\n%s", api.Body)
	}
	if r := d.get(t, colPath+"/export"); strings.Contains(r.Body, `"interface"`) {
		t.Errorf("an export without a server has a baseline")
	}
	var refused apiError
	if r := d.api(t, http.MethodGet, fmt.Sprintf("/api/v1%s/export?server=%d", colPath, unseen.ID), nil, &refused); r.Status != http.StatusUnprocessableEntity ||
		!strings.Contains(refused.Error, `"never connected" has no interface revision yet`) {
		t.Errorf("export with a server without revisions: %d %s", r.Status, r.Body)
	}
	if r := d.api(t, http.MethodGet, "/api/v1/collections/999/export", nil, &refused); r.Status != http.StatusNotFound || refused.Error == "" {
		t.Errorf("export of a missing collection: %d %s", r.Status, r.Body)
	}

	r := d.importForm(t, token, []byte(first.Body), "smoke copy")
	loc := r.Header.Get("Location")
	if r.Status != http.StatusSeeOther || !strings.HasPrefix(loc, "/collections/") || loc == colPath {
		t.Fatalf("form import: %d %q\n%s", r.Status, loc, r.Body)
	}
	page = d.get(t, loc)
	notice := regexp.MustCompile(`(?s)data-testid="import-notice">(.*?)</div>`).FindStringSubmatch(page.Body)
	if notice == nil || !strings.Contains(notice[1], "Imported 1 example and 1 environment.") || !strings.Contains(notice[1], "1 environment has secrets without values") {
		t.Errorf("the imported collection's page does not say what came in:\n%s", page.Body)
	}
	if !strings.Contains(page.Body, `data-testid="collection-name">smoke copy<`) {
		t.Errorf("the import is not named as typed")
	}
	if strings.Contains(d.get(t, loc).Body, `data-testid="import-notice"`) {
		t.Errorf("the import's notice shows again on reload")
	}
	second := export(loc)
	if got := second.Header.Get("Content-Disposition"); got != `attachment; filename="smoke-copy.collection.json"` {
		t.Errorf("Content-Disposition = %q", got)
	}
	if a, b := nameLineRe.ReplaceAllString(first.Body, ""), nameLineRe.ReplaceAllString(second.Body, ""); a != b {
		t.Errorf("the re-export differs from the export beyond the name:\n%s\n---\n%s", first.Body, second.Body)
	}
	if !strings.Contains(second.Body, `"name": "smoke copy"`) {
		t.Errorf("the re-export is not named smoke copy")
	}
}

// TestCollectionImportRefusals: each bad upload is refused at the import
// form, says why, keeps the typed name, and stores nothing; the API
// answers the same refusals as its error JSON.
func TestCollectionImportRefusals(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	if r := d.importForm(t, token, []byte(collectionFile("taken", 1)), ""); r.Status != http.StatusSeeOther {
		t.Fatalf("import: %d %s", r.Status, r.Body)
	}
	before := d.collectionCount(t)
	huge := []byte(collectionFile("huge", 1) + strings.Repeat(" ", collections.MaxFileBytes))
	cases := []struct {
		name   string
		file   []byte
		as     string // the "import as" name typed
		status int
		want   string
	}{
		{"not JSON", []byte("name: smoke\n"), "typed <name>", http.StatusUnprocessableEntity, "The file is not JSON: line 1, column 3"},
		{"future version", []byte(collectionFile("future", 2)), "typed <name>", http.StatusUnprocessableEntity, "collection format version 2, made by a newer MCP Playground"},
		{"another format", []byte(`{"format":"postman","version":1}`), "typed <name>", http.StatusUnprocessableEntity, "is not an MCP Playground collection"},
		{"duplicate name", []byte(collectionFile("other", 1)), "taken", http.StatusConflict, "A collection named &#34;taken&#34; already exists."},
		{"bad example", []byte(strings.Replace(collectionFile("bad", 1), `"method": "tools/call",`, `"method": "",`, 1)), "typed <name>", http.StatusUnprocessableEntity, "Example 1 (&#34;echo hi&#34;): it has no method."},
		{"too large", huge, "typed <name>", http.StatusUnprocessableEntity, "The file is larger than 16 MiB."},
		{"empty file", []byte{}, "typed <name>", http.StatusUnprocessableEntity, "The file is empty."},
		{"no file", nil, "typed <name>", http.StatusUnprocessableEntity, "Choose a collection file to import."},
	}
	formError := regexp.MustCompile(`(?s)data-testid="import-form".*data-testid="import-error">(.*?)</p>`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := d.importForm(t, token, c.file, c.as)
			m := formError.FindStringSubmatch(r.Body)
			if r.Status != c.status || m == nil || !strings.Contains(m[1], c.want) {
				t.Errorf("status %d, want %d; the import form's error is %q, want it to hold %q", r.Status, c.status, m, c.want)
			}
			if named := strings.Contains(r.Body, `x.collection.json</span> was not imported.`); named != (c.file != nil) {
				t.Errorf("the error names the file: %v, want %v", named, c.file != nil)
			}
			if !strings.Contains(r.Body, `id="import-name" name="name" value="`+html.EscapeString(c.as)+`"`) {
				t.Errorf("the form lost the typed name")
			}
			if n := d.collectionCount(t); n != before {
				t.Errorf("%d collections after a refused import, want %d", n, before)
			}
		})
	}

	for _, c := range cases[:4] {
		req := d.newRequest(t, http.MethodPost, "/api/v1/collections/import?name="+url.QueryEscape(c.as), bytes.NewReader(c.file))
		req.Header.Set("Content-Type", "application/json")
		var out apiError
		r := d.do(t, req)
		if err := json.Unmarshal([]byte(r.Body), &out); err != nil || r.Status != c.status || out.Error == "" {
			t.Errorf("API import of %s: %d %s", c.name, r.Status, r.Body)
		}
	}
	if n := d.collectionCount(t); n != before {
		t.Errorf("%d collections after refused API imports, want %d", n, before)
	}
}

// TestCollectionImportNeedsTheToken: the import form without the CSRF
// token is refused like every form, and a page of another site cannot
// post a file to the JSON API either.
func TestCollectionImportNeedsTheToken(t *testing.T) {
	d := MustDashboard(t)
	d.MustCSRF(t)
	if r := d.importForm(t, "", []byte(collectionFile("forged", 1)), ""); r.Status != http.StatusForbidden {
		t.Errorf("import without the token: %d, want 403", r.Status)
	}
	req := d.newRequest(t, http.MethodPost, "/api/v1/collections/import", strings.NewReader(collectionFile("forged", 1)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "http://evil.example")
	if r := d.do(t, req); r.Status != http.StatusForbidden && r.Status != http.StatusBadRequest {
		t.Errorf("a cross-site API import: %d, want it refused", r.Status)
	}
	if n := d.collectionCount(t); n != 0 {
		t.Errorf("%d collections after forged imports", n)
	}
}

// TestCollectionImportEscapesTheFile: a collection file's text is shown
// as text, on the page of the import and in the import form's errors, and
// the download's file name keeps none of it.
func TestCollectionImportEscapesTheFile(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	evil := `<script>alert("x")</script>`
	file := []byte(collectionFile(evil, 1))
	r := d.importForm(t, token, file, "")
	if r.Status != http.StatusSeeOther {
		t.Fatalf("import: %d %s", r.Status, r.Body)
	}
	loc := r.Header.Get("Location")
	page := d.get(t, loc)
	if strings.Contains(page.Body, evil) || !strings.Contains(page.Body, `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`) {
		t.Errorf("the collection's name is not escaped on its page:\n%s", page.Body)
	}
	if r := d.importForm(t, token, file, ""); strings.Contains(r.Body, evil) || !strings.Contains(r.Body, `data-testid="import-error"`) {
		t.Errorf("the duplicate's error is not escaped:\n%s", r.Body)
	}
	if got := d.get(t, loc+"/export").Header.Get("Content-Disposition"); got != `attachment; filename="script-alert-x-script.collection.json"` {
		t.Errorf("Content-Disposition = %q", got)
	}
}
