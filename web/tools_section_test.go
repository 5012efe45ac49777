package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolsSection opens the Tools section of a server whose tool names
// need escaping in a path: the list names every tool, each tool opens
// under its own URL, ?q= filters the list, and an unknown tool is a 404
// page saying so. Disconnected, the section offers to connect.
func TestToolsSection(t *testing.T) {
	d := MustDashboard(t)
	server := mcp.NewServer(&mcp.Implementation{Name: "names", Version: "1"}, nil)
	names := []string{"plain", "a/b", "50%off", "名前", "with space"}
	for _, n := range names {
		mcp.AddTool(server, &mcp.Tool{Name: n, Description: "the tool " + n},
			func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
			})
	}
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	srv := d.MustAPIServer(t, map[string]any{"name": "names", "transport": "http", "url": ts.URL + "/mcp"})
	base := fmt.Sprintf("/servers/%d/tools", srv.ID)

	if r := d.get(t, base); r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="not-connected"`) {
		t.Errorf("the tools of a disconnected server: %d, want the offer to connect\n%.2000s", r.Status, r.Body)
	}
	d.MustAPISession(t, srv.ID)

	r := d.get(t, base)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d", base, r.Status)
	}
	for _, n := range names {
		href := base + "/" + url.PathEscape(n)
		if !strings.Contains(r.Body, `href="`+href+`"`) || !strings.Contains(r.Body, `data-item="`+htmlEscape(n)+`" title="the tool `+htmlEscape(n)+`"`) {
			t.Errorf("the list has no link %s for %q, with its description as the tooltip", href, n)
		}
		one := d.get(t, href)
		if one.Status != http.StatusOK || !strings.Contains(one.Body, `data-testid="tool" data-tool="`+htmlEscape(n)+`"`) {
			t.Errorf("GET %s: %d, want the card of %q", href, one.Status, n)
		}
		if strings.Count(one.Body, `data-testid="tool"`) != 1 || !strings.Contains(one.Body, `aria-current="true" data-testid="item-link" data-item="`+htmlEscape(n)+`"`) {
			t.Errorf("GET %s does not show exactly the one card with its list entry current", href)
		}
	}

	filtered := d.get(t, base+"?q=OFF")
	if c := strings.Count(filtered.Body, `data-testid="item-link"`); c != 1 || !strings.Contains(filtered.Body, "1 of 5 match") {
		t.Errorf("?q=OFF lists %d tools, want the one match and a count", c)
	}
	if none := d.get(t, base+"?q=zzz"); !strings.Contains(none.Body, "No tool matches the search.") {
		t.Errorf("a search that matches nothing does not say so:\n%.2000s", none.Body)
	}

	missing := d.get(t, base+"/nope")
	if missing.Status != http.StatusNotFound || !strings.Contains(missing.Body, "no tool named &#34;nope&#34;") {
		t.Errorf("an unknown tool: %d\n%.2000s", missing.Status, missing.Body)
	}
	long := strings.Repeat("A", 512<<10)
	for _, path := range []string{base + "/" + long, "/servers/" + fmt.Sprint(srv.ID) + "/resources?uri=x://" + long,
		"/servers/" + fmt.Sprint(srv.ID) + "/resources?template=x://" + long} {
		r := d.get(t, path)
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "at most 4096 are accepted") || len(r.Body) > 64<<10 {
			t.Errorf("GET %.60s… (512 KiB): %d, %d bytes", path, r.Status, len(r.Body))
		}
	}
}

// htmlEscape is how templ writes text into an attribute.
func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", `"`, "&#34;", "<", "&lt;", ">", "&gt;", "'", "&#39;").Replace(s)
}
