package demoserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image/png"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// protocols are the two protocol generations the demo must serve: the
// SDK's default (2026-07-28, per-request metadata and multi round-trip) and
// the latest legacy version (initialize handshake, server-to-client requests).
var protocols = []struct {
	name    string
	version string // "" selects the SDK client's default
}{
	{name: "latest", version: ""},
	{name: "legacy", version: "2025-11-25"},
}

// mustConnect connects a client with opts to a fresh demo server in-process
// and returns the client session; both ends are closed when the test ends.
func mustConnect(tb testing.TB, d *demo, opts *mcp.ClientOptions, version string) *mcp.ClientSession {
	tb.Helper()
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := d.server.Connect(ctx, serverT, nil)
	if err != nil {
		tb.Fatalf("server connect: %v", err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "0.0.1"}, opts)
	cs, err := client.Connect(ctx, clientT, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		tb.Fatalf("client connect: %v", err)
	}
	tb.Cleanup(func() {
		cs.Close()
		ss.Close()
	})
	return cs
}

// mustCall calls a tool and fails the test on a protocol error.
func mustCall(tb testing.TB, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	tb.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tb.Fatalf("CallTool(%s): %v", name, err)
	}
	return res
}

// text concatenates the text content blocks of a tool result.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// toMap round-trips v through JSON into a generic map.
func toMap(tb testing.TB, v any) map[string]any {
	tb.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		tb.Fatal(err)
	}
	return m
}

// at walks a generic JSON value along keys.
func at(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func TestToolSchemas(t *testing.T) {
	cs := mustConnect(t, newDemo(t.Context(), time.Hour), nil, "")
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tool := range res.Tools {
		tools[tool.Name] = tool
	}
	wantNames := []string{"echo", "add", "greet", "create_user", "weather", "tiny_image", "fail", "protocol_error", "slow", "ask_name", "summarize", "log", "plan_trip", "toggle_bonus", "rich_result", "big_result", "delete_note"}
	for _, name := range wantNames {
		if tools[name] == nil {
			t.Errorf("tool %q not listed", name)
		}
	}
	if len(tools) != len(wantNames) {
		t.Errorf("listed %d tools, want %d", len(tools), len(wantNames))
	}

	greet := toMap(t, tools["greet"].InputSchema)
	create := toMap(t, tools["create_user"].InputSchema)
	weatherOut := toMap(t, tools["weather"].OutputSchema)
	for name, s := range map[string]map[string]any{"greet": greet, "create_user": create, "weather output": weatherOut} {
		pretty, _ := json.MarshalIndent(s, "", "  ")
		t.Logf("%s schema:\n%s", name, pretty)
	}

	tests := []struct {
		name   string
		schema map[string]any
		path   []string
		want   any
	}{
		{"greet required", greet, []string{"required"}, []any{"name"}},
		{"greet name type", greet, []string{"properties", "name", "type"}, "string"},
		{"greet times type", greet, []string{"properties", "times", "type"}, "integer"},
		{"greet times default", greet, []string{"properties", "times", "default"}, 1.0},
		{"greet times maximum", greet, []string{"properties", "times", "maximum"}, 5.0},
		{"greet shout type", greet, []string{"properties", "shout", "type"}, "boolean"},
		{"greet language enum", greet, []string{"properties", "language", "enum"}, []any{"en", "fr", "de"}},
		{"create_user required", create, []string{"required"}, []any{"name"}},
		{"create_user age minimum", create, []string{"properties", "age", "minimum"}, 0.0},
		{"create_user admin default", create, []string{"properties", "admin", "default"}, false},
		{"create_user role enum", create, []string{"properties", "role", "enum"}, []any{"viewer", "editor", "owner"}},
		{"create_user role default", create, []string{"properties", "role", "default"}, "viewer"},
		{"create_user tags items", create, []string{"properties", "tags", "items", "type"}, "string"},
		{"create_user address type", create, []string{"properties", "address", "type"}, "object"},
		{"create_user address required", create, []string{"properties", "address", "required"}, []any{"city"}},
		{"create_user address zip", create, []string{"properties", "address", "properties", "zip", "type"}, "string"},
		{"weather output temperature", weatherOut, []string{"properties", "temperatureC", "type"}, "number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := at(tt.schema, tt.path...); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%v = %#v, want %#v", tt.path, got, tt.want)
			}
		})
	}
}

func TestTextTools(t *testing.T) {
	cs := mustConnect(t, newDemo(t.Context(), time.Hour), nil, "")
	tests := []struct {
		name      string
		tool      string
		args      map[string]any
		want      string // exact text, unless contains is set
		contains  []string
		wantError bool
	}{
		{name: "echo", tool: "echo", args: map[string]any{"message": "hi there"}, want: "hi there"},
		{name: "add", tool: "add", args: map[string]any{"a": 2, "b": 3.5}, want: "5.5"},
		{name: "greet defaults", tool: "greet", args: map[string]any{"name": "Ada"}, want: "Hello, Ada!"},
		{name: "greet all options", tool: "greet", args: map[string]any{"name": "Ada", "times": 2, "shout": true, "language": "fr"},
			want: "BONJOUR, ADA!\nBONJOUR, ADA!"},
		{name: "greet times out of range", tool: "greet", args: map[string]any{"name": "Ada", "times": 9}, wantError: true},
		{name: "greet bad enum", tool: "greet", args: map[string]any{"name": "Ada", "language": "es"}, wantError: true},
		{name: "greet missing name", tool: "greet", args: map[string]any{}, wantError: true},
		{name: "create_user defaults", tool: "create_user", args: map[string]any{"name": "Ada"},
			contains: []string{`Created user "Ada"`, "role: viewer", "admin: false", "age: (not given)", "tags: (none)", "address: (none)"}},
		{name: "create_user nested", tool: "create_user", args: map[string]any{
			"name": "Ada", "age": 36, "admin": true, "role": "owner", "tags": []string{"math", "poetry"},
			"address": map[string]any{"street": "1 Main St", "city": "London", "zip": "N1"}},
			contains: []string{"role: owner", "admin: true", "age: 36", "tags: math, poetry", "address: 1 Main St, London, N1"}},
		{name: "create_user address without city", tool: "create_user",
			args: map[string]any{"name": "Ada", "address": map[string]any{"street": "x"}}, wantError: true},
		{name: "fail", tool: "fail", args: map[string]any{"reason": "boom"}, want: "boom", wantError: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustCall(t, cs, tt.tool, tt.args)
			got := text(res)
			if res.IsError != tt.wantError {
				t.Fatalf("IsError = %v, want %v (text %q)", res.IsError, tt.wantError, got)
			}
			if tt.want != "" && got != tt.want {
				t.Errorf("text = %q, want %q", got, tt.want)
			}
			for _, s := range tt.contains {
				if !strings.Contains(got, s) {
					t.Errorf("text %q does not contain %q", got, s)
				}
			}
		})
	}
}

func TestProtocolError(t *testing.T) {
	cs := mustConnect(t, newDemo(t.Context(), time.Hour), nil, "")
	_, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "protocol_error", Arguments: map[string]any{"code": -32001, "message": "nope"}})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) {
		t.Fatalf("CallTool error = %v (%T), want a *jsonrpc.Error", err, err)
	}
	if werr.Code != -32001 || werr.Message != "nope" || string(werr.Data) != `{"tool":"protocol_error"}` {
		t.Errorf("error = %d %q %s, want -32001 \"nope\" with data naming the tool", werr.Code, werr.Message, werr.Data)
	}
}

func TestWeatherStructured(t *testing.T) {
	cs := mustConnect(t, newDemo(t.Context(), time.Hour), nil, "")
	res := mustCall(t, cs, "weather", map[string]any{"city": "Paris"})
	if res.IsError {
		t.Fatalf("IsError: %s", text(res))
	}
	sc := toMap(t, res.StructuredContent)
	if sc["city"] != "Paris" {
		t.Errorf("city = %v, want Paris", sc["city"])
	}
	if _, ok := sc["temperatureC"].(float64); !ok {
		t.Errorf("temperatureC = %#v, want a number", sc["temperatureC"])
	}
	if c, _ := sc["conditions"].(string); !slices.Contains(conditions, c) {
		t.Errorf("conditions = %q, want one of %v", c, conditions)
	}
	var fromText map[string]any
	if err := json.Unmarshal([]byte(text(res)), &fromText); err != nil || !reflect.DeepEqual(fromText, sc) {
		t.Errorf("text copy %q does not match structured content %v (err %v)", text(res), sc, err)
	}
}

func TestTinyImage(t *testing.T) {
	cs := mustConnect(t, newDemo(t.Context(), time.Hour), nil, "")
	// "arguments": null must behave like {} and apply the default colour.
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "tiny_image", Arguments: json.RawMessage("null")})
	if err != nil {
		t.Fatal(err)
	}
	img, ok := res.Content[0].(*mcp.ImageContent)
	if !ok {
		t.Fatalf("content[0] is %T, want *mcp.ImageContent", res.Content[0])
	}
	if img.MIMEType != "image/png" {
		t.Errorf("MIMEType = %q, want image/png", img.MIMEType)
	}
	decoded, err := png.Decode(bytes.NewReader(img.Data))
	if err != nil {
		t.Fatalf("decoding PNG: %v", err)
	}
	if b := decoded.Bounds(); b.Dx() != 16 || b.Dy() != 16 {
		t.Errorf("image is %dx%d, want 16x16", b.Dx(), b.Dy())
	}
}

func TestSlowProgress(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			progress := make(chan *mcp.ProgressNotificationParams, 10)
			cs := mustConnect(t, newDemo(t.Context(), time.Hour), &mcp.ClientOptions{
				ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
					progress <- req.Params
				},
			}, p.version)
			params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"seconds": 1, "steps": 4}}
			params.SetProgressToken("tok-1")
			res, err := cs.CallTool(t.Context(), params)
			if err != nil || res.IsError {
				t.Fatalf("CallTool: %v %v", err, res)
			}
			for i := 1; i <= 4; i++ {
				select {
				case n := <-progress:
					if n.ProgressToken != "tok-1" || n.Progress != float64(i) || n.Total != 4 {
						t.Errorf("notification %d = %+v", i, n)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("got %d progress notifications, want 4", i-1)
				}
			}
		})
	}
}

func TestSlowCancellation(t *testing.T) {
	d := newDemo(t.Context(), time.Hour)
	ctx := context.Background()
	serverT, clientT := mcp.NewInMemoryTransports()
	ss, err := d.server.Connect(ctx, serverT, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		t.Fatal(err)
	}
	callCtx, cancel := context.WithCancel(ctx)
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	_, err = cs.CallTool(callCtx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"seconds": 60, "steps": 2}})
	if err == nil {
		t.Fatal("CallTool succeeded, want a cancellation error")
	}
	// Closing the server session waits for in-flight handlers, so it returns
	// promptly only if slow noticed the cancellation.
	cs.Close()
	ss.Close()
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("cancelled slow call took %v to wind down", elapsed)
	}
}

func TestElicitation(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			tests := []struct {
				name   string
				answer *mcp.ElicitResult // nil: client has no elicitation capability
				want   string
				isErr  bool
			}{
				{"accept formal", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada", "formal": true}}, "Good day, Ada.", false},
				{"accept default", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, "Hi Ada!", false},
				{"decline", &mcp.ElicitResult{Action: "decline"}, `No name given (the user chose "decline").`, false},
				{"unsupported", nil, "", true},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					opts := &mcp.ClientOptions{}
					var asked string
					if tt.answer != nil {
						opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
							asked = req.Params.Message
							return tt.answer, nil
						}
					}
					cs := mustConnect(t, newDemo(t.Context(), time.Hour), opts, p.version)
					res := mustCall(t, cs, "ask_name", nil)
					if res.IsError != tt.isErr {
						t.Fatalf("IsError = %v, want %v (%q)", res.IsError, tt.isErr, text(res))
					}
					if tt.isErr {
						if !strings.Contains(text(res), "elicitation") {
							t.Errorf("error text %q does not mention elicitation", text(res))
						}
						return
					}
					if got := text(res); got != tt.want {
						t.Errorf("text = %q, want %q", got, tt.want)
					}
					if asked != "What is your name?" {
						t.Errorf("elicitation message = %q", asked)
					}
				})
			}
		})
	}
}

func TestSampling(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			var prompt string
			cs := mustConnect(t, newDemo(t.Context(), time.Hour), &mcp.ClientOptions{
				CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
					if len(req.Params.Messages) > 0 {
						if tc, ok := req.Params.Messages[0].Content.(*mcp.TextContent); ok {
							prompt = tc.Text
						}
					}
					return &mcp.CreateMessageResult{Model: "test-model", Role: "assistant", Content: &mcp.TextContent{Text: "Short."}}, nil
				},
			}, p.version)
			res := mustCall(t, cs, "summarize", map[string]any{"text": "A very long text."})
			if res.IsError {
				t.Fatalf("IsError: %s", text(res))
			}
			if got, want := text(res), "Summary from test-model: Short."; got != want {
				t.Errorf("text = %q, want %q", got, want)
			}
			if !strings.Contains(prompt, "A very long text.") {
				t.Errorf("sampling prompt %q does not carry the text", prompt)
			}

			bare := mustConnect(t, newDemo(t.Context(), time.Hour), nil, p.version)
			res = mustCall(t, bare, "summarize", map[string]any{"text": "x"})
			if !res.IsError || !strings.Contains(text(res), "sampling") {
				t.Errorf("without sampling: IsError=%v text=%q, want an error about sampling", res.IsError, text(res))
			}
		})
	}
}

func TestLog(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			logs := make(chan *mcp.LoggingMessageParams, 10)
			cs := mustConnect(t, newDemo(t.Context(), time.Hour), &mcp.ClientOptions{
				LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) { logs <- req.Params },
			}, p.version)
			if cs.InitializeResult().Capabilities.Logging == nil {
				t.Error("server does not declare logging")
			}
			params := &mcp.CallToolParams{Name: "log", Arguments: map[string]any{"level": "warning", "message": "disk almost full"}}
			if p.version == "" {
				params.Meta = mcp.Meta{mcp.MetaKeyLogLevel: "debug"}
			} else if err := cs.SetLoggingLevel(t.Context(), &mcp.SetLoggingLevelParams{Level: "debug"}); err != nil {
				t.Fatal(err)
			}
			if res, err := cs.CallTool(t.Context(), params); err != nil || res.IsError {
				t.Fatalf("CallTool: %v %v", err, res)
			}
			select {
			case m := <-logs:
				if m.Level != "warning" || m.Data != "disk almost full" || m.Logger != serverName {
					t.Errorf("log message = %+v", m)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("no log message received")
			}
		})
	}
}

func TestResources(t *testing.T) {
	cs := mustConnect(t, newDemo(t.Context(), time.Hour), nil, "")
	ctx := t.Context()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	slices.Sort(uris)
	if want := []string{clockURI, configURI, logoURI, readmeURI}; !slices.Equal(uris, want) {
		t.Errorf("resources = %v, want %v", uris, want)
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != userTemplate {
		t.Errorf("templates = %+v, want only %s", templates.ResourceTemplates, userTemplate)
	}

	tests := []struct {
		uri      string
		mimeType string
		check    func(t *testing.T, c *mcp.ResourceContents)
	}{
		{readmeURI, "text/markdown", func(t *testing.T, c *mcp.ResourceContents) {
			if !strings.HasPrefix(c.Text, "# MCP Playground demo server") {
				t.Errorf("readme = %q", c.Text)
			}
		}},
		{configURI, "application/json", func(t *testing.T, c *mcp.ResourceContents) {
			if !json.Valid([]byte(c.Text)) {
				t.Errorf("config is not JSON: %q", c.Text)
			}
		}},
		{logoURI, "image/png", func(t *testing.T, c *mcp.ResourceContents) {
			if _, err := png.Decode(bytes.NewReader(c.Blob)); err != nil {
				t.Errorf("logo blob: %v", err)
			}
		}},
		{clockURI, "text/plain", func(t *testing.T, c *mcp.ResourceContents) {
			if _, err := time.Parse(time.RFC3339, c.Text); err != nil {
				t.Errorf("clock: %v", err)
			}
		}},
		{"demo://users/ada", "application/json", func(t *testing.T, c *mcp.ResourceContents) {
			var u user
			if err := json.Unmarshal([]byte(c.Text), &u); err != nil || u.Name != "Ada Lovelace" {
				t.Errorf("user = %q (%v)", c.Text, err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tt.uri})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Contents) != 1 {
				t.Fatalf("got %d contents, want 1", len(res.Contents))
			}
			c := res.Contents[0]
			if c.URI != tt.uri || c.MIMEType != tt.mimeType {
				t.Errorf("uri, mimeType = %q, %q; want %q, %q", c.URI, c.MIMEType, tt.uri, tt.mimeType)
			}
			tt.check(t, c)
		})
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "demo://users/nobody"}); err == nil {
		t.Error("reading an unknown user succeeded, want an error")
	}
}

func TestClockSubscription(t *testing.T) {
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			d := newDemo(t.Context(), 20*time.Millisecond)
			t.Cleanup(d.clock.wait) // after t.Context is done
			updates := make(chan string, 100)
			cs := mustConnect(t, d, &mcp.ClientOptions{
				ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
					select {
					case updates <- req.Params.URI:
					default:
					}
				},
			}, p.version)
			if err := cs.Subscribe(t.Context(), &mcp.SubscribeParams{URI: clockURI}); err != nil {
				t.Fatal(err)
			}
			select {
			case uri := <-updates:
				if uri != clockURI {
					t.Errorf("updated %q, want %q", uri, clockURI)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("no notifications/resources/updated received")
			}
			if err := cs.Unsubscribe(t.Context(), &mcp.UnsubscribeParams{URI: clockURI}); err != nil {
				t.Fatal(err)
			}
			// With no subscriber left, the clock goroutine stops by itself.
			deadline := time.Now().Add(5 * time.Second)
			for d.clock.isRunning() {
				if time.Now().After(deadline) {
					t.Fatal("clock still running without subscribers")
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

func TestPrompts(t *testing.T) {
	cs := mustConnect(t, newDemo(t.Context(), time.Hour), nil, "")
	ctx := t.Context()
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	args := map[string][]string{}
	for _, p := range list.Prompts {
		for _, a := range p.Arguments {
			args[p.Name] = append(args[p.Name], a.Name)
		}
	}
	if want := map[string][]string{"code_review": {"language", "code"}, "greeting": {"name"}}; !reflect.DeepEqual(args, want) {
		t.Errorf("prompt arguments = %v, want %v", args, want)
	}

	tests := []struct {
		name    string
		prompt  string
		args    map[string]string
		want    string // substring of the first message
		wantErr bool
	}{
		{"code_review", "code_review", map[string]string{"language": "go", "code": "func f() {}"}, "```go\nfunc f() {}\n```", false},
		{"code_review missing code", "code_review", map[string]string{"language": "go"}, "", true},
		{"greeting default", "greeting", nil, "Please greet world warmly.", false},
		{"greeting name", "greeting", map[string]string{"name": "Ada"}, "Please greet Ada warmly.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: tt.prompt, Arguments: tt.args})
			if tt.wantErr {
				if err == nil {
					t.Fatal("GetPrompt succeeded, want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc, ok := res.Messages[0].Content.(*mcp.TextContent)
			if !ok || !strings.Contains(tc.Text, tt.want) {
				t.Errorf("first message = %#v, want text containing %q", res.Messages[0].Content, tt.want)
			}
		})
	}
}

func TestComplete(t *testing.T) {
	cs := mustConnect(t, newDemo(t.Context(), time.Hour), nil, "")
	tests := []struct {
		name  string
		ref   *mcp.CompleteReference
		arg   string
		value string
		want  []string
	}{
		{"language", &mcp.CompleteReference{Type: "ref/prompt", Name: "code_review"}, "language", "Ja", []string{"java", "javascript"}},
		{"greeting name", &mcp.CompleteReference{Type: "ref/prompt", Name: "greeting"}, "name", "g", []string{"Grace Hopper"}},
		{"user id", &mcp.CompleteReference{Type: "ref/resource", URI: userTemplate}, "id", "a", []string{"ada", "alan"}},
		{"user id all", &mcp.CompleteReference{Type: "ref/resource", URI: userTemplate}, "id", "", []string{"ada", "alan", "grace", "linus"}},
		{"unknown argument", &mcp.CompleteReference{Type: "ref/prompt", Name: "code_review"}, "code", "x", []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.Complete(t.Context(), &mcp.CompleteParams{
				Ref:      tt.ref,
				Argument: mcp.CompleteParamsArgument{Name: tt.arg, Value: tt.value},
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Completion.Values, tt.want) || res.Completion.Total != len(tt.want) {
				t.Errorf("completion = %+v, want values %v", res.Completion, tt.want)
			}
		})
	}
}

// isRunning reports whether the clock goroutine is running.
func (c *clock) isRunning() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.running
}
