package backend_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/sdktest"
)

// TestCallResponseFrameAndLastCall asks a call for its stored response
// frame, then remembers it as the tool's last call: the frame is the
// response to that very call, and the last call names it with the
// arguments sent; a JSON-RPC error and a failure are remembered too.
func TestCallResponseFrameAndLastCall(t *testing.T) {
	e := MustEnv(t)
	serverID := e.MustServer(t, sdktest.StdioServer("sdk"))
	sess := e.MustConnect(t, serverID)
	ctx := backendtest.Context(t)
	last := backend.NewLastCalls(e.DB, e.DB)

	args := json.RawMessage(`{"text":"find me"}`)
	res, err := e.Pool.CallWith(ctx, sess.ID, "tools/call", json.RawMessage(`{"name":"echo","arguments":{"text":"find me"}}`),
		backend.CallOptions{ResponseFrame: true})
	if err != nil || res.ResponseFrameID == 0 {
		t.Fatalf("CallWith = %+v, %v; want a response frame id", res, err)
	}
	f, err := e.DB.GetFrame(ctx, res.ResponseFrameID)
	if err != nil || f.RPCType != backend.RPCResult || f.Method != "tools/call" || !strings.Contains(string(f.Body), "find me") {
		t.Fatalf("the response frame = %+v (%s), %v", f, f.Body, err)
	}
	if res.RequestFrameID == 0 || f.PairID != res.RequestFrameID {
		t.Errorf("RequestFrameID = %d, want the stored request %d", res.RequestFrameID, f.PairID)
	}
	if err := last.Remember(ctx, sess.ID, backend.ItemTool, "echo", args, res, nil); err != nil {
		t.Fatal(err)
	}

	rpcRes, err := e.Pool.CallWith(ctx, sess.ID, "tools/call", json.RawMessage(`{"name":"no_such_tool","arguments":{}}`), backend.CallOptions{ResponseFrame: true})
	if err != nil || rpcRes.Error == nil {
		t.Fatalf("calling an unknown tool = %+v, %v; want a JSON-RPC error", rpcRes, err)
	}
	if err := last.Remember(ctx, sess.ID, backend.ItemTool, "no_such_tool", nil, rpcRes, nil); err != nil {
		t.Fatal(err)
	}
	if err := last.Remember(ctx, sess.ID, backend.ItemTool, "slow", json.RawMessage(`{}`), backend.CallResult{},
		backend.Errorf(backend.EUnavailable, "tools/call timed out")); err != nil {
		t.Fatal(err)
	}

	got := map[string]backend.LastCall{}
	for _, name := range []string{"echo", "no_such_tool", "slow"} {
		c, ok, err := last.Get(ctx, serverID, backend.ItemTool, name)
		if err != nil || !ok {
			t.Fatalf("Get(%s) = %t, %v", name, ok, err)
		}
		got[name] = c
	}
	if c := got["echo"]; c.ResponseFrameID != res.ResponseFrameID || string(c.Arguments) != string(args) || c.SessionID != sess.ID || c.Outcome != backend.CallAnswered {
		t.Errorf("echo's last call = %+v", c)
	}
	if c := got["no_such_tool"]; c.Outcome != backend.CallRPCError || c.ResponseFrameID == 0 || string(c.Arguments) != "{}" {
		t.Errorf("no_such_tool's last call = %+v", c)
	}
	if c := got["slow"]; c.Outcome != backend.CallFailed || c.Summary != "tools/call timed out" || c.ResponseFrameID != 0 {
		t.Errorf("slow's last call = %+v", c)
	}
}
