package lint

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/mcpclient"
)

// sdkServer is the Go SDK's server with a tool of each content type, a
// prompt, a resource and logging.
func sdkServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "lint-test", Version: "1.0"}, &mcp.ServerOptions{PageSize: 2})
	type echoArgs struct {
		Text string `json:"text"`
	}
	type echoOut struct {
		Echo string `json:"echo"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes text"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, echoOut, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: in.Text},
				&mcp.ImageContent{Data: []byte("png"), MIMEType: "image/png"},
				&mcp.ResourceLink{URI: "test://a", Name: "a"},
			}}, echoOut{Echo: in.Text}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "failed"}}}, nil, nil
	})
	for _, name := range []string{"a", "b", "c"} {
		mcp.AddTool(s, &mcp.Tool{Name: "filler-" + name}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
	}
	s.AddPrompt(&mcp.Prompt{Name: "greet", Arguments: []*mcp.PromptArgument{{Name: "who"}}},
		func(_ context.Context, r *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi " + r.Params.Arguments["who"]}}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "test://a", Name: "a", MIMEType: "text/plain"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://a", Text: "A"}}}, nil
		})
	return s
}

// tapped collects the frames of a connection.
type tapped struct {
	mu     sync.Mutex
	frames []mcpclient.Frame
}

func (t *tapped) tap(f mcpclient.Frame) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.frames = append(t.frames, f)
}

// TestCleanTraffic: a session with the Go SDK's server, over Streamable
// HTTP with SSE and with JSON answers, gets no error or warning.
func TestCleanTraffic(t *testing.T) {
	for _, jsonResponse := range []bool{false, true} {
		t.Run(map[bool]string{false: "sse", true: "json"}[jsonResponse], func(t *testing.T) {
			server := sdkServer()
			srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
				&mcp.StreamableHTTPOptions{JSONResponse: jsonResponse}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			rec := &tapped{}
			c, err := mcpclient.ConnectHTTP(ctx, mcpclient.HTTPConfig{URL: srv.URL + "/mcp"}, mcpclient.Options{Tap: rec.tap})
			if err != nil {
				t.Fatalf("ConnectHTTP: %v", err)
			}
			if _, err := c.ListTools(ctx); err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"echo", "fail"} {
				if _, err := c.CallTool(ctx, name, []byte(`{"text":"x"}`)); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := c.CallTool(ctx, "nope", nil); err == nil {
				t.Fatal("calling an unknown tool succeeded")
			}
			if _, err := c.GetPrompt(ctx, "greet", map[string]string{"who": "you"}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.ListResources(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := c.ReadResource(ctx, "test://a"); err != nil {
				t.Fatal(err)
			}
			if err := c.SetLoggingLevel(ctx, "info"); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Call(ctx, "ping", nil); err != nil {
				t.Fatal(err)
			}
			c.Close()
			rec.mu.Lock()
			defer rec.mu.Unlock()
			l := New(Options{})
			messages := 0
			for _, f := range rec.frames {
				if f.Kind == mcpclient.KindMessage {
					messages++
				}
				for _, got := range l.Lint(FrameOf(f)) {
					if got.Severity != SevInfo {
						t.Errorf("%s %s: %+v", f.Direction, f.Body, got)
					}
				}
			}
			if l.Version() != "2025-11-25" || messages < 20 {
				t.Errorf("version %q after %d messages", l.Version(), messages)
			}
		})
	}
}

// TestCleanModernTraffic: a modern-era session with the Go SDK's
// stateless server, over Streamable HTTP with SSE and with JSON answers,
// with a tool that asks for input twice, gets no error or warning; its
// sampling round is noted as deprecated, once.
func TestCleanModernTraffic(t *testing.T) {
	for _, jsonResponse := range []bool{false, true} {
		t.Run(map[bool]string{false: "sse", true: "json"}[jsonResponse], func(t *testing.T) {
			server := sdkServer()
			mcp.AddTool(server, &mcp.Tool{Name: "deploy"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
				switch req.Params.RequestState {
				case "":
					return &mcp.CallToolResult{RequestState: "r1", InputRequests: mcp.InputRequestMap{"who": &mcp.ElicitParams{Message: "Who?",
						RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}}}}, nil, nil
				case "r1":
					return &mcp.CallToolResult{RequestState: "r2", InputRequests: mcp.InputRequestMap{"where": &mcp.CreateMessageParams{MaxTokens: 10,
						Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Where?"}}}}}}, nil, nil
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
			})
			srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
				&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: jsonResponse}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			answers := &mcpclient.Mux{}
			answers.HandleFunc("elicitation/create", func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
				return json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil
			})
			answers.HandleFunc("sampling/createMessage", func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
				return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m"}`), nil
			})
			rec := &tapped{}
			c, err := mcpclient.ConnectHTTP(ctx, mcpclient.HTTPConfig{URL: srv.URL + "/mcp"}, mcpclient.Options{Tap: rec.tap, Era: mcpclient.EraModern, Handler: answers})
			if err != nil {
				t.Fatalf("ConnectHTTP: %v", err)
			}
			if _, err := c.ListTools(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := c.CallTool(ctx, "echo", []byte(`{"text":"x"}`)); err != nil {
				t.Fatal(err)
			}
			if res, err := c.CallTool(ctx, "deploy", nil); err != nil || len(res.Content) != 1 || res.Content[0].Text != "done" {
				t.Fatalf("deploy: %+v, %v", res, err)
			}
			if _, err := c.GetPrompt(ctx, "greet", map[string]string{"who": "you"}); err != nil {
				t.Fatal(err)
			}
			if _, err := c.ReadResource(ctx, "test://a"); err != nil {
				t.Fatal(err)
			}
			c.Close()
			rec.mu.Lock()
			defer rec.mu.Unlock()
			l := New(Options{})
			deprecated := 0
			for _, f := range rec.frames {
				for _, got := range l.Lint(FrameOf(f)) {
					switch {
					case got.Code == ruleDeprecated.Code:
						deprecated++
					case got.Severity != SevInfo:
						t.Errorf("%s %s %v: %+v", f.Direction, f.Body, f.HTTP, got)
					}
				}
			}
			if l.Version() != "2026-07-28" || deprecated != 1 {
				t.Errorf("version %q, %d deprecation notes, want 2026-07-28 and 1", l.Version(), deprecated)
			}
		})
	}
}
