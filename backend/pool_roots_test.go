package backend_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
)

// mustRootsServer serves an official Go SDK server over Streamable HTTP
// whose tool "roots" asks the client for its roots (roots/list) and answers
// with them as "uri name" lines. Each notifications/roots/list_changed the
// server receives is sent on the returned channel.
func mustRootsServer(tb testing.TB) (string, <-chan struct{}) {
	tb.Helper()
	changed := make(chan struct{}, 4)
	s := mcp.NewServer(&mcp.Implementation{Name: "roots-test", Version: "1.0"}, &mcp.ServerOptions{
		RootsListChangedHandler: func(context.Context, *mcp.RootsListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	mcp.AddTool(s, &mcp.Tool{Name: "roots", Description: "lists the client's roots"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.ListRoots(ctx, nil)
			if err != nil {
				return nil, nil, err
			}
			var lines []string
			for _, r := range res.Roots {
				lines = append(lines, r.URI+" "+r.Name)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(lines, "\n")}}}, nil, nil
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp", changed
}

// callRoots calls the roots tool and returns the text it answered.
func callRoots(t *testing.T, e *env, sessionID int64) string {
	t.Helper()
	res, err := e.Pool.Call(backendtest.Context(t), sessionID, "tools/call", json.RawMessage(`{"name":"roots","arguments":{}}`))
	if err != nil || res.Error != nil {
		t.Fatalf("tools/call roots: %v %v", err, res.Error)
	}
	var out struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	if err := json.Unmarshal(res.Result, &out); err != nil || out.IsError || len(out.Content) != 1 {
		t.Fatalf("tools/call roots answered %s (%v)", res.Result, err)
	}
	return out.Content[0].Text
}

// TestPoolAnswersRootsListWithTheServersRoots connects to a server that
// asks for roots: the client declares the roots capability, roots/list is
// answered with the roots registered for the server, and editing them
// while connected sends notifications/roots/list_changed and changes the
// next answer.
func TestPoolAnswersRootsListWithTheServersRoots(t *testing.T) {
	e := MustEnv(t)
	url, changed := mustRootsServer(t)
	srv := httpServer("roots", url)
	srv.Roots = []backend.Root{{URI: "file:///work/project", Name: "Project"}, {URI: "file:///tmp"}}
	id := e.MustServer(t, srv)
	sess := e.MustConnect(t, id)

	if got, want := callRoots(t, e, sess.ID), "file:///work/project Project\nfile:///tmp "; got != want {
		t.Errorf("the server saw the roots %q, want %q", got, want)
	}

	stored, err := e.Reg.Get(backendtest.Context(t), id)
	if err != nil {
		t.Fatal(err)
	}
	stored.Roots = []backend.Root{{URI: "file:///srv/other", Name: "Other"}}
	if _, err := e.Reg.Update(backendtest.Context(t), stored); err != nil {
		t.Fatalf("Registry.Update: %v", err)
	}
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("the server was not told that the roots changed")
	}
	if got, want := callRoots(t, e, sess.ID), "file:///srv/other Other"; got != want {
		t.Errorf("after the edit the server saw the roots %q, want %q", got, want)
	}
	if err := e.Rec.Flush(backendtest.Context(t)); err != nil {
		t.Fatal(err)
	}
	if n := countFrames(t, e, sess.ID, backend.MethodRootsChanged, backend.RPCNotification); n != 1 {
		t.Errorf("%d %s frames were recorded, want 1", n, backend.MethodRootsChanged)
	}

	// Saving without a change to the roots tells the server nothing.
	stored.Name = "roots renamed"
	if _, err := e.Reg.Update(backendtest.Context(t), stored); err != nil {
		t.Fatalf("Registry.Update: %v", err)
	}
	select {
	case <-changed:
		t.Error("the server was told the roots changed although they did not")
	case <-time.After(200 * time.Millisecond):
	}
}

// TestPoolAnswersModernRootsInputRequest connects in the modern era to a
// hand-written server whose tools/call answers input_required with a
// roots/list input request: the retry carries the server's registered
// roots as the input response, and every request declares the roots
// capability in its _meta.
func TestPoolAnswersModernRootsInputRequest(t *testing.T) {
	e := MustEnv(t)
	var sawCaps atomic.Bool
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Meta           map[string]json.RawMessage `json:"_meta"`
				InputResponses map[string]json.RawMessage `json:"inputResponses"`
			} `json:"params"`
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&m) != nil || m.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if caps := m.Params.Meta["io.modelcontextprotocol/clientCapabilities"]; strings.Contains(string(caps), `"roots"`) {
			sawCaps.Store(true)
		}
		var result any = map[string]any{"resultType": "complete"}
		switch {
		case m.Method == "server/discover":
			result = map[string]any{"resultType": "complete", "supportedVersions": []string{"2026-07-28"},
				"capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "modern-roots", "version": "1"}}
		case m.Method == "tools/call" && m.Params.InputResponses == nil:
			result = map[string]any{"resultType": "input_required", "requestState": "s1",
				"inputRequests": map[string]any{"r": map[string]any{"method": "roots/list"}}}
		case m.Method == "tools/call":
			result = map[string]any{"resultType": "complete", "content": []any{map[string]any{"type": "text", "text": string(m.Params.InputResponses["r"])}}}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": result})
	}))
	t.Cleanup(ts.Close)
	srv := httpServer("modern roots", ts.URL+"/mcp")
	srv.Era = backend.EraModern
	srv.Roots = []backend.Root{{URI: "file:///work/project", Name: "Project"}}
	sess := e.MustConnect(t, e.MustServer(t, srv))
	if got, want := callRoots(t, e, sess.ID), `{"roots":[{"uri":"file:///work/project","name":"Project"}]}`; got != want {
		t.Errorf("the server got the input response %s, want %s", got, want)
	}
	if !sawCaps.Load() {
		t.Error("no request declared the roots capability in its _meta")
	}
}
