package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// eraMux answers elicitation (accepting with name Ada) and sampling.
func eraMux() *Mux {
	m := &Mux{}
	m.HandleFunc("elicitation/create", func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"action":"accept","content":{"name":"Ada"}}`), nil
	})
	m.HandleFunc("sampling/createMessage", func(context.Context, string, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"test-model"}`), nil
	})
	return m
}

// modernConnectors are sdkConnectors that serve the modern era: the Go SDK
// speaks it over HTTP only when stateless.
var modernConnectors = []struct {
	name    string
	connect func(t *testing.T, opts Options) *Client
}{
	sdkConnectors[0],
	{"http-sse", func(t *testing.T, opts Options) *Client {
		return connectSDKHTTP(t, opts, &mcp.StreamableHTTPOptions{Stateless: true})
	}},
	{"http-json", func(t *testing.T, opts Options) *Client {
		return connectSDKHTTP(t, opts, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	}},
}

func TestModernEra(t *testing.T) {
	for _, conn := range modernConnectors {
		t.Run(conn.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			c := conn.connect(t, Options{Tap: rec.tap, Era: EraModern, Handler: eraMux()})
			ctx := testContext(t)
			if c.Era() != EraModern || c.ProtocolVersion() != "2026-07-28" {
				t.Errorf("era %q, version %q", c.Era(), c.ProtocolVersion())
			}
			if d := c.Discovery(); d == nil || len(d.SupportedVersions) == 0 {
				t.Errorf("Discovery() = %+v", d)
			}
			if name := c.InitializeResult().ServerInfo.Name; name != "sdk-test" {
				t.Errorf("server name %q, want sdk-test (from server/discover)", name)
			}
			if fs := rec.find(Outbound, KindMessage, `"method":"initialize"`); len(fs) > 0 {
				t.Errorf("initialize sent in the modern era: %s", fs[0].Body)
			}
			tools, err := c.ListTools(ctx)
			if err != nil || len(tools) < 5 {
				t.Fatalf("ListTools: %d tools, %v", len(tools), err)
			}
			res, err := c.CallTool(ctx, "echo", json.RawMessage(`{"text":"héllo"}`))
			if err != nil || res.Content[0].Text != "héllo" {
				t.Fatalf("echo: %+v, %v", res, err)
			}
			call := rec.waitFind(t, Outbound, KindMessage, `"method":"tools/call"`)
			for _, want := range []string{
				`"io.modelcontextprotocol/protocolVersion":"2026-07-28"`,
				`"io.modelcontextprotocol/clientInfo":{"name":"mcp-playground","version":"dev"}`,
				`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{},"url":{}},"sampling":{}}`,
			} {
				if !strings.Contains(string(call.Body), want) {
					t.Errorf("tools/call body %s lacks %s", call.Body, want)
				}
			}
			if conn.name == "stdio" {
				return
			}
			h := call.HTTP.Header
			if h.Get("Mcp-Method") != "tools/call" || h.Get("Mcp-Name") != "echo" || h.Get("MCP-Protocol-Version") != "2026-07-28" || h.Get("Mcp-Session-Id") != "" {
				t.Errorf("tools/call headers = %v", h)
			}
			for _, f := range rec.find(Outbound, KindTransport, "") {
				if f.HTTP != nil && f.HTTP.Method != http.MethodPost {
					t.Errorf("the modern era sent %s %s", f.HTTP.Method, f.Body)
				}
			}
		})
	}
}

// newMRTRServer returns a Go SDK server with tool "deploy", which asks for
// an elicitation, then for a sampling (with request states r1 and r2), then
// answers with what it got.
func newMRTRServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mrtr-test", Version: "1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "deploy"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		p := req.Params
		switch p.RequestState {
		case "":
			return &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{"who": &mcp.ElicitParams{Message: "Who deploys?", RequestedSchema: map[string]any{
					"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}},
				}}},
				RequestState: "r1",
			}, nil, nil
		case "r1":
			who, _ := json.Marshal(p.InputResponses["who"])
			return &mcp.CallToolResult{
				InputRequests: mcp.InputRequestMap{"where": &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{
					{Role: "user", Content: &mcp.TextContent{Text: "Where?"}},
				}}},
				RequestState: "r2:" + string(who),
			}, nil, nil
		}
		where, _ := json.Marshal(p.InputResponses["where"])
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: p.RequestState + " / " + string(where)}}}, nil, nil
	})
	return s
}

func TestModernInputRequired(t *testing.T) {
	server := newMRTRServer()
	srv := newLoopbackServer(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: true}))
	rec := &recorder{}
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL}, Options{Tap: rec.tap, Era: EraModern, Handler: eraMux()})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	res, err := c.CallTool(testContext(t), "deploy", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, `"name":"Ada"`) || !strings.Contains(res.Content[0].Text, `Paris`) {
		t.Fatalf("result = %+v", res)
	}
	calls := rec.find(Outbound, KindMessage, `"method":"tools/call"`)
	if len(calls) != 3 {
		t.Fatalf("%d tools/call frames, want 3", len(calls))
	}
	ids := map[string]bool{}
	for i, f := range calls {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Params map[string]json.RawMessage
		}
		if err := json.Unmarshal(f.Body, &m); err != nil {
			t.Fatal(err)
		}
		ids[string(m.ID)] = true
		_, hasState := m.Params["requestState"]
		_, hasInput := m.Params["inputResponses"]
		if (i == 0) == (hasState || hasInput) {
			t.Errorf("round %d: params %s", i, f.Body)
		}
	}
	if len(ids) != 3 {
		t.Errorf("ids are not all different: %v", ids)
	}
	if !strings.Contains(string(calls[1].Body), `"requestState":"r1"`) || !strings.Contains(string(calls[1].Body), `"inputResponses":{"who":{"action":"accept"`) {
		t.Errorf("round 2 = %s", calls[1].Body)
	}
	rec.waitFind(t, Inbound, KindTransport, "tools/call: input_required (round 2)")
}

// modernFake is a hand-written modern-era server. handle answers the
// decoded request; its result is sent as JSON with status 200, an
// *RPCError with status 400.
func modernFake(t *testing.T, handle func(r *http.Request, m *message) (any, *RPCError)) string {
	srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		m, err := decodeMessage(body)
		if err != nil || m.isNotification() {
			http.Error(w, "unexpected "+string(body), http.StatusBadRequest)
			return
		}
		if m.Method == "server/discover" {
			writeJSON(w, 200, m.ID, map[string]any{"resultType": "complete", "supportedVersions": []string{"2026-07-28"}, "capabilities": map[string]any{"tools": map[string]any{}}}, nil)
			return
		}
		res, rpcErr := handle(r, m)
		status := 200
		if rpcErr != nil {
			status = 400
		}
		writeJSON(w, status, m.ID, res, rpcErr)
	}))
	return srv.URL
}

func writeJSON(w http.ResponseWriter, status int, id json.RawMessage, res any, rpcErr *RPCError) {
	body, _ := encodeResponse(id, res, rpcErr)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

func TestModernUnsupportedVersion(t *testing.T) {
	var requests atomic.Int32
	url := modernFake(t, func(r *http.Request, m *message) (any, *RPCError) {
		if requests.Add(1) == 1 || m.Method == "refuse" {
			return nil, &RPCError{Code: -32022, Message: "Unsupported protocol version",
				Data: json.RawMessage(`{"supported":["2026-07-28","2099-01-01"],"requested":"2026-07-28"}`)}
		}
		if got := r.Header.Get("MCP-Protocol-Version"); got != "2026-07-28" {
			t.Errorf("header version %q", got)
		}
		return map[string]any{"resultType": "complete", "tools": []any{}}, nil
	})
	rec := &recorder{}
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: url}, Options{Tap: rec.tap, Era: EraModern})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	if _, err := c.ListTools(testContext(t)); err != nil {
		t.Fatalf("tools/list after one refusal: %v", err)
	}
	rec.waitFind(t, Inbound, KindTransport, "tools/list: the server does not support protocol version 2026-07-28 (it supports 2026-07-28, 2099-01-01); retrying with 2026-07-28")
	_, err = c.Call(testContext(t), "refuse", nil)
	var rpcErr *RPCError
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32022 {
		t.Fatalf("refuse: %v", err)
	}
	if n := len(rec.find(Outbound, KindMessage, `"method":"refuse"`)); n != 1+maxVersionRetries {
		t.Errorf("refuse sent %d times, want %d", n, 1+maxVersionRetries)
	}
}

func TestModernResultTypes(t *testing.T) {
	var rounds atomic.Int32
	url := modernFake(t, func(r *http.Request, m *message) (any, *RPCError) {
		switch m.Method {
		case "task":
			return map[string]any{"resultType": "task"}, nil
		case "forever":
			rounds.Add(1)
			return map[string]any{"resultType": "input_required", "inputRequests": map[string]any{"x": map[string]any{"method": "elicitation/create", "params": map[string]any{}}}}, nil
		case "needs-roots":
			return map[string]any{"resultType": "input_required", "inputRequests": map[string]any{"r": map[string]any{"method": "roots/list"}}}, nil
		}
		return map[string]any{}, nil // no resultType: complete
	})
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: url}, Options{Era: EraModern, Handler: eraMux()})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	ctx := testContext(t)
	if res, err := c.Call(ctx, "plain", nil); err != nil || string(res) != "{}" {
		t.Errorf("plain: %s, %v", res, err)
	}
	if _, err := c.Call(ctx, "task", nil); err == nil || !strings.Contains(err.Error(), `resultType "task"`) {
		t.Errorf("task: %v", err)
	}
	if _, err := c.Call(ctx, "forever", nil); err == nil || !strings.Contains(err.Error(), "after 32 rounds") || rounds.Load() != 33 {
		t.Errorf("forever: %v after %d rounds", err, rounds.Load())
	}
	if _, err := c.Call(ctx, "needs-roots", nil); err == nil || !strings.Contains(err.Error(), `input request "r" (roots/list) was not answered`) {
		t.Errorf("needs-roots: %v", err)
	}
}

func TestModernCancelClosesStream(t *testing.T) {
	closed := make(chan struct{})
	var cancelPosts atomic.Int32
	srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m, _ := decodeMessage(body)
		switch {
		case m == nil:
		case m.Method == "server/discover":
			writeJSON(w, 200, m.ID, map[string]any{"supportedVersions": []string{"2026-07-28"}}, nil)
		case m.Method == "notifications/cancelled":
			cancelPosts.Add(1)
			w.WriteHeader(http.StatusAccepted)
		default:
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(200)
			fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			close(closed)
		}
	}))
	rec := &recorder{}
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL}, Options{Tap: rec.tap, Era: EraModern})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := c.Call(ctx, "slow", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow: %v", err)
	}
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the server never saw the response stream close")
	}
	rec.waitFind(t, Inbound, KindTransport, "its response stream was closed")
	if n := cancelPosts.Load(); n != 0 {
		t.Errorf("%d notifications/cancelled POSTed", n)
	}
}

func TestEraAuto(t *testing.T) {
	legacyHTTP := newLoopbackServer(t, http.HandlerFunc(fakeHTTPHandler)).URL
	sdk := newSDKServer()
	sdkHTTP := newLoopbackServer(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sdk }, &mcp.StreamableHTTPOptions{Stateless: true})).URL
	sdkStateful := newLoopbackServer(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return sdk }, nil)).URL
	// Legacy servers that answer server/discover oddly: with an empty
	// result, or not at all.
	legacyAnswering := func(discover func(w http.ResponseWriter, r *http.Request, m *message)) string {
		return newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			m, _ := decodeMessage(body)
			switch {
			case r.Method != http.MethodPost:
				w.WriteHeader(http.StatusMethodNotAllowed)
			case m.Method == "server/discover":
				discover(w, r, m)
			case m.Method == "initialize":
				writeJSON(w, 200, m.ID, map[string]any{"protocolVersion": "2025-06-18", "serverInfo": map[string]any{"name": "l", "version": "1"}}, nil)
			case m.isNotification():
				w.WriteHeader(http.StatusAccepted)
			default:
				writeJSON(w, 200, m.ID, map[string]any{}, nil)
			}
		})).URL
	}
	emptyResult := legacyAnswering(func(w http.ResponseWriter, r *http.Request, m *message) {
		writeJSON(w, 200, m.ID, map[string]any{}, nil)
	})
	silent := legacyAnswering(func(w http.ResponseWriter, r *http.Request, m *message) {
		<-r.Context().Done()
	})
	tests := []struct {
		name    string
		connect func(ctx context.Context, opts Options) (*Client, error)
		want    Era
		version string
	}{
		{"http: discover answered with an empty result", func(ctx context.Context, o Options) (*Client, error) {
			return ConnectHTTP(ctx, HTTPConfig{URL: emptyResult}, o)
		}, EraLegacy, "2025-06-18"},
		{"http: discover not answered", func(ctx context.Context, o Options) (*Client, error) {
			o.InitializeTimeout = 300 * time.Millisecond
			return ConnectHTTP(ctx, HTTPConfig{URL: silent}, o)
		}, EraLegacy, "2025-06-18"},
		{"http modern", func(ctx context.Context, o Options) (*Client, error) {
			return ConnectHTTP(ctx, HTTPConfig{URL: sdkHTTP}, o)
		}, EraModern, "2026-07-28"},
		{"http stateful SDK: discover names legacy versions only", func(ctx context.Context, o Options) (*Client, error) {
			return ConnectHTTP(ctx, HTTPConfig{URL: sdkStateful}, o)
		}, EraLegacy, "2025-11-25"},
		{"http legacy", func(ctx context.Context, o Options) (*Client, error) {
			o.ProtocolVersion = "2025-03-26"
			return ConnectHTTP(ctx, HTTPConfig{URL: legacyHTTP}, o)
		}, EraLegacy, "2025-03-26"},
		{"stdio modern", func(ctx context.Context, o Options) (*Client, error) {
			return ConnectStdio(ctx, selfCommand("sdk"), o)
		}, EraModern, "2026-07-28"},
		{"stdio legacy", func(ctx context.Context, o Options) (*Client, error) {
			return ConnectStdio(ctx, selfCommand("fake"), o)
		}, EraLegacy, "2025-06-18"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			c, err := tt.connect(testContext(t), Options{Tap: rec.tap, Era: EraAuto})
			if err != nil {
				t.Fatal(err)
			}
			mustClose(t, c)
			if c.Era() != tt.want || c.ProtocolVersion() != tt.version {
				t.Errorf("era %s version %s, want %s %s", c.Era(), c.ProtocolVersion(), tt.want, tt.version)
			}
			rec.waitFind(t, Outbound, KindMessage, `"method":"server/discover"`)
			if tt.want == EraLegacy {
				rec.waitFind(t, Inbound, KindTransport, "falling back to initialize (legacy era)")
			}
		})
	}
}

func TestEraOptions(t *testing.T) {
	if _, err := ConnectStdio(testContext(t), selfCommand("fake"), Options{Era: EraLegacy, ProtocolVersion: "2026-07-28"}); err == nil ||
		!strings.Contains(err.Error(), "belongs to the modern era") {
		t.Errorf("legacy with a modern version: %v", err)
	}
	if _, err := ConnectStdio(testContext(t), selfCommand("fake"), Options{Era: "future"}); err == nil || !strings.Contains(err.Error(), `unknown era "future"`) {
		t.Errorf("unknown era: %v", err)
	}
	stateful := newSDKServer()
	url := newLoopbackServer(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return stateful }, nil)).URL
	if _, err := ConnectHTTP(testContext(t), HTTPConfig{URL: url}, Options{Era: EraModern}); err == nil ||
		!strings.Contains(err.Error(), "none of them a modern version") {
		t.Errorf("modern era against a legacy-only server: %v", err)
	}
	c, err := ConnectStdio(testContext(t), selfCommand("sdk"), Options{ProtocolVersion: "2026-07-28"})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	if c.Era() != EraModern {
		t.Errorf("a modern ProtocolVersion without Era gave era %s", c.Era())
	}
	if got := ProtocolVersions(); strings.Join(got, " ") != "2024-11-05 2025-03-26 2025-06-18 2025-11-25 2026-07-28" {
		t.Errorf("ProtocolVersions() = %v", got)
	}
}

func TestModernParams(t *testing.T) {
	c := newClient(Options{})
	state := "s"
	tests := []struct {
		name  string
		base  string
		retry bool
		input string
		state *string
		want  string
	}{
		{"no params", "", false, "", nil,
			`{"_meta":{"io.modelcontextprotocol/protocolVersion":"V","io.modelcontextprotocol/clientInfo":{"name":"mcp-playground","version":"dev"},"io.modelcontextprotocol/clientCapabilities":{}}}`},
		{"caller _meta kept, version replaced", `{"b":1,"_meta":{"progressToken":7,"io.modelcontextprotocol/protocolVersion":"X","io.modelcontextprotocol/clientInfo":{"name":"me"}},"a":2}`, false, "", nil,
			`{"b":1,"_meta":{"progressToken":7,"io.modelcontextprotocol/protocolVersion":"V","io.modelcontextprotocol/clientInfo":{"name":"me"},"io.modelcontextprotocol/clientCapabilities":{}},"a":2}`},
		{"retry with state", `{"name":"t","requestState":"old"}`, true, `{"k":{}}`, &state,
			`{"name":"t","requestState":"s","_meta":{"io.modelcontextprotocol/protocolVersion":"V","io.modelcontextprotocol/clientInfo":{"name":"mcp-playground","version":"dev"},"io.modelcontextprotocol/clientCapabilities":{}},"inputResponses":{"k":{}}}`},
		{"retry without state drops it", `{"requestState":"old","inputResponses":{"old":1}}`, true, "", nil,
			`{"_meta":{"io.modelcontextprotocol/protocolVersion":"V","io.modelcontextprotocol/clientInfo":{"name":"mcp-playground","version":"dev"},"io.modelcontextprotocol/clientCapabilities":{}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var base, input json.RawMessage
			if tt.base != "" {
				base = json.RawMessage(tt.base)
			}
			if tt.input != "" {
				input = json.RawMessage(tt.input)
			}
			got, err := c.modernParams(base, "V", c.caps, tt.retry, input, tt.state)
			if err != nil || string(got) != tt.want {
				t.Errorf("got %s, %v\nwant %s", got, err, tt.want)
			}
		})
	}
	if _, err := c.callModern(testContext(t), "x", json.RawMessage(`[1]`)); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Errorf("array params: %v", err)
	}
}

func TestRequestedEra(t *testing.T) {
	tests := []struct {
		era     Era
		version string
		want    Era
	}{
		{"", "", EraLegacy},
		{"", "2025-11-25", EraLegacy},
		{"", "2026-07-28", EraModern},
		{"", "1999-01-01", EraLegacy},
		{EraAuto, "2026-07-28", EraAuto},
		{EraLegacy, "2026-07-28", EraLegacy}, // start refuses this pair
	}
	for _, tt := range tests {
		if got := RequestedEra(tt.era, tt.version); got != tt.want {
			t.Errorf("RequestedEra(%q, %q) = %q, want %q", tt.era, tt.version, got, tt.want)
		}
	}
}
