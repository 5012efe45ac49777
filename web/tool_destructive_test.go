package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mustDestructiveServer serves, over Streamable HTTP on loopback, an
// official SDK server with delete_note (annotated destructiveHint true),
// which counts its calls in *calls, and keep (no annotations). It returns
// the MCP URL.
func mustDestructiveServer(tb testing.TB, calls *atomic.Int64) string {
	tb.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "destructive-test", Version: "1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "delete_note", Annotations: &mcp.ToolAnnotations{DestructiveHint: new(true)}},
		func(_ context.Context, _ *mcp.CallToolRequest, in struct {
			ID string `json:"id"`
		}) (*mcp.CallToolResult, any, error) {
			calls.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "deleted " + in.ID}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "keep"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "kept"}}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// TestDestructiveToolNeedsConfirmation: a tool annotated destructiveHint
// true is marked in the tools section (its card, its form and the list),
// a call of it without _confirm=yes is refused on its card and nothing
// reaches the server or the recorded frames, and with _confirm=yes it is
// called. A tool without annotations is called without a confirmation.
func TestDestructiveToolNeedsConfirmation(t *testing.T) {
	var calls atomic.Int64
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "destructive", "transport": "http", "url": mustDestructiveServer(t, &calls)})
	sess := d.MustAPISession(t, srv.ID)
	callPath := fmt.Sprintf("/sessions/%d/tools/call?card=0", sess.ID)

	t.Run("marked", func(t *testing.T) {
		page := d.get(t, fmt.Sprintf("/servers/%d/tools/delete_note", srv.ID))
		for _, want := range []string{
			`data-badge="destructive"`,                 // the list
			`data-testid="tool-badge">destructive<`,    // the card
			`data-destructive`,                         // the form
			`data-testid="destructive-confirm" hidden`, // the closed step
		} {
			if !strings.Contains(page.Body, want) {
				t.Errorf("the tools section lacks %s", want)
			}
		}
		keep := d.get(t, fmt.Sprintf("/servers/%d/tools/keep", srv.ID))
		if strings.Contains(keep.Body, `data-testid="destructive-confirm"`) || !strings.Contains(keep.Body, `data-testid="tool-badge">may modify<`) {
			t.Errorf("the card of a tool without annotations:\n%s", keep.Body)
		}
	})

	t.Run("refused without confirmation", func(t *testing.T) {
		for _, confirm := range []string{"", "no"} {
			v := url.Values{"_tool": {"delete_note"}, "arg.id": {"n1"}}
			if confirm != "" {
				v.Set("_confirm", confirm)
			}
			r := d.htmxPost(t, callPath, token, v)
			if r.Status != http.StatusOK || !strings.Contains(r.Body, "This tool is marked destructive: confirm to call it.") ||
				strings.Contains(r.Body, `data-testid="outcome"`) || strings.Contains(r.Body, `data-testid="destructive-confirm" hidden`) {
				t.Errorf("_confirm=%q: %d\n%s", confirm, r.Status, r.Body)
			}
			if !strings.Contains(r.Body, `value="n1"`) {
				t.Errorf("_confirm=%q: the refused card lost the typed id", confirm)
			}
		}
		if n := calls.Load(); n != 0 {
			t.Errorf("the server was called %d times", n)
		}
	})

	t.Run("called with confirmation", func(t *testing.T) {
		r := d.htmxPost(t, callPath, token, url.Values{"_tool": {"delete_note"}, "arg.id": {"n2"}, "_confirm": {"yes"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="result"`) || !strings.Contains(r.Body, "deleted n2") {
			t.Fatalf("confirmed: %d\n%s", r.Status, r.Body)
		}
		if n := calls.Load(); n != 1 {
			t.Errorf("the server was called %d times, want once", n)
		}
		// Frames are recorded in order: once the confirmed call's result is
		// there, a refused call's request would be too.
		frames := waitFrames(t, d, sess.ID, func(fs []apiFrame) bool {
			for _, f := range fs {
				if f.Method == "tools/call" && f.RPCType == "result" {
					return true
				}
			}
			return false
		})
		var sent []string
		for _, f := range frames {
			if f.Method == "tools/call" && f.RPCType == "request" {
				var body struct {
					Params struct {
						Arguments json.RawMessage `json:"arguments"`
					} `json:"params"`
				}
				_ = json.Unmarshal(f.Body, &body)
				sent = append(sent, string(body.Params.Arguments))
			}
		}
		if len(sent) != 1 || sent[0] != `{"id":"n2"}` {
			t.Errorf("tools/call requests sent: %q, want only the confirmed one", sent)
		}
	})

	t.Run("no confirmation for a tool without annotations", func(t *testing.T) {
		r := d.htmxPost(t, callPath, token, url.Values{"_tool": {"keep"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="result"`) || !strings.Contains(r.Body, "kept") {
			t.Errorf("keep: %d\n%s", r.Status, r.Body)
		}
	})
}
