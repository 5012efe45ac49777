package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// everythingScript returns the path of @modelcontextprotocol/server-everything
// under $PLAYGROUND_NODE_MODULES (default: the repository's node_modules).
// When it or node is missing the test fails if $CI is set, else it skips.
func everythingScript(t *testing.T) (node, script string) {
	t.Helper()
	dir := os.Getenv("PLAYGROUND_NODE_MODULES")
	if dir == "" {
		dir = filepath.Join("..", "node_modules")
	}
	script, _ = filepath.Abs(filepath.Join(dir, "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(script)
	}
	if err != nil {
		msg := "real peer server-everything unavailable (run npm install, or set PLAYGROUND_NODE_MODULES): " + err.Error()
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node, script
}

// startEverythingHTTP runs server-everything's Streamable HTTP transport on a
// free port and returns its URL once the port accepts connections. The
// process is killed when the test ends.
func startEverythingHTTP(t *testing.T) string {
	return startEverything(t, "streamableHttp") + "/mcp"
}

// startEverything runs server-everything in mode (streamableHttp or sse) on
// a free port of 127.0.0.1 and returns http://127.0.0.1:PORT once the port
// accepts connections. The process is killed when the test ends.
func startEverything(t *testing.T, mode string) string {
	t.Helper()
	node, script := everythingScript(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(node, script, mode)
	cmd.Env = append(os.Environ(), "PORT="+port)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	for deadline := time.Now().Add(15 * time.Second); ; {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return "http://" + addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// everythingConnectors connect to server-everything over each transport.
var everythingConnectors = []struct {
	name    string
	connect func(t *testing.T, opts Options) (*Client, error)
}{
	{"stdio", func(t *testing.T, opts Options) (*Client, error) {
		node, script := everythingScript(t)
		return ConnectStdio(testContext(t), StdioConfig{Command: node, Args: []string{script, "stdio"}}, opts)
	}},
	{"http", func(t *testing.T, opts Options) (*Client, error) {
		return ConnectHTTP(testContext(t), HTTPConfig{URL: startEverythingHTTP(t)}, opts)
	}},
	{"sse", func(t *testing.T, opts Options) (*Client, error) {
		return ConnectSSE(testContext(t), HTTPConfig{URL: startEverything(t, "sse") + "/sse"}, opts)
	}},
}

// everythingHandler answers server-everything's requests: roots, sampling,
// elicitation in both modes, and the client side of tasks (a request with
// params.task is answered with a task that is working, then completed on
// the first tasks/get, whose result tasks/result returns).
type everythingHandler struct {
	mu    sync.Mutex
	seen  map[string]int
	tasks map[string]json.RawMessage
}

const everythingRoot = "file:///work/everything-root"

func newEverythingHandler() *everythingHandler {
	return &everythingHandler{seen: map[string]int{}, tasks: map[string]json.RawMessage{}}
}

// Capabilities declares everything server-everything can ask of a client.
func (h *everythingHandler) Capabilities() json.RawMessage {
	return json.RawMessage(`{"roots":{"listChanged":true},"sampling":{},"elicitation":{"form":{},"url":{}},` +
		`"tasks":{"requests":{"sampling":{"createMessage":{}},"elicitation":{"create":{}}}}}`)
}

func (h *everythingHandler) count(method string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seen[method]
}

func (h *everythingHandler) Handle(_ context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seen[method]++
	var p struct {
		Task            json.RawMessage `json:"task"`
		TaskID          string          `json:"taskId"`
		Mode            string          `json:"mode"`
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	if params != nil {
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, &RPCError{Code: -32602, Message: err.Error()}
		}
	}
	now := time.Now().UTC().Format(time.RFC3339)
	var res json.RawMessage
	switch method {
	case "roots/list":
		return json.RawMessage(`{"roots":[{"uri":"` + everythingRoot + `","name":"everything-root"}]}`), nil
	case "sampling/createMessage":
		res = json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"4"},"model":"test-model","stopReason":"endTurn"}`)
	case "elicitation/create":
		if p.Mode == "url" {
			res = json.RawMessage(`{"action":"accept"}`)
			break
		}
		content, err := fillForm(p.RequestedSchema)
		if err != nil {
			return nil, err
		}
		res = json.RawMessage(`{"action":"accept","content":` + string(content) + `}`)
	case "tasks/get":
		if _, ok := h.tasks[p.TaskID]; !ok {
			return nil, &RPCError{Code: -32602, Message: "no task " + p.TaskID}
		}
		return json.RawMessage(`{"taskId":"` + p.TaskID + `","status":"completed","ttl":60000,"createdAt":"` + now + `","lastUpdatedAt":"` + now + `"}`), nil
	case "tasks/result":
		if r, ok := h.tasks[p.TaskID]; ok {
			return r, nil
		}
		return nil, &RPCError{Code: -32602, Message: "no task " + p.TaskID}
	default:
		return nil, &RPCError{Code: -32601, Message: "Method not found"}
	}
	if p.Task == nil {
		return res, nil
	}
	id := fmt.Sprintf("client-task-%d", len(h.tasks)+1)
	h.tasks[id] = res
	return json.RawMessage(`{"task":{"taskId":"` + id + `","status":"working","ttl":60000,"pollInterval":100,"createdAt":"` + now + `","lastUpdatedAt":"` + now + `"}}`), nil
}

// fillForm answers a form elicitation: each required property gets its
// first enum or oneOf value, or a plain value of its type.
func fillForm(schema json.RawMessage) (json.RawMessage, error) {
	var s struct {
		Properties map[string]struct {
			Type  string            `json:"type"`
			Enum  []json.RawMessage `json:"enum"`
			OneOf []struct {
				Const json.RawMessage `json:"const"`
			} `json:"oneOf"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, err
	}
	content := map[string]json.RawMessage{}
	for _, name := range s.Required {
		prop := s.Properties[name]
		switch {
		case len(prop.Enum) > 0:
			content[name] = prop.Enum[0]
		case len(prop.OneOf) > 0:
			content[name] = prop.OneOf[0].Const
		case prop.Type == "boolean":
			content[name] = json.RawMessage(`true`)
		case prop.Type == "number" || prop.Type == "integer":
			content[name] = json.RawMessage(`42`)
		default:
			content[name] = json.RawMessage(`"Ada Lovelace"`)
		}
	}
	return json.Marshal(content)
}

// notes collects notifications.
type notes struct {
	mu   sync.Mutex
	list []Notification
}

func (n *notes) add(x Notification) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.list = append(n.list, x)
}

// wait returns the first notification of method whose params contain s,
// waiting up to d for it.
func (n *notes) wait(t *testing.T, method, s string, d time.Duration) Notification {
	t.Helper()
	return n.waitFor(t, method, func(params string) bool { return strings.Contains(params, s) }, fmt.Sprintf("containing %q", s), d)
}

// waitFor returns the first notification of method whose params match,
// waiting up to d for it; what says what match looks for.
func (n *notes) waitFor(t *testing.T, method string, match func(params string) bool, what string, d time.Duration) Notification {
	t.Helper()
	for deadline := time.Now().Add(d); ; time.Sleep(20 * time.Millisecond) {
		n.mu.Lock()
		for _, x := range n.list {
			if x.Method == method && match(string(x.Params)) {
				n.mu.Unlock()
				return x
			}
		}
		n.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no %s notification %s", method, what)
		}
	}
}

// text joins the text blocks of a tool result.
func text(res *CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// everythingTool is how one server-everything tool is exercised: called
// with args, its result checked by check (nil: only that it is no error);
// or, when run is set, by run alone.
type everythingTool struct {
	args  string
	want  string // a substring of the result's text
	check func(t *testing.T, res *CallToolResult)
	run   func(t *testing.T, e *everythingEnv)
}

// everythingEnv is one connection to server-everything.
type everythingEnv struct {
	c     *Client
	h     *everythingHandler
	notes *notes
	rec   *recorder
	ctx   context.Context
}

func (e *everythingEnv) callTool(t *testing.T, name, args string, opts ...CallOption) *CallToolResult {
	t.Helper()
	res, err := e.c.CallTool(e.ctx, name, json.RawMessage(args), opts...)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error: %s", name, text(res))
	}
	return res
}

// everythingTools lists every tool server-everything offers a client with
// all capabilities; TestServerEverything fails when the server offers one
// that is not here.
var everythingTools = map[string]everythingTool{
	"echo": {args: `{"message":"hi"}`, want: "Echo: hi"},
	"get-annotated-message": {args: `{"messageType":"error","includeImage":true}`, want: "Error: Operation failed",
		check: func(t *testing.T, res *CallToolResult) {
			if !slices.ContainsFunc(res.Content, func(c Content) bool { return c.Type == "image" && c.Data != "" }) {
				t.Errorf("no image in %+v", res.Content)
			}
		}},
	"get-env":            {args: `{}`, want: "PATH"},
	"get-resource-links": {args: `{"count":2}`, check: checkResourceLinks},
	"get-resource-reference": {args: `{"resourceType":"Text","resourceId":2}`, want: "demo://resource/dynamic/text/2",
		check: func(t *testing.T, res *CallToolResult) {
			if !slices.ContainsFunc(res.Content, func(c Content) bool {
				return c.Type == "resource" && strings.Contains(string(c.Resource), `"text":"Resource 2:`)
			}) {
				t.Errorf("no embedded resource in %+v", res.Content)
			}
		}},
	"get-structured-content": {args: `{"location":"Chicago"}`, check: func(t *testing.T, res *CallToolResult) {
		var weather struct{ Temperature *float64 }
		if err := json.Unmarshal(res.StructuredContent, &weather); err != nil || weather.Temperature == nil {
			t.Errorf("structuredContent = %s", res.StructuredContent)
		}
	}},
	"get-sum": {args: `{"a":2,"b":3}`, want: "The sum of 2 and 3 is 5."},
	"get-tiny-image": {args: `{}`, check: func(t *testing.T, res *CallToolResult) {
		if !slices.ContainsFunc(res.Content, func(c Content) bool { return c.Type == "image" && c.MimeType == "image/png" }) {
			t.Errorf("no PNG in %+v", res.Content)
		}
	}},
	"gzip-file-as-resource": {run: testGzipFileAsResource},
	"toggle-simulated-logging": {run: func(t *testing.T, e *everythingEnv) {
		if err := e.c.SetLoggingLevel(e.ctx, "debug"); err != nil {
			t.Fatal(err)
		}
		if res := e.callTool(t, "toggle-simulated-logging", `{}`); !strings.Contains(text(res), "Started") {
			t.Fatalf("result = %s", text(res))
		}
		// The simulated messages read "Debug-level message" and the like,
		// but one of the eight reads "Alert level-message".
		e.notes.waitFor(t, "notifications/message", func(params string) bool {
			return strings.Contains(params, "-level message") || strings.Contains(params, "level-message")
		}, "of the simulated logging", 10*time.Second)
		if res := e.callTool(t, "toggle-simulated-logging", `{}`); !strings.Contains(text(res), "Stopped") {
			t.Errorf("result = %s", text(res))
		}
	}},
	"toggle-subscriber-updates": {run: func(t *testing.T, e *everythingEnv) {
		const uri = "demo://resource/dynamic/text/1"
		if err := e.c.Subscribe(e.ctx, uri); err != nil {
			t.Fatal(err)
		}
		e.callTool(t, "toggle-subscriber-updates", `{}`)
		e.notes.wait(t, "notifications/resources/updated", uri, 10*time.Second)
		e.callTool(t, "toggle-subscriber-updates", `{}`)
		if err := e.c.Unsubscribe(e.ctx, uri); err != nil {
			t.Error(err)
		}
	}},
	"trigger-long-running-operation": {run: func(t *testing.T, e *everythingEnv) {
		var mu sync.Mutex
		var reports []Progress
		res := e.callTool(t, "trigger-long-running-operation", `{"duration":0.6,"steps":3}`, WithProgress(func(p Progress) {
			mu.Lock()
			defer mu.Unlock()
			reports = append(reports, p)
		}))
		if !strings.Contains(text(res), "Long running operation completed") {
			t.Errorf("result = %s", text(res))
		}
		mu.Lock()
		defer mu.Unlock()
		if len(reports) != 3 || reports[2].Progress != 3 || reports[2].Total != 3 {
			t.Errorf("progress = %+v", reports)
		}
	}},
	"get-roots-list":              {args: `{}`, want: everythingRoot},
	"trigger-elicitation-request": {args: `{}`, want: "- Name: Ada Lovelace"},
	"trigger-url-elicitation": {run: func(t *testing.T, e *everythingEnv) {
		res := e.callTool(t, "trigger-url-elicitation", `{"url":"https://example.com/consent","elicitationId":"e-1"}`)
		if !strings.Contains(text(res), "User completed the URL elicitation flow") {
			t.Errorf("result = %s", text(res))
		}
		args := json.RawMessage(`{"url":"https://example.com/pay","errorPath":true}`)
		_, err := e.c.CallTool(e.ctx, "trigger-url-elicitation", args)
		var rpcErr *RPCError
		if !errors.As(err, &rpcErr) || rpcErr.Code != -32042 || !strings.Contains(string(rpcErr.Data), `"mode":"url"`) {
			t.Fatalf("err = %v, want -32042 with URL elicitations", err)
		}
		if res, err := e.c.CallTool(e.ctx, "trigger-url-elicitation", args); err != nil || res.IsError {
			t.Errorf("retry: %v %+v", err, res)
		}
	}},
	"trigger-sampling-request": {args: `{"prompt":"2+2?","maxTokens":10}`, want: `"model": "test-model"`},
	"simulate-research-query":  {run: testResearchTask},
	"trigger-sampling-request-async": {args: `{"prompt":"2+2?","maxTokens":10}`, want: "[COMPLETED] Async sampling completed",
		check: func(t *testing.T, res *CallToolResult) {
			if !strings.Contains(text(res), `"model": "test-model"`) {
				t.Errorf("result = %s", text(res))
			}
		}},
	"trigger-elicitation-request-async": {args: `{}`, want: "[COMPLETED] User provided the requested information!"},
}

func checkResourceLinks(t *testing.T, res *CallToolResult) {
	links := 0
	for _, c := range res.Content {
		if c.Type == "resource_link" && strings.HasPrefix(c.URI, "demo://resource/dynamic/") {
			links++
		}
	}
	if links != 2 {
		t.Errorf("%d resource links in %+v", links, res.Content)
	}
}

func testGzipFileAsResource(t *testing.T, e *everythingEnv) {
	const data = "data:text/plain;base64,aGVsbG8gd29ybGQ=" // hello world
	res := e.callTool(t, "gzip-file-as-resource", `{"name":"hello.txt.gz","data":"`+data+`","outputType":"resource"}`)
	if !slices.ContainsFunc(res.Content, func(c Content) bool {
		return c.Type == "resource" && strings.Contains(string(c.Resource), "application/gzip")
	}) {
		t.Errorf("no gzip resource in %+v", res.Content)
	}
	res = e.callTool(t, "gzip-file-as-resource", `{"name":"link.txt.gz","data":"`+data+`"}`)
	i := slices.IndexFunc(res.Content, func(c Content) bool { return c.Type == "resource_link" })
	if i < 0 {
		t.Fatalf("no resource link in %+v", res.Content)
	}
	read, err := e.c.ReadResource(e.ctx, res.Content[i].URI)
	if err != nil {
		t.Fatal(err)
	}
	if len(read.Contents) != 1 || read.Contents[0].Blob == "" || read.Contents[0].MimeType != "application/gzip" {
		t.Errorf("read %s", read.Raw)
	}
}

// testResearchTask runs simulate-research-query as a task (tools/call with
// params.task), with an ambiguous topic, so the server elicits a
// clarification while the client waits in tasks/result.
func testResearchTask(t *testing.T, e *everythingEnv) {
	raw, err := e.c.Call(e.ctx, "tools/call", json.RawMessage(
		`{"name":"simulate-research-query","arguments":{"topic":"python","ambiguous":true},"task":{"ttl":60000}}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		Task struct {
			TaskID string `json:"taskId"`
			Status string `json:"status"`
		} `json:"task"`
	}
	if err := json.Unmarshal(raw, &created); err != nil || created.Task.TaskID == "" {
		t.Fatalf("tools/call as a task = %s", raw)
	}
	taskID := json.RawMessage(`{"taskId":"` + created.Task.TaskID + `"}`)
	if raw, err := e.c.Call(e.ctx, "tasks/get", taskID); err != nil || !strings.Contains(string(raw), `"status"`) {
		t.Errorf("tasks/get: %s %v", raw, err)
	}
	if raw, err := e.c.Call(e.ctx, "tasks/list", nil); err != nil || !strings.Contains(string(raw), created.Task.TaskID) {
		t.Errorf("tasks/list: %s %v", raw, err)
	}
	// "(programming)" is the clarification fillForm chose.
	raw, err = e.c.Call(e.ctx, "tasks/result", taskID)
	if err != nil {
		t.Fatal(err)
	}
	var res CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil || !strings.Contains(text(&res), "Research Report: python (programming)") {
		t.Errorf("tasks/result = %s", raw)
	}
}

func TestServerEverything(t *testing.T) {
	for _, conn := range everythingConnectors {
		t.Run(conn.name, func(t *testing.T) {
			t.Parallel()
			e := &everythingEnv{h: newEverythingHandler(), notes: &notes{}, rec: &recorder{}, ctx: testContext(t)}
			c, err := conn.connect(t, Options{Tap: e.rec.tap, Handler: e.h, OnNotification: e.notes.add})
			if err != nil {
				t.Fatal(err)
			}
			mustClose(t, c)
			e.c = c
			ctx := e.ctx

			t.Run("initialize", func(t *testing.T) {
				res := c.InitializeResult()
				if res.ServerInfo.Name == "" || !strings.Contains(string(res.Capabilities), `"tools"`) {
					t.Errorf("InitializeResult = %+v", res)
				}
				if want := "2025-11-25"; conn.name != "sse" && res.ProtocolVersion != want {
					t.Errorf("protocol version %s, want %s", res.ProtocolVersion, want)
				}
			})

			t.Run("roots are asked for after initialize", func(t *testing.T) {
				for deadline := time.Now().Add(5 * time.Second); e.h.count("roots/list") == 0; time.Sleep(20 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatal("the server never sent roots/list")
					}
				}
			})

			t.Run("tools", func(t *testing.T) {
				// Tools that depend on client capabilities are registered after
				// notifications/initialized; wait for them.
				var names []string
				for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
					tools, err := c.ListTools(ctx)
					if err != nil {
						t.Fatal(err)
					}
					names = names[:0]
					for _, tool := range tools {
						names = append(names, tool.Name)
					}
					if len(names) >= len(everythingTools) || time.Now().After(deadline) {
						break
					}
				}
				slices.Sort(names)
				if want := slices.Sorted(maps.Keys(everythingTools)); !slices.Equal(names, want) {
					t.Fatalf("tools = %v\nwant    %v", names, want)
				}
				for _, name := range names {
					tool := everythingTools[name]
					t.Run(name, func(t *testing.T) {
						t.Parallel()
						if tool.run != nil {
							tool.run(t, e)
							return
						}
						res := e.callTool(t, name, tool.args)
						if tool.want != "" && !strings.Contains(text(res), tool.want) {
							t.Errorf("result text = %q, want it to contain %q", text(res), tool.want)
						}
						if tool.check != nil {
							tool.check(t, res)
						}
					})
				}
			})

			t.Run("bad arguments give a tool error", func(t *testing.T) {
				res, err := c.CallTool(ctx, "echo", json.RawMessage(`{"message":5}`))
				if err != nil {
					t.Fatal(err)
				}
				if !res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "Input validation error") {
					t.Errorf("result = %+v", res)
				}
			})

			t.Run("resources", func(t *testing.T) {
				resources, err := c.ListResources(ctx)
				if err != nil {
					t.Fatal(err)
				}
				page, err := c.ListResourcesPage(ctx, "")
				if err != nil || len(page.Items) == 0 || len(page.Raw) == 0 {
					t.Fatalf("ListResourcesPage: %+v, %v", page, err)
				}
				i := slices.IndexFunc(resources, func(r Resource) bool { return strings.HasPrefix(r.URI, "demo://resource/static/document/") })
				if i < 0 {
					t.Fatalf("resources = %+v", resources)
				}
				read, err := c.ReadResource(ctx, resources[i].URI)
				if err != nil {
					t.Fatal(err)
				}
				if len(read.Contents) != 1 || read.Contents[0].Text == "" || read.Contents[0].URI != resources[i].URI {
					t.Errorf("read %s", read.Raw)
				}
				if _, err := c.ReadResource(ctx, "demo://no/such/thing"); !errors.As(err, new(*RPCError)) {
					t.Errorf("reading a missing resource: %v", err)
				}
			})

			t.Run("resource templates", func(t *testing.T) {
				templates, err := c.ListResourceTemplates(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var uris []string
				for _, tmpl := range templates {
					uris = append(uris, tmpl.URITemplate)
				}
				for _, want := range []string{"demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/{resourceId}"} {
					if !slices.Contains(uris, want) {
						t.Errorf("templates %v lack %s", uris, want)
					}
				}
				text, err := c.ReadResource(ctx, "demo://resource/dynamic/text/3")
				if err != nil || len(text.Contents) != 1 || !strings.HasPrefix(text.Contents[0].Text, "Resource 3:") {
					t.Errorf("text resource: %+v, %v", text, err)
				}
				blob, err := c.ReadResource(ctx, "demo://resource/dynamic/blob/3")
				if err != nil || len(blob.Contents) != 1 || blob.Contents[0].Blob == "" || blob.Contents[0].Text != "" {
					t.Errorf("blob resource: %+v, %v", blob, err)
				}
			})

			t.Run("prompts", func(t *testing.T) {
				prompts, err := c.ListPrompts(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var names []string
				for _, p := range prompts {
					names = append(names, p.Name)
				}
				slices.Sort(names)
				if want := []string{"args-prompt", "completable-prompt", "resource-prompt", "simple-prompt"}; !slices.Equal(names, want) {
					t.Errorf("prompts = %v, want %v", names, want)
				}
				tests := []struct {
					name string
					args map[string]string
					want func(res *GetPromptResult) bool
				}{
					{"simple-prompt", nil, func(res *GetPromptResult) bool { return len(res.Messages) == 1 && res.Messages[0].Content.Text != "" }},
					{"args-prompt", map[string]string{"city": "Paris", "state": "Texas"}, func(res *GetPromptResult) bool {
						return len(res.Messages) == 1 && strings.Contains(res.Messages[0].Content.Text, "Paris")
					}},
					{"completable-prompt", map[string]string{"department": "Sales", "name": "Eve"}, func(res *GetPromptResult) bool {
						return len(res.Messages) == 1 && strings.Contains(res.Messages[0].Content.Text, "promote Eve to the head of the Sales team")
					}},
					{"resource-prompt", map[string]string{"resourceType": "Text", "resourceId": "4"}, func(res *GetPromptResult) bool {
						return slices.ContainsFunc(res.Messages, func(m PromptMessage) bool {
							return m.Content.Type == "resource" && strings.Contains(string(m.Content.Resource), "demo://resource/dynamic/text/4")
						})
					}},
				}
				for _, tt := range tests {
					res, err := c.GetPrompt(ctx, tt.name, tt.args)
					if err != nil {
						t.Errorf("%s: %v", tt.name, err)
						continue
					}
					if !tt.want(res) {
						t.Errorf("%s = %s", tt.name, res.Raw)
					}
				}
				if _, err := c.GetPrompt(ctx, "args-prompt", nil); !errors.As(err, new(*RPCError)) {
					t.Errorf("missing required argument: %v", err)
				}
			})

			t.Run("completion", func(t *testing.T) {
				tests := []struct {
					req  CompleteRequest
					want []string
				}{
					{CompleteRequest{Ref: PromptRef("completable-prompt"), Argument: "department", Value: "S"}, []string{"Sales", "Support"}},
					{CompleteRequest{Ref: PromptRef("completable-prompt"), Argument: "name", Value: "",
						Context: map[string]string{"department": "Engineering"}}, []string{"Alice", "Bob", "Charlie"}},
					{CompleteRequest{Ref: ResourceTemplateRef("demo://resource/dynamic/text/{resourceId}"), Argument: "resourceId", Value: "7"}, []string{"7"}},
				}
				for _, tt := range tests {
					res, err := c.Complete(ctx, tt.req)
					if err != nil {
						t.Errorf("%+v: %v", tt.req, err)
						continue
					}
					if !slices.Equal(res.Values, tt.want) {
						t.Errorf("%+v: values %v, want %v (%s)", tt.req, res.Values, tt.want, res.Raw)
					}
				}
			})

			t.Run("ping", func(t *testing.T) {
				if _, err := c.Call(ctx, "ping", nil); err != nil {
					t.Error(err)
				}
			})

			t.Run("unknown method", func(t *testing.T) {
				_, err := c.Call(ctx, "no/such/method", nil)
				var rpcErr *RPCError
				if !errors.As(err, &rpcErr) || rpcErr.Code != -32601 {
					t.Fatalf("err = %v, want *RPCError -32601", err)
				}
			})

			t.Run("20 concurrent echo calls", func(t *testing.T) {
				testConcurrentEcho(t, c, "echo", "message", func(s string) string { return "Echo: " + s })
			})

			t.Run("cancelled call", func(t *testing.T) {
				cctx, cancel := context.WithCancel(ctx)
				cancel()
				if _, err := c.CallTool(cctx, "echo", json.RawMessage(`{"message":"late"}`)); !errors.Is(err, context.Canceled) {
					t.Errorf("err = %v, want Canceled", err)
				}
				if _, err := c.Call(ctx, "ping", nil); err != nil {
					t.Errorf("ping after cancel: %v", err)
				}
			})

			t.Run("raw frames", func(t *testing.T) {
				if err := c.SendRaw(ctx, []byte(`{"jsonrpc":"2.0","id":"raw-ping","method":"ping"}`)); err != nil {
					t.Fatal(err)
				}
				e.rec.waitFind(t, Inbound, KindMessage, `"id":"raw-ping"`)
			})
		})
	}
}
