package backend_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
)

func promptHandler(text string) mcp.PromptHandler {
	return func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}, nil
	}
}

// TestPoolPrompts lists a server's prompts once, keeps the list until the
// server says it changed (notifications/prompts/list_changed), then lists
// them again; GetPrompt sends prompts/get (and names its stored response
// frame when asked), and an unknown prompt is ENotFound.
func TestPoolPrompts(t *testing.T) {
	e := MustEnv(t)
	ctx := backendtest.Context(t)
	server := mcp.NewServer(&mcp.Implementation{Name: "prompts", Version: "1"}, nil)
	server.AddPrompt(&mcp.Prompt{Name: "one"}, promptHandler("first"))
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	sess := e.MustConnect(t, e.MustServer(t, httpServer("prompts", ts.URL+"/mcp")))

	prompts, err := e.Pool.Prompts(ctx, sess.ID, false)
	if err != nil || len(prompts) != 1 || prompts[0].Name != "one" {
		t.Fatalf("Prompts = %+v, %v", prompts, err)
	}
	res, err := e.Pool.GetPrompt(ctx, sess.ID, "one", nil, backend.CallOptions{ResponseFrame: true})
	if err != nil || res.Error != nil || len(res.Result) == 0 || res.ResponseFrameID == 0 {
		t.Errorf("GetPrompt = %+v, %v; want a result and its response frame id", res, err)
	} else if f, err := e.DB.GetFrame(ctx, res.ResponseFrameID); err != nil || f.Method != "prompts/get" || !strings.Contains(string(f.Body), "first") {
		t.Errorf("GetPrompt's response frame = %+v, %v", f, err)
	}
	if _, err := e.Pool.Prompt(ctx, sess.ID, "two"); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("Prompt(two) before it exists: %v", err)
	}
	if err := e.Rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := countFrames(t, e, sess.ID, "prompts/list", backend.RPCRequest); n != 1 {
		t.Errorf("%d prompts/list requests before any change, want 1", n)
	}

	server.AddPrompt(&mcp.Prompt{Name: "two"}, promptHandler("second"))
	for deadline := time.Now().Add(10 * time.Second); ; {
		prompts, err = e.Pool.Prompts(ctx, sess.ID, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(prompts) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the prompt list was not listed again after list_changed: %+v", prompts)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if p, err := e.Pool.Prompt(ctx, sess.ID, "two"); err != nil || p.Name != "two" {
		t.Errorf("Prompt(two) = %+v, %v", p, err)
	}
	// The server lacks the completions capability: nothing is asked.
	if _, err := e.Pool.Complete(ctx, sess.ID, backend.CompletionRef{Type: "ref/prompt", Name: "one"}, "x", "", nil); err != backend.ErrNoCompletions {
		t.Errorf("Complete on a server without completions: %v", err)
	}
}
