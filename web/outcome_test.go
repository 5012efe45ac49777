package web_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
	"github.com/mcp-playground/playground/views"
	"github.com/mcp-playground/playground/web"
)

func TestIsMarkdown(t *testing.T) {
	tests := []struct {
		name, text, mime string
		want             bool
	}{
		{"declared markdown", "plain words", "text/markdown", true},
		{"declared markdown with charset", "plain", "text/markdown; charset=utf-8", true},
		{"declared plain text", "# looks like a heading", "text/plain", false},
		{"heading", "# Title\n\nbody", "", true},
		{"code fence", "see:\n```\ncode\n```", "", true},
		{"list and link", "- one\n- [two](https://x.test)", "", true},
		{"list and emphasis", "1. **bold** step", "", true},
		{"plain sentence", "The sum is 5.", "", false},
		{"a lone list", "- just a dash line", "", false},
		{"a hash tag", "#hashtag is not a heading", "", false},
		{"json", `{"a": [1, 2]}`, "", false},
		{"arithmetic", "2 * 3 * 4 = 24", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := web.IsMarkdown(tt.text, tt.mime); got != tt.want {
				t.Errorf("IsMarkdown(%q, %q) = %t, want %t", tt.text, tt.mime, got, tt.want)
			}
		})
	}
}

// TestRenderMarkdownIsSanitised renders hostile Markdown: script, event
// handlers, javascript: links and network images never reach the page.
func TestRenderMarkdownIsSanitised(t *testing.T) {
	src := "# Hi\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n" +
		"[click](javascript:alert(3)) and [docs](https://example.com/docs)\n\n" +
		"![tracker](https://evil.test/pixel.png)\n\n<a href=\"https://x.test\" onclick=\"alert(4)\">raw</a>\n\n**bold**"
	html := web.RenderMarkdown(src)
	for _, bad := range []string{"<script", "alert(", "onerror", "onclick", "javascript:", "<img"} {
		if strings.Contains(strings.ToLower(html), bad) {
			t.Errorf("rendered Markdown contains %q:\n%s", bad, html)
		}
	}
	for _, want := range []string{"<h1>Hi</h1>", "<strong>bold</strong>", `href="https://example.com/docs"`, `target="_blank"`, "nofollow", "noopener", "tracker</a>"} {
		if !strings.Contains(html, want) {
			t.Errorf("rendered Markdown lacks %q:\n%s", want, html)
		}
	}
}

// bigText is a tools/call result with one text block of n bytes.
func bigText(n int) json.RawMessage {
	res, _ := json.Marshal(backend.CallToolResult{Content: []backend.Content{{Type: "text", Text: strings.Repeat("x", n)}}})
	return res
}

// renderOutcome renders o as the editor who made the call sees it.
func renderOutcome(t testing.TB, o *views.ToolOutcome) string {
	return renderOutcomeAs(t, o, backend.RoleEditor)
}

// renderOutcomeAs renders o as someone with role sees it.
func renderOutcomeAs(t testing.TB, o *views.ToolOutcome, role backend.Role) string {
	var buf bytes.Buffer
	ctx := views.WithViewer(context.Background(), accounts.Principal{Role: role})
	if err := views.Outcome(*o).Render(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestOutcomeCutsBigResults(t *testing.T) {
	t.Run("small result whole", func(t *testing.T) {
		o := web.OutcomeOf(backend.CallResult{Result: bigText(900 << 10), ResponseFrameID: 9}, nil, backend.Tool{}, 1)
		if o.Cut || o.Content[0].Text.Cut != 0 || len(o.Content[0].Text.Text) != 900<<10 || o.Result == "" {
			t.Errorf("a 900 KiB result: cut %t, text %d bytes (%d cut), result json %d bytes", o.Cut, len(o.Content[0].Text.Text), o.Content[0].Text.Cut, len(o.Result))
		}
	})
	t.Run("5 MiB text", func(t *testing.T) {
		o := web.OutcomeOf(backend.CallResult{Result: bigText(5 << 20), ResponseFrameID: 9}, nil, backend.Tool{}, 1)
		if !o.Cut || o.Result != "" || o.Content[0].Text.Cut != 5<<20-256<<10 || o.Content[0].Text.Total != 5<<20 {
			t.Errorf("cut %t, result json %d bytes, text cut %d of %d", o.Cut, len(o.Result), o.Content[0].Text.Cut, o.Content[0].Text.Total)
		}
		html := renderOutcome(t, o)
		if len(html) > 600<<10 {
			t.Errorf("the outcome's HTML is %d bytes, want under 600 KiB", len(html))
		}
		for _, want := range []string{`data-testid="outcome-cut"`, `href="/frames/9/body"`, `href="/frames/9/raw"`, "4.8 MiB of 5 MiB not shown"} {
			if !strings.Contains(html, want) {
				t.Errorf("the cut outcome lacks %q", want)
			}
		}
	})
	t.Run("many blocks and a big image", func(t *testing.T) {
		var blocks []backend.Content
		img := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{1}, 600<<10))
		blocks = append(blocks, backend.Content{Type: "image", MimeType: "image/png", Data: img})
		for range 3000 {
			blocks = append(blocks, backend.Content{Type: "text", Text: strings.Repeat("y", 400)})
		}
		res, _ := json.Marshal(backend.CallToolResult{Content: blocks})
		o := web.OutcomeOf(backend.CallResult{Result: res}, nil, backend.Tool{}, 1)
		if o.Content[0].Data != "" || o.Content[0].DataSize != len(img) {
			t.Errorf("the big image was inlined (%d bytes)", len(o.Content[0].Data))
		}
		if len(o.Content)+o.Hidden != len(blocks) || o.Hidden == 0 {
			t.Errorf("%d blocks shown, %d hidden, of %d", len(o.Content), o.Hidden, len(blocks))
		}
		html := renderOutcome(t, o)
		if len(html) > 600<<10 || !strings.Contains(html, `data-testid="binary-too-big"`) || !strings.Contains(html, "more content blocks are not shown") {
			t.Errorf("HTML of %d bytes; too-big image and hidden blocks said: %t %t", len(html),
				strings.Contains(html, "binary-too-big"), strings.Contains(html, "more content blocks"))
		}
	})
}

// BenchmarkOutcome5MiB builds and renders a 5 MiB result's outcome.
func BenchmarkOutcome5MiB(b *testing.B) {
	res := backend.CallResult{Result: bigText(5 << 20), ResponseFrameID: 1}
	var size int
	for b.Loop() {
		html := renderOutcome(b, web.OutcomeOf(res, nil, backend.Tool{}, 1))
		if !strings.Contains(html, `data-outcome="result"`) || !strings.Contains(html, `data-testid="outcome-cut"`) {
			b.Fatalf("the outcome of a 5 MiB result is not a cut result:\n%.500s", html)
		}
		size = len(html)
	}
	b.ReportMetric(float64(size), "html-bytes")
}

// TestOutcome5MiBIsQuick bounds the time a 5 MiB result takes to show.
// The bound is generous, for -race on a busy machine; without it
// BenchmarkOutcome5MiB takes about 0.1 s.
func TestOutcome5MiBIsQuick(t *testing.T) {
	res := backend.CallResult{Result: bigText(5 << 20), ResponseFrameID: 1}
	start := time.Now()
	html := renderOutcome(t, web.OutcomeOf(res, nil, backend.Tool{}, 1))
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a 5 MiB result took %v to render", d)
	}
	if len(html) > 600<<10 {
		t.Errorf("HTML of %d bytes", len(html))
	}
}

func TestOutcomeVerdictsAndBlocks(t *testing.T) {
	tool := backend.Tool{Name: "w", OutputSchema: json.RawMessage(`{"type":"object","properties":{"t":{"type":"number"}},"required":["t"]}`)}
	prio := 0.5
	blocks := []backend.Content{
		{Type: "text", Text: "# Title\n\n- **a**", Annotations: &backend.Annotations{Audience: []string{"user"}, Priority: &prio}},
		{Type: "audio", MimeType: "audio/wav", Data: base64.StdEncoding.EncodeToString([]byte("RIFF....WAVE"))},
		{Type: "resource_link", URI: "demo://readme", Name: "readme", Description: "What this offers.", Meta: json.RawMessage(`{"k":"v"}`)},
		{Type: "resource", Resource: json.RawMessage(`{"uri":"demo://c.md","mimeType":"text/markdown","text":"## Sub"}`)},
	}
	tests := []struct {
		name, structured, want string
	}{
		{"match", `{"t":1}`, `data-verdict="match"`},
		{"mismatch", `{"t":"x"}`, `data-verdict="mismatch"`},
		{"missing", ``, `data-verdict="missing"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := backend.CallToolResult{Content: blocks, Meta: json.RawMessage(`{"trace":"abc"}`)}
			if tt.structured != "" {
				r.StructuredContent = json.RawMessage(tt.structured)
			}
			raw, _ := json.Marshal(r)
			html := renderOutcome(t, web.OutcomeOf(backend.CallResult{Result: raw}, nil, tool, 4))
			for _, want := range []string{tt.want, "<h1>Title</h1>", "audience: user", "priority: 0.5", `data-testid="content-audio"`,
				`hx-post="/sessions/4/resources/read"`, `value="demo://readme"`, "What this offers.", "<h2>Sub</h2>", `data-testid="result-meta"`, "trace"} {
				if !strings.Contains(html, want) {
					t.Errorf("the outcome lacks %q", want)
				}
			}
		})
	}
	t.Run("a viewer reads about a resource link but cannot read it", func(t *testing.T) {
		raw, _ := json.Marshal(backend.CallToolResult{Content: blocks})
		html := renderOutcomeAs(t, web.OutcomeOf(backend.CallResult{Result: raw}, nil, tool, 4), backend.RoleViewer)
		if strings.Contains(html, "/resources/read") || !strings.Contains(html, "What this offers.") || !strings.Contains(html, "Reading it needs the editor role.") {
			t.Errorf("a viewer's outcome offers to read the resource link, or does not say who may:\n%s", html)
		}
	})
	t.Run("no outputSchema", func(t *testing.T) {
		html := renderOutcome(t, web.OutcomeOf(backend.CallResult{Result: json.RawMessage(`{"content":[]}`)}, nil, backend.Tool{Name: "t"}, 1))
		if !strings.Contains(html, `data-verdict="no-schema"`) || !strings.Contains(html, "no outputSchema") {
			t.Errorf("the outcome without outputSchema:\n%s", html)
		}
	})
	t.Run("isError and JSON-RPC error differ", func(t *testing.T) {
		toolErr := renderOutcome(t, web.OutcomeOf(backend.CallResult{Result: json.RawMessage(`{"content":[{"type":"text","text":"bad"}],"isError":true}`)}, nil, backend.Tool{}, 1))
		rpcErr := renderOutcome(t, web.OutcomeOf(backend.CallResult{Error: &backend.JSONRPCError{Code: -32602, Message: "nope"}}, nil, backend.Tool{}, 1))
		if !strings.Contains(toolErr, `data-outcome="tool-error"`) || !strings.Contains(rpcErr, `data-outcome="rpc-error"`) || !strings.Contains(rpcErr, "-32602") {
			t.Errorf("tool error:\n%s\nJSON-RPC error:\n%s", toolErr, rpcErr)
		}
	})
}
