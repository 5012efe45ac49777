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

func noopTool(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{}, nil
}

func TestServerPageInterfaceDrift(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	server := mcp.NewServer(&mcp.Implementation{Name: "drifting", Version: "1"}, nil)
	obj := func(props ...string) map[string]any {
		p := map[string]any{}
		for _, name := range props {
			p[name] = map[string]any{"type": "string"}
		}
		return map[string]any{"type": "object", "properties": p}
	}
	server.AddTool(&mcp.Tool{Name: "echo", InputSchema: obj("text")}, noopTool)
	server.AddTool(&mcp.Tool{Name: "old", InputSchema: obj()}, noopTool)
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	srv := d.MustAPIServer(t, map[string]any{"name": "drifting", "transport": "http", "url": ts.URL + "/mcp"})
	overview := fmt.Sprintf("/servers/%d", srv.ID)
	reconnect := func(t *testing.T) {
		t.Helper()
		sess := d.MustAPISession(t, srv.ID)
		if r := d.get(t, overview); r.Status != http.StatusOK { // waits for the revision
			t.Fatalf("server page: %d", r.Status)
		}
		if r := d.postForm(t, fmt.Sprintf("/sessions/%d/disconnect", sess.ID), url.Values{"_csrf": {token}}); r.Status != http.StatusSeeOther {
			t.Fatalf("disconnect: %d", r.Status)
		}
	}

	if r := d.get(t, overview); !strings.Contains(r.Body, `data-testid="drift-none"`) {
		t.Errorf("a server never connected shows no 'no revision yet':\n%s", r.Body)
	}
	reconnect(t)
	r := d.get(t, overview)
	for _, want := range []string{`data-testid="drift-revision">revision 1, from `, `data-testid="drift-first">2 tools, 0 resources`} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("after the first connect the Overview lacks %q", want)
		}
	}
	if strings.Contains(r.Body, `data-testid="drift-older"`) {
		t.Error("a link to older revisions when there is only one")
	}

	server.AddTool(&mcp.Tool{Name: "bonus", InputSchema: obj()}, noopTool)
	server.RemoveTools("old")
	server.AddTool(&mcp.Tool{Name: "echo", Description: "<b>loud</b>", InputSchema: obj("text")}, noopTool)
	reconnect(t)
	r = d.get(t, overview)
	for _, want := range []string{
		`data-testid="drift-revision">revision 2, from `,
		`data-testid="drift-added">added: bonus<`,
		`data-testid="drift-removed">removed: old<`,
		`changed: <span class="mono">echo</span>`,
		`<span class="drift-op drift-op-added">added</span> /description <span class="drift-new">&#34;&lt;b&gt;loud&lt;/b&gt;&#34;</span>`,
		fmt.Sprintf(`href="/servers/%d/revisions" data-testid="drift-older"`, srv.ID),
	} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("after the change the Overview lacks %q\n%s", want, r.Body)
		}
	}
	if strings.Contains(r.Body, "<b>loud") {
		t.Error("a tool's description reached the page as markup")
	}

	reconnect(t)
	if r := d.get(t, overview); !strings.Contains(r.Body, `revision 2, from `) || !strings.Contains(r.Body, "added: bonus") {
		t.Error("a connect without changes replaced revision 2's changes")
	}

	r = d.get(t, fmt.Sprintf("/servers/%d/revisions", srv.ID))
	if r.Status != http.StatusOK || strings.Count(r.Body, `data-testid="revision"`) != 2 ||
		!strings.Contains(r.Body, "Revision 2") || !strings.Contains(r.Body, "added: bonus") || !strings.Contains(r.Body, "the first revision") {
		t.Errorf("revisions page: %d\n%s", r.Status, r.Body)
	}
	if r := d.get(t, "/servers/999999/revisions"); r.Status != http.StatusNotFound {
		t.Errorf("revisions of an unknown server: %d, want 404", r.Status)
	}
}
