package backend

import (
	"slices"
	"testing"
)

func TestExpandTemplate(t *testing.T) {
	// Values and expansions from RFC 6570, section 3.2.
	values := map[string]string{
		"var": "value", "hello": "Hello World!", "path": "/foo/bar", "x": "1024", "y": "768",
		"list": "red,green,blue", "empty": "",
	}
	for _, tc := range []struct {
		name, tmpl, want string
	}{
		{"simple", "{var}", "value"},
		{"simple escapes", "{hello}", "Hello%20World%21"},
		{"reserved", "{+path}/here", "/foo/bar/here"},
		{"fragment", "X{#var}", "X#value"},
		{"label", "X{.var}", "X.value"},
		{"path segments", "{/var,x}/here", "/value/1024/here"},
		{"path parameters", "{;x,y}", ";x=1024;y=768"},
		{"query", "{?x,y}", "?x=1024&y=768"},
		{"query continuation", "?fixed=yes{&x}", "?fixed=yes&x=1024"},
		{"exploded list", "{/list*}", "/red/green/blue"},
		{"prefix", "{var:3}", "val"},
		{"blank is undefined", "X{?x,empty}", "X?x=1024"},
		{"MCP resource template", "demo://users/{id}", "demo://users/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ExpandTemplate(tc.tmpl, values)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("ExpandTemplate(%q) = %q, want %q", tc.tmpl, got, tc.want)
			}
		})
	}
}

func TestTemplateVariables(t *testing.T) {
	got, err := TemplateVariables("file:///{+root}/{name}{?x,y}{#frag}")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"root", "name", "x", "y", "frag"}; !slices.Equal(got, want) {
		t.Errorf("TemplateVariables = %q, want %q", got, want)
	}
	if _, err := TemplateVariables("demo://{unclosed"); ErrorCodeOf(err) != EInvalid {
		t.Errorf("an invalid template: %v, want an EInvalid error", err)
	}
}
