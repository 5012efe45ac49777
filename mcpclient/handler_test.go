package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type askArgs struct {
	What string `json:"what"`
}

type progressArgs struct {
	Steps int `json:"steps"`
}

// addClientFeatureTools adds to s the tools "ask", which sends the client
// the request named by its argument what (sampling, elicit-form,
// elicit-url, roots, ping) and returns the client's answer as JSON text,
// and "progress", which sends steps progress notifications for its
// progress token (best effort) before answering "done".
func addClientFeatureTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "ask", Description: "asks the client something"},
		func(ctx context.Context, req *mcp.CallToolRequest, in askArgs) (*mcp.CallToolResult, any, error) {
			var res any
			var err error
			switch in.What {
			case "sampling":
				res, err = req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{
					Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "2+2?"}}},
					MaxTokens: 10,
				})
			case "elicit-form":
				res, err = req.Session.Elicit(ctx, &mcp.ElicitParams{
					Message:         "Who are you?",
					RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
				})
			case "elicit-url":
				res, err = req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: "Open this", URL: "https://example.com/consent", ElicitationID: "e-1"})
			case "roots":
				res, err = req.Session.ListRoots(ctx, nil)
			case "ping":
				res, err = "pong", req.Session.Ping(ctx, nil)
			default:
				err = fmt.Errorf("unknown what %q", in.What)
			}
			if err != nil {
				return nil, nil, err
			}
			b, _ := json.Marshal(res)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "progress", Description: "reports progress"},
		func(ctx context.Context, req *mcp.CallToolRequest, in progressArgs) (*mcp.CallToolResult, any, error) {
			if token := req.Params.GetProgressToken(); token != nil {
				for i := 1; i <= in.Steps; i++ {
					// Best effort: with JSON responses the SDK can only send
					// them on the standalone stream, which may not be open yet.
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
						ProgressToken: token, Progress: float64(i), Total: float64(in.Steps), Message: fmt.Sprintf("step %d", i),
					})
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
		})
}

// testMux answers sampling, elicitation (both modes) and roots the way the
// tests expect, with the typed shapes of the client's answers.
func testMux() *Mux {
	m := &Mux{}
	answer := func(v any) (json.RawMessage, error) { return json.Marshal(v) }
	m.HandleFunc(MethodSample, func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return answer(CreateMessageResult{
			Message: SamplingMessage{Role: "assistant", Content: []SamplingBlock{{Type: "text", Text: "4"}}},
			Model:   "test-model", StopReason: "endTurn",
		})
	})
	m.HandleFunc(MethodElicit, func(_ context.Context, _ string, params json.RawMessage) (json.RawMessage, error) {
		var p ElicitParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, err
		}
		if p.URLMode() {
			if p.URL == "" || p.ElicitationID == "" {
				return nil, &RPCError{Code: -32602, Message: "url mode without url or elicitationId"}
			}
			return answer(ElicitResult{Action: ElicitAccept})
		}
		return answer(ElicitResult{Action: ElicitAccept, Content: json.RawMessage(`{"name":"Ada"}`)})
	})
	m.HandleFunc(MethodRootsList, func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return answer(ListRootsResult{Roots: []Root{{URI: "file:///work/project", Name: "project"}}})
	})
	return m
}

func TestMuxCapabilities(t *testing.T) {
	noop := func(context.Context, string, json.RawMessage) (json.RawMessage, error) { return nil, nil }
	tests := []struct {
		name    string
		methods []string
		caps    json.RawMessage
		ext     map[string]json.RawMessage
		want    string
	}{
		{"none", nil, nil, nil, `{}`},
		{"sampling", []string{"sampling/createMessage"}, nil, nil, `{"sampling":{}}`},
		{"all", []string{"roots/list", "elicitation/create", "sampling/createMessage", "tasks/get"}, nil, nil,
			`{"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true},"sampling":{}}`},
		{"explicit", []string{"sampling/createMessage"}, json.RawMessage(`{"elicitation":{"form":{}}}`), nil, `{"elicitation":{"form":{}}}`},
		{"extensions", []string{"roots/list"}, nil, map[string]json.RawMessage{"io.modelcontextprotocol/ui": json.RawMessage(`{"mimeTypes":["text/html;profile=mcp-app"]}`)},
			`{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}},"roots":{"listChanged":true}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &Mux{Caps: tt.caps, Extensions: tt.ext}
			for _, method := range tt.methods {
				m.HandleFunc(method, noop)
			}
			if got := string(m.Capabilities()); got != tt.want {
				t.Errorf("Capabilities() = %s, want %s", got, tt.want)
			}
		})
	}
	if got := string(clientCapabilities(HandlerFunc(noop))); got != `{}` {
		t.Errorf("a HandlerFunc declares %s", got)
	}
	if got := string(clientCapabilities(nil)); got != `{}` {
		t.Errorf("no handler declares %s", got)
	}
}

func TestServerRequests(t *testing.T) {
	for _, conn := range sdkConnectors {
		t.Run(conn.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			c := conn.connect(t, Options{Tap: rec.tap, Handler: testMux()})
			ctx := testContext(t)

			init := rec.find(Outbound, KindMessage, `"method":"initialize"`)
			if len(init) != 1 || !strings.Contains(string(init[0].Body),
				`"capabilities":{"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true},"sampling":{},`+
					`"tasks":{"cancel":{},"list":{},"requests":{"elicitation":{"create":{}},"sampling":{"createMessage":{}}}}}`) {
				t.Errorf("initialize = %s", init[0].Body)
			}
			tests := []struct{ what, want string }{
				{"sampling", `"model":"test-model"`},
				{"elicit-form", `{"action":"accept","content":{"name":"Ada"}}`},
				{"elicit-url", `{"action":"accept"}`},
				{"roots", `"uri":"file:///work/project"`},
				{"ping", `"pong"`},
			}
			for _, tt := range tests {
				t.Run(tt.what, func(t *testing.T) {
					res, err := c.CallTool(ctx, "ask", json.RawMessage(`{"what":"`+tt.what+`"}`))
					if err != nil {
						t.Fatal(err)
					}
					if res.IsError || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, tt.want) {
						t.Errorf("result = %+v, want text containing %s", res, tt.want)
					}
				})
			}
		})
	}
}

func TestServerRequestsWithoutHandler(t *testing.T) {
	for _, conn := range sdkConnectors {
		t.Run(conn.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			c := conn.connect(t, Options{Tap: rec.tap})
			ctx := testContext(t)
			if init := rec.find(Outbound, KindMessage, `"method":"initialize"`); !strings.Contains(string(init[0].Body), `"capabilities":{}`) {
				t.Errorf("initialize = %s", init[0].Body)
			}
			res, err := c.CallTool(ctx, "ask", json.RawMessage(`{"what":"ping"}`))
			if err != nil || res.IsError {
				t.Fatalf("ping: %v %+v", err, res)
			}
			res, err = c.CallTool(ctx, "ask", json.RawMessage(`{"what":"roots"}`))
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsError || !strings.Contains(res.Content[0].Text, "Method not found") {
				t.Errorf("roots without a handler: %+v", res)
			}
			rec.waitFind(t, Outbound, KindMessage, `"error":{"code":-32601,"message":"Method not found"}`)
		})
	}
}

func TestHandlerErrors(t *testing.T) {
	tests := []struct {
		name string
		err  error
		res  json.RawMessage
		want string
	}{
		{"rpc error", &RPCError{Code: -1, Message: "user declined", Data: json.RawMessage(`{"why":"no"}`)}, nil,
			`"error":{"code":-1,"message":"user declined","data":{"why":"no"}}`},
		{"wrapped rpc error", fmt.Errorf("wrapped: %w", &RPCError{Code: -2, Message: "inner"}), nil, `"error":{"code":-2,"message":"inner"}`},
		{"plain error", errors.New("disk on fire"), nil, `"error":{"code":-32603,"message":"disk on fire"}`},
		{"nil result", nil, nil, `"result":{}`},
		{"invalid result", nil, json.RawMessage(`{oops`), `"error":{"code":-32603,"message":"the client's handler returned invalid JSON"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := HandlerFunc(func(context.Context, string, json.RawMessage) (json.RawMessage, error) { return tt.res, tt.err })
			c, rec, _ := connectFake(t, Options{Handler: h})
			if _, err := c.Call(testContext(t), "ask", nil); err != nil {
				t.Fatal(err)
			}
			rec.waitFind(t, Outbound, KindMessage, `{"jsonrpc":"2.0","id":"s2",`+tt.want+`}`)
			// ping never reaches the Handler.
			rec.waitFind(t, Outbound, KindMessage, `{"jsonrpc":"2.0","id":"s1","result":{}}`)
		})
	}
}

func TestServerCancelsRequest(t *testing.T) {
	got := make(chan error, 1)
	h := HandlerFunc(func(ctx context.Context, method string, _ json.RawMessage) (json.RawMessage, error) {
		<-ctx.Done()
		got <- ctx.Err()
		return json.RawMessage(`{"too":"late"}`), nil
	})
	c, rec, _ := connectFake(t, Options{Handler: h})
	if _, err := c.Call(testContext(t), "cancelme", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-got:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("handler ctx err = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's ctx was not cancelled")
	}
	time.Sleep(200 * time.Millisecond)
	if f := rec.find(Outbound, KindMessage, `"id":"c1"`); len(f) != 0 {
		t.Errorf("answered a cancelled request: %s", f[0].Body)
	}
}
