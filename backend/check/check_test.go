package check_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/check"
	"github.com/mcp-playground/playground/backend/sdktest"
)

func TestMain(m *testing.M) {
	sdktest.ServeIfAsked()
	os.Exit(m.Run())
}

// mustCheck registers srv in a whole backend, connects, runs the checks
// over the session's client and returns the report by check id.
func mustCheck(t *testing.T, srv backend.Server) (check.Report, map[string]check.Result) {
	t.Helper()
	e := backendtest.MustEnv(t)
	sess := e.MustConnect(t, e.MustServer(t, srv))
	c, err := e.Pool.Client(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rep, err := check.Run(ctx, check.Conn{Client: c, Frames: check.StoredFrames(e.Rec, e.DB, sess.ID)}, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]check.Result{}
	var ids []string
	for _, r := range rep.Results {
		by[r.ID] = r
		ids = append(ids, r.ID)
		t.Logf("%s %s: %s", r.Verdict, r.ID, r.Reason)
	}
	if strings.Join(ids, " ") != strings.Join(check.IDs(), " ") {
		t.Errorf("checks %v, want %v", ids, check.IDs())
	}
	return rep, by
}

// wantVerdicts checks the verdict of each check: want names the checks
// that do not pass (with their verdict and a text their reason holds);
// every other one must pass.
func wantVerdicts(t *testing.T, by map[string]check.Result, want map[string][2]string) {
	t.Helper()
	for id, r := range by {
		w, ok := want[id]
		if !ok {
			w = [2]string{string(check.Pass), ""}
		}
		if string(r.Verdict) != w[0] || !strings.Contains(r.Reason, w[1]) {
			t.Errorf("%s: %s %q, want %s with %q", id, r.Verdict, r.Reason, w[0], w[1])
		}
	}
}

// sdkServer is an official Go SDK server with every feature the checks
// look at: tools (in pages of two), a resource and a template, a prompt
// with an argument, completions and logging.
func sdkServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk-check", Version: "1.0"}, &mcp.ServerOptions{
		PageSize: 2,
		CompletionHandler: func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{"paris", "park"}}}, nil
		},
	})
	for i := range 5 {
		mcp.AddTool(s, &mcp.Tool{Name: fmt.Sprintf("tool_%d", i), Description: "does nothing"},
			func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
			})
	}
	read := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "hello"}}}, nil
	}
	s.AddResource(&mcp.Resource{URI: "test://hello", Name: "hello"}, read)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://city/{name}", Name: "city"}, read)
	s.AddPrompt(&mcp.Prompt{Name: "greet", Arguments: []*mcp.PromptArgument{{Name: "city"}}},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hi"}}}}, nil
		})
	return s
}

// TestRunSDKServerOverHTTP: the official Go SDK's server over Streamable
// HTTP, with its cross-origin protection on, passes every check but one:
// it refuses an unknown method with HTTP 400 where the specification asks
// for a JSON-RPC -32601. The lists follow every page; the evidence names
// the recorded frames.
func TestRunSDKServerOverHTTP(t *testing.T) {
	s := sdkServer()
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{CrossOriginProtection: http.NewCrossOriginProtection()}))
	t.Cleanup(ts.Close)
	rep, by := mustCheck(t, backend.Server{Name: "sdk", Transport: backend.TransportHTTP, URL: ts.URL})
	wantVerdicts(t, by, map[string][2]string{
		"unknown-method":    {"fail", "HTTP 400"},
		"header-validation": {"skip", "this session is of the legacy era"},
		"sse-polling":       {"pass", "the response came on the stream, which the server did not close early"},
	})
	if rep.Era != "legacy" || rep.ProtocolVersion == "" {
		t.Errorf("report era %q, version %q", rep.Era, rep.ProtocolVersion)
	}
	tools := by["tools-list"]
	if tools.Reason != "5 tools in 3 pages" || len(tools.Exchanges) != 3 {
		t.Errorf("tools-list: %q with %d exchanges", tools.Reason, len(tools.Exchanges))
	}
	for _, ex := range tools.Exchanges {
		if ex.Request == nil || ex.Request.FrameID == 0 || ex.Response == nil || ex.Response.FrameID <= ex.Request.FrameID ||
			!strings.Contains(ex.Response.Body, `"tools"`) {
			t.Errorf("tools-list exchange without its frames: %+v %+v", ex.Request, ex.Response)
		}
	}
	if ex := by["server-initialize"].Exchanges; len(ex) != 1 || ex[0].Request == nil || !strings.Contains(ex[0].Request.Body, `"initialize"`) || ex[0].Response == nil {
		t.Errorf("server-initialize evidence: %+v", ex)
	}
	if ex := by["dns-rebinding-protection"].Exchanges; len(ex) != 2 || ex[0].HTTPStatus != http.StatusForbidden || ex[1].HTTPStatus != http.StatusOK {
		t.Errorf("dns-rebinding-protection evidence: %+v", ex)
	}
	lint := by["protocol-lint"]
	ours := 0
	for _, f := range lint.Findings {
		if f.Direction == "out" {
			ours++
		}
	}
	if ours == 0 || !strings.Contains(lint.Reason, "on the checks' own requests") {
		t.Errorf("protocol-lint lists none of the checks' own broken requests: %q %+v", lint.Reason, lint.Findings)
	}
}

// TestRunSDKServerOverStdio: over stdio the same SDK (sdktest's server:
// tools and logging, no resources or prompts) passes every check that
// applies; the HTTP checks and those of capabilities it lacks are skipped
// with the reason.
func TestRunSDKServerOverStdio(t *testing.T) {
	_, by := mustCheck(t, sdktest.StdioServer("sdk stdio"))
	skip := func(why string) [2]string { return [2]string{"skip", why} }
	wantVerdicts(t, by, map[string][2]string{
		"resources-list":           skip("resources capability"),
		"prompts-list":             skip("prompts capability"),
		"unknown-resource":         skip("resources capability"),
		"completion-complete":      skip("completions capability"),
		"dns-rebinding-protection": skip("over Streamable HTTP only"),
		"origin-validation":        skip("over Streamable HTTP only"),
		"protocol-version-header":  skip("over Streamable HTTP only"),
		"server-session-lifecycle": skip("over Streamable HTTP only"),
		"header-validation":        skip("over Streamable HTTP only"),
		"sse-polling":              skip("over Streamable HTTP only"),
	})
}

// brokenServer is a Streamable HTTP server written by hand that breaks a
// rule in each of several checks: ping answers a non-empty result,
// tools/list hands out the same cursor again and lists a tool without an
// inputSchema, an unknown method is answered -32600, and it checks no
// header at all (Host, Origin, MCP-Protocol-Version, Mcp-Session-Id).
func brokenServer(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(body, &req) != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if req.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	result := ""
	switch req.Method {
	case "initialize":
		w.Header().Set("Mcp-Session-Id", "broken-session")
		result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"broken","version":"1"}}`
	case "ping":
		result = `{"pong":true}`
	case "tools/list":
		result = `{"tools":[{"name":"shapeless"}],"nextCursor":"again"}`
	}
	w.Header().Set("Content-Type", "application/json")
	if result == "" {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"no"}}`, req.ID)
		return
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
}

// TestRunBrokenServer: each rule the server breaks fails its check, with
// the evidence that shows it.
func TestRunBrokenServer(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(brokenServer))
	t.Cleanup(ts.Close)
	_, by := mustCheck(t, backend.Server{Name: "broken", Transport: backend.TransportHTTP, URL: ts.URL})
	fail := func(why string) [2]string { return [2]string{"fail", why} }
	wantVerdicts(t, by, map[string][2]string{
		"ping":                     fail(`the result is not empty: {"pong":true}`),
		"tools-list":               fail(`nextCursor "again" came before: the pages loop; tool "shapeless" has no inputSchema object`),
		"unknown-method":           fail("answered -32600 no, not -32601"),
		"invalid-params":           fail("tools/call without a name: answered -32600 no, not -32602"),
		"unknown-tool":             fail("answered -32600 no, not -32602"),
		"resources-list":           {"skip", "resources capability"},
		"prompts-list":             {"skip", "prompts capability"},
		"unknown-resource":         {"skip", "resources capability"},
		"completion-complete":      {"skip", "completions capability"},
		"logging-set-level":        {"skip", "logging capability"},
		"dns-rebinding-protection": fail("was answered HTTP 200, not refused with 4xx"),
		"origin-validation":        fail("was answered HTTP 200"),
		"protocol-version-header":  fail("was answered HTTP 200, not 400"),
		"server-session-lifecycle": fail("unknown session: HTTP 200 (want 404)"),
		"header-validation":        {"skip", "this session is of the legacy era"},
		"sse-polling":              {"skip", "answered with one JSON body, not an SSE stream"},
		"protocol-lint":            fail("mcp.schema"),
	})
	if ex := by["unknown-method"].Exchanges; len(ex) != 1 || ex[0].Response == nil || ex[0].Response.FrameID == 0 || !strings.Contains(ex[0].Response.Body, `"code":-32600`) {
		t.Errorf("unknown-method evidence: %+v", ex)
	}
	found := false
	for _, f := range by["protocol-lint"].Findings {
		if f.Direction == "in" && f.Code == "mcp.schema" && f.Method == "tools/list" && f.FrameID != 0 {
			found = true
		}
	}
	if !found {
		t.Errorf("protocol-lint findings hold no mcp.schema of tools/list: %+v", by["protocol-lint"].Findings)
	}
}

// reconnectionServer is an official Go SDK server over Streamable HTTP
// with the conformance suite's test_reconnection tool, which closes the
// SSE stream of its call (asking for a retry in 50 ms) before it answers.
// With resumable, it keeps its events, so the client resumes the stream
// with Last-Event-ID and gets the answer; without, the answer is lost.
func reconnectionServer(t *testing.T, resumable bool) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "reconnection", Version: "1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "test_reconnection", Description: "closes its stream before it answers"},
		func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			if req.Extra != nil && req.Extra.CloseSSEStream != nil {
				req.Extra.CloseSSEStream(mcp.CloseSSEStreamArgs{RetryAfter: 50 * time.Millisecond})
			}
			time.Sleep(100 * time.Millisecond)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "reconnected"}}}, nil, nil
		})
	o := &mcp.StreamableHTTPOptions{CrossOriginProtection: http.NewCrossOriginProtection()}
	if resumable {
		o.EventStore = mcp.NewMemoryEventStore(nil)
	}
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, o))
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestRunSSEPolling: a server that closes a call's stream early and
// keeps its events passes sse-polling, its priming event, retry and the
// client's resumption named; one that closes the stream and cannot
// resume it fails, the response being lost.
func TestRunSSEPolling(t *testing.T) {
	t.Run("resumable", func(t *testing.T) {
		_, by := mustCheck(t, backend.Server{Name: "resumable", Transport: backend.TransportHTTP, URL: reconnectionServer(t, true)})
		r := by["sse-polling"]
		for _, want := range []string{"tools/call test_reconnection", "priming event id", "retry 50ms",
			"the server closed the stream before the response, and it came after the client resumed with Last-Event-ID (1 time)"} {
			if r.Verdict != check.Pass || !strings.Contains(r.Reason, want) {
				t.Errorf("sse-polling: %s %q, want pass with %q", r.Verdict, r.Reason, want)
			}
		}
		if len(r.Exchanges) != 1 || r.Exchanges[0].Response == nil || !strings.Contains(r.Exchanges[0].Response.Body, "reconnected") {
			t.Errorf("sse-polling evidence: %+v", r.Exchanges)
		}
	})
	t.Run("not resumable", func(t *testing.T) {
		_, by := mustCheck(t, backend.Server{Name: "lossy", Transport: backend.TransportHTTP, URL: reconnectionServer(t, false)})
		if r := by["sse-polling"]; r.Verdict != check.Fail || !strings.Contains(r.Reason, "tools/call test_reconnection: no answer") {
			t.Errorf("sse-polling: %s %q, want fail with no answer", r.Verdict, r.Reason)
		}
	})
}

// TestRunHeaderValidation: in the modern era, the official Go SDK's
// server refuses every request whose Mcp-Method or Mcp-Name disagrees
// with its body and passes; a server that reads only the body fails,
// each request it took named.
func TestRunHeaderValidation(t *testing.T) {
	t.Run("sdk", func(t *testing.T) {
		s := sdkServer()
		ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
			&mcp.StreamableHTTPOptions{Stateless: true, CrossOriginProtection: http.NewCrossOriginProtection()}))
		t.Cleanup(ts.Close)
		rep, by := mustCheck(t, backend.Server{Name: "sdk modern", Transport: backend.TransportHTTP, URL: ts.URL, Era: backend.EraModern})
		if rep.Era != "modern" {
			t.Fatalf("report era %q, want modern", rep.Era)
		}
		r := by["header-validation"]
		if r.Verdict != check.Pass || !strings.Contains(r.Reason, "5 mismatched requests refused with HTTP 400, those whose headers agree accepted") {
			t.Errorf("header-validation: %s %q", r.Verdict, r.Reason)
		}
		if len(r.Exchanges) != 7 || r.Exchanges[1].HTTPStatus != http.StatusBadRequest || r.Exchanges[0].HTTPStatus != http.StatusOK {
			t.Errorf("header-validation evidence: %+v", r.Exchanges)
		}
		if r := by["sse-polling"]; r.Verdict != check.Skip || !strings.Contains(r.Reason, "2026-07-28") {
			t.Errorf("sse-polling: %s %q, want skip in the modern era", r.Verdict, r.Reason)
		}
	})
	t.Run("body only", func(t *testing.T) {
		s := sdkServer()
		sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
			&mcp.StreamableHTTPOptions{Stateless: true, CrossOriginProtection: http.NewCrossOriginProtection()})
		// The SDK's server behind a proxy that makes every request's
		// standard headers agree with its body: a server that reads the
		// body alone.
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			var m struct {
				Method string `json:"method"`
				Params struct {
					Name string `json:"name"`
				} `json:"params"`
			}
			if json.Unmarshal(body, &m) == nil && m.Method != "" {
				r.Header.Set("Mcp-Method", m.Method)
				if m.Params.Name != "" {
					r.Header.Set("Mcp-Name", m.Params.Name)
				}
			}
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			sdk.ServeHTTP(w, r)
		}))
		t.Cleanup(ts.Close)
		_, by := mustCheck(t, backend.Server{Name: "body only", Transport: backend.TransportHTTP, URL: ts.URL, Era: backend.EraModern})
		r := by["header-validation"]
		for _, want := range []string{"tools/list with Mcp-Method: prompts/list: HTTP 200 (want 400)", "tools/call without Mcp-Name: HTTP 400 with error -32602, as when the headers agree: the header was not checked"} {
			if r.Verdict != check.Fail || !strings.Contains(r.Reason, want) {
				t.Errorf("header-validation: %s %q, want fail with %q", r.Verdict, r.Reason, want)
			}
		}
	})
}
