package store

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

// TestLastCalls stores last calls in a real SQLite file: one per item and
// kind, replaced by the next call, kept across a reopen, linked to the
// response frame, and dropped with their server.
func TestLastCalls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "playground.db")
	d := MustOpenPath(t, path)
	ctx := testContext(t)
	srv := MustCreateServer(t, d, stdioServer("a"))
	other := MustCreateServer(t, d, stdioServer("b"))
	sid := MustCreateSession(t, d, srv, "a")
	t0 := time.Unix(0, time.Now().UnixNano())
	frames := []backend.Frame{
		{ID: 1, SessionID: sid, Time: t0, Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, RPCType: backend.RPCRequest,
			RPCID: "7", Method: "tools/call", Body: []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call"}`)},
		{ID: 2, SessionID: sid, Time: t0.Add(time.Millisecond), Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage,
			RPCType: backend.RPCResult, RPCID: "7", Method: "tools/call", Body: []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`)},
	}
	exchanges := []backend.Exchange{{RequestFrameID: 1, ResponseFrameID: 2, SessionID: sid, Method: "tools/call", LatencyNS: int64(time.Millisecond)}}
	if err := d.InsertFrames(ctx, frames, exchanges); err != nil {
		t.Fatal(err)
	}

	first := backend.LastCall{ServerID: srv, Kind: backend.ItemTool, Name: "echo", Arguments: json.RawMessage(`{"text":"one"}`),
		SessionID: sid, ResponseFrameID: 2, Outcome: backend.CallAnswered, Time: t0}
	for _, c := range []backend.LastCall{
		first,
		{ServerID: srv, Kind: backend.ItemTool, Name: "slow", Arguments: json.RawMessage(`{}`), SessionID: sid,
			Outcome: backend.CallFailed, Summary: "tools/call timed out", Time: t0},
		{ServerID: srv, Kind: backend.ItemPrompt, Name: "echo", Arguments: json.RawMessage(`{"p":1}`), SessionID: sid, Outcome: backend.CallAnswered, Time: t0},
		{ServerID: other, Kind: backend.ItemTool, Name: "echo", Arguments: json.RawMessage(`{"text":"b"}`), Outcome: backend.CallAnswered, Time: t0},
	} {
		if err := d.PutLastCall(ctx, c); err != nil {
			t.Fatalf("PutLastCall(%s %s): %v", c.Kind, c.Name, err)
		}
	}
	got, err := lastCalls(ctx, d, srv, backend.ItemTool)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["echo"].ResponseFrameID != 2 || string(got["echo"].Arguments) != `{"text":"one"}` ||
		!got["echo"].Time.Equal(t0) || got["slow"].Summary != "tools/call timed out" || got["slow"].ResponseFrameID != 0 {
		t.Fatalf("LastCalls(tool) = %+v", got)
	}

	second := first
	second.Arguments, second.Time = json.RawMessage(`{"text":"two"}`), t0.Add(time.Second)
	if err := d.PutLastCall(ctx, second); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d = MustOpenPath(t, path)
	got, err = lastCalls(ctx, d, srv, backend.ItemTool)
	if err != nil {
		t.Fatal(err)
	}
	if e := got["echo"]; string(e.Arguments) != `{"text":"two"}` || !e.Time.Equal(t0.Add(time.Second)) || e.SessionID != sid {
		t.Errorf("after a second call and a reopen, echo = %+v", e)
	}

	if err := d.DeleteServer(ctx, srv); err != nil {
		t.Fatal(err)
	}
	if got, err := lastCalls(ctx, d, srv, backend.ItemTool); err != nil || len(got) != 0 {
		t.Errorf("after deleting the server: %v, %v; want none", got, err)
	}
	if got, err := lastCalls(ctx, d, other, backend.ItemTool); err != nil || string(got["echo"].Arguments) != `{"text":"b"}` {
		t.Errorf("the other server's last calls: %v, %v", got, err)
	}
}

// lastCalls gathers the server's last calls on the tools echo and slow,
// by name.
func lastCalls(ctx context.Context, d *DB, serverID int64, kind backend.ItemKind) (map[string]backend.LastCall, error) {
	out := map[string]backend.LastCall{}
	for _, name := range []string{"echo", "slow"} {
		c, ok, err := d.LastCall(ctx, serverID, kind, name)
		if err != nil {
			return nil, err
		}
		if ok {
			out[name] = c
		}
	}
	return out, nil
}
