package views

import (
	"context"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"github.com/mcp-playground/playground/backend"
)

func renderString(t *testing.T, c templ.Component) string {
	t.Helper()
	var b strings.Builder
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestJSONBodyMarksPointers marks the values findings point at, however
// deep, opens what leads to them, and reads escaped keys as RFC 6901 says.
func TestJSONBodyMarksPointers(t *testing.T) {
	body := `{"a":{"b":{"c":{"d":{"e":1,"f":2}}}},"x/y":{"m~n":[true,"<s>"]},"z":3}`
	got := renderString(t, jsonBodyMarked([]byte(body), []string{"/a/b/c/d/e", "/x~1y/m~0n/1"}))
	for _, want := range []string{
		`<div class="jv-line jv-flagged" data-pointer="/a/b/c/d/e"><span class="jv-key">&#34;e&#34;</span>`,
		`<div class="jv-line jv-flagged" data-pointer="/x~1y/m~0n/1"><span class="jv-str">&#34;&lt;s&gt;&#34;</span>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in\n%s", want, got)
		}
	}
	if n := strings.Count(got, "jv-flagged"); n != 2 {
		t.Errorf("%d values marked, want 2", n)
	}
	// /a/b/c/d is at depth 4, which starts closed unless it leads to a mark.
	if strings.Contains(got, `<details class="jv-node"><summary`) {
		t.Errorf("a node on the way to a mark is closed:\n%s", got)
	}
	whole := renderString(t, jsonBodyMarked([]byte(`{"a":1}`), []string{""}))
	if !strings.Contains(whole, `<summary class="jv-line jv-flagged" data-pointer="">`) {
		t.Errorf("the whole body is not marked:\n%s", whole)
	}
	if plain := renderString(t, jsonBodyMarked([]byte(body), nil)); strings.Contains(plain, "jv-flagged") || strings.Contains(plain, "data-pointer") {
		t.Errorf("a body without findings has marks:\n%s", plain)
	}
}

// TestFrameRowShowsFindings shows a flagged frame's badge, by its worst
// finding, and each finding in the opened row; a frame without findings
// has neither. Messages are text, never markup.
func TestFrameRowShowsFindings(t *testing.T) {
	f := backend.Frame{ID: 7, SessionID: 1, Direction: "in", Kind: "message", RPCType: backend.RPCError, Body: []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32050,"message":"x"}}`),
		Findings: []backend.LintFinding{
			{Code: "jsonrpc.reserved-code", Severity: backend.LintWarning, Pointer: "/error/code", Message: "<b>reserved</b>", Spec: "https://www.jsonrpc.org/specification#error_object", Fix: "use another code"},
			{Code: "mcp.schema", Severity: backend.LintError, Pointer: "", Message: "bad", Spec: "schema/2025-11-25/schema.json#/$defs/JSONRPCErrorResponse"},
		}}
	got := renderString(t, FrameRow(f))
	for _, want := range []string{
		`data-testid="lint-badge" data-severity="error">lint: 2 (error)</span>`,
		`data-code="jsonrpc.reserved-code" data-pointer="/error/code"`,
		`&lt;b&gt;reserved&lt;/b&gt;`, `use another code`,
		`<code class="lint-pointer" title="where in the body (a JSON pointer)">(whole body)</code>`,
		`href="https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/schema/2025-11-25/schema.json"`,
		`>schema: JSONRPCErrorResponse</a>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, "<b>") {
		t.Error("a message is rendered as markup")
	}
	f.Findings = nil
	if clean := renderString(t, FrameRow(f)); strings.Contains(clean, "lint-") {
		t.Errorf("a clean frame shows lint:\n%s", clean)
	}
}

func TestFindingCountLabel(t *testing.T) {
	for _, tt := range []struct {
		c    backend.FindingCount
		want string
	}{
		{backend.FindingCount{Errors: 1}, "lint: 1 error"},
		{backend.FindingCount{Errors: 2, Warnings: 1, Infos: 3}, "lint: 2 errors, 1 warning, 3 info"},
		{backend.FindingCount{Warnings: 4}, "lint: 4 warnings"},
	} {
		if got := findingCountLabel(tt.c); got != tt.want {
			t.Errorf("findingCountLabel(%+v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}
