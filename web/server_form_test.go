package web_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestServerFormValidation(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	form := func(kv ...string) url.Values {
		v := url.Values{"_csrf": {token}}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	// A server to collide with.
	if r := d.postForm(t, "/servers", form("name", "taken", "transport", "stdio", "command", "/bin/true")); r.Status != http.StatusSeeOther {
		t.Fatalf("creating the first server: %d %s", r.Status, r.Body)
	}

	tests := []struct {
		name    string
		values  url.Values
		errors  []string // data-testid="error-<field>" expected
		message string   // substring of the error messages shown
	}{
		{"empty", form("transport", "stdio"), []string{"name", "command"}, "Name is required"},
		{"name too long", form("name", strings.Repeat("n", 65), "transport", "stdio", "command", "sh"), []string{"name"}, "at most 64 characters; this one has 65"},
		{"name with a control character", form("name", "a\x07b", "transport", "stdio", "command", "sh"), []string{"name"}, "printable text"},
		{"no transport", form("name", "ok", "command", "sh"), []string{"transport"}, "Choose stdio, http or sse"},
		{"env line without =", form("name", "ok", "transport", "stdio", "command", "sh", "env", "GOOD=1\nBROKEN"), []string{"env"}, "BROKEN"},
		{"command not on PATH", form("name", "ok", "transport", "stdio", "command", "no-such-program-mcp"), []string{"command"},
			`no program named "no-such-program-mcp" on this machine's PATH`},
		{"command line with arguments", form("name", "ok", "transport", "stdio", "command", "npx -y", "args", "pkg"), []string{"command"},
			"each argument on its own line"},
		{"command line unterminated", form("name", "ok", "transport", "stdio", "command", "sh -c 'exec cat"), []string{"command"},
			"unterminated single quote"},
		{"command error reported with a parse error", form("name", "ok", "transport", "stdio", "command", "no-such-program-mcp", "env", "BROKEN"),
			[]string{"command", "env"}, ""},
		{"other transport's broken lines ignored", form("name", "ok", "transport", "http", "url", "ftp://x", "env", "BROKEN", "command", "nope"),
			[]string{"url"}, "http://"},
		{"env error reported with the others", form("transport", "stdio", "env", "BROKEN"), []string{"name", "command", "env"}, ""},
		{"bad env name", form("name", "ok", "transport", "stdio", "command", "sh", "env", "1BAD=x"), []string{"env"}, "1BAD"},
		{"bad url", form("name", "ok", "transport", "http", "url", "ftp://x"), []string{"url"}, "http://"},
		{"header line without colon", form("name", "ok", "transport", "http", "url", "http://127.0.0.1:1/mcp", "headers", "Authorization Bearer x"), []string{"headers"}, "name:value"},
		{"bad header name", form("name", "ok", "transport", "http", "url", "http://127.0.0.1:1/mcp", "headers", "Bad Header: x"), []string{"headers"}, "Bad Header"},
		{"duplicate name", form("name", "taken", "transport", "stdio", "command", "sh"), []string{"name"}, "already taken"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := d.postForm(t, "/servers", tt.values)
			if r.Status != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422: %s", r.Status, r.Body)
			}
			if !strings.Contains(r.Body, `data-testid="server-form"`) || !strings.Contains(r.Body, `data-testid="form-error"`) {
				t.Error("the form was not re-rendered with its error banner")
			}
			for _, f := range tt.errors {
				if !strings.Contains(r.Body, `data-testid="error-`+f+`"`) {
					t.Errorf("no error shown for %q", f)
				}
			}
			if n := strings.Count(r.Body, `class="field-error"`); n != len(tt.errors) {
				t.Errorf("%d field errors shown, want %d", n, len(tt.errors))
			}
			if tt.message != "" && !strings.Contains(html.UnescapeString(r.Body), tt.message) {
				t.Errorf("message %q not shown", tt.message)
			}
			// What was typed is kept.
			if name := tt.values.Get("name"); name != "" && !strings.Contains(r.Body, `value="`+html.EscapeString(name)+`"`) {
				t.Errorf("typed name %q not kept in the form", name)
			}
			// A fresh token comes with the re-rendered form.
			if !csrfField.MatchString(r.Body) {
				t.Error("no CSRF field in the re-rendered form")
			}
		})
	}
	assertServerCount(t, d, 1)

	t.Run("markup in fields is escaped", func(t *testing.T) {
		evil := `<script>alert(1)</script>`
		r := d.postForm(t, "/servers", form("name", evil, "transport", "stdio", "command", evil))
		if r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("status %d", r.Status)
		}
		if strings.Contains(r.Body, evil) {
			t.Error("user input rendered unescaped")
		}
	})
}

func TestServerFormCreateAndEdit(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	r := d.postForm(t, "/servers", url.Values{"_csrf": {token}, "name": {"  spaced  "}, "transport": {"stdio"},
		"command": {" sh "}, "args": {"dist/index.js\r\n\r\n stdio \n"}, "env": {"A=1\nB = two words"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	loc := r.Header.Get("Location")
	var list []apiServer
	d.api(t, http.MethodGet, "/api/v1/servers", nil, &list)
	if len(list) != 1 || list[0].Name != "spaced" || list[0].Command != "sh" {
		t.Fatalf("servers = %+v", list)
	}
	srv, err := d.reg.Get(t.Context(), list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(srv.Args, "|") != "dist/index.js|stdio" || srv.Env["A"] != "1" || srv.Env["B"] != "two words" {
		t.Errorf("stored args %q env %v", srv.Args, srv.Env)
	}

	edit := d.get(t, loc+"/edit")
	if edit.Status != http.StatusOK || !strings.Contains(edit.Body, `value="spaced"`) || !strings.Contains(edit.Body, "dist/index.js\nstdio") {
		t.Errorf("edit form: %d\n%s", edit.Status, edit.Body)
	}
	r = d.postForm(t, loc, url.Values{"_csrf": {token}, "name": {"renamed"}, "transport": {"http"}, "url": {"http://127.0.0.1:9/mcp"},
		"headers": {"X-Api-Key: k1"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != loc {
		t.Fatalf("update: %d %q %s", r.Status, r.Header.Get("Location"), r.Body)
	}
	srv, _ = d.reg.Get(t.Context(), list[0].ID)
	if srv.Name != "renamed" || srv.Transport != "http" || srv.URL != "http://127.0.0.1:9/mcp" || srv.Headers["X-Api-Key"] != "k1" {
		t.Errorf("after update: %+v", srv)
	}

	t.Run("update with errors keeps the edit title", func(t *testing.T) {
		r := d.postForm(t, loc, url.Values{"_csrf": {token}, "name": {""}, "transport": {"http"}, "url": {"x"}})
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `data-testid="error-url"`) {
			t.Errorf("status %d", r.Status)
		}
	})

	t.Run("delete", func(t *testing.T) {
		r := d.postForm(t, loc+"/delete", url.Values{"_csrf": {token}})
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/" {
			t.Fatalf("delete: %d %q", r.Status, r.Header.Get("Location"))
		}
		assertServerCount(t, d, 0)
		if r := d.get(t, loc); r.Status != http.StatusNotFound || !strings.Contains(r.Body, `data-testid="page-error"`) {
			t.Errorf("deleted server page: %d", r.Status)
		}
		if r := d.postForm(t, loc+"/delete", url.Values{"_csrf": {token}}); r.Status != http.StatusNotFound {
			t.Errorf("second delete: %d", r.Status)
		}
	})
}

func TestServerFormSplitsCommandLine(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	r := d.postForm(t, "/servers", url.Values{"_csrf": {token}, "name": {"Everything (npx)"}, "transport": {"stdio"},
		"command": {`sh -c 'exec cat'`}, "args": {""}, "url": {"http://127.0.0.1:9/mcp"}, "headers": {"not a header line"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	page := d.get(t, r.Header.Get("Location"))
	body := html.UnescapeString(page.Body)
	for _, want := range []string{"<h1>Everything (npx)</h1>", `data-testid="server-command">sh<`, `data-testid="server-arg">-c<`, `data-testid="server-arg">exec cat<`} {
		if !strings.Contains(body, want) {
			t.Errorf("server page lacks %s", want)
		}
	}
	var list []apiServer
	d.api(t, http.MethodGet, "/api/v1/servers", nil, &list)
	if len(list) != 1 || list[0].Command != "sh" || strings.Join(list[0].Args, "|") != "-c|exec cat" || list[0].URL != "" {
		t.Errorf("servers = %+v", list)
	}
}

func TestServerFormWithoutScript(t *testing.T) {
	d := MustDashboard(t)
	r := d.get(t, "/servers/new")
	if r.Status != http.StatusOK {
		t.Fatalf("status %d", r.Status)
	}
	tests := []struct {
		name string
		want string
	}{
		{"stdio section, not hidden", `<fieldset data-transports="stdio" data-testid="stdio-fields">`},
		{"http section, not hidden", `<fieldset data-transports="http sse" data-testid="http-fields">`},
		{"hint on which section counts", `data-transport-hint>Fill in only the section of the transport you choose`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(r.Body, tt.want) {
				t.Errorf("the form lacks %s", tt.want)
			}
		})
	}
}
