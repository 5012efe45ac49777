package views

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// TestTrafficShowsIDClashes renders a traffic page with two requests that
// share an id and their two responses: the duplicate request and the
// ambiguous response carry a badge and a note saying what the recorder
// noted, the others none.
func TestTrafficShowsIDClashes(t *testing.T) {
	now := time.Now()
	frame := func(id int64, dir backend.Direction, rpc backend.RPCType, method string, pair int64, body string) backend.Frame {
		return backend.Frame{ID: id, SessionID: 1, Time: now, Direction: dir, Kind: backend.KindMessage, RPCType: rpc, RPCID: "5",
			Method: method, PairID: pair, Body: []byte(body)}
	}
	first := frame(10, backend.Outbound, backend.RPCRequest, "tools/call", 12, `{"jsonrpc":"2.0","id":5,"method":"tools/call"}`)
	second := frame(11, backend.Outbound, backend.RPCRequest, "tools/list", 13, `{"jsonrpc":"2.0","id":5,"method":"tools/list"}`)
	second.Clash, second.ClashFrameID = backend.ClashDuplicate, 10
	answer1 := frame(12, backend.Inbound, backend.RPCResult, "tools/call", 10, `{"jsonrpc":"2.0","id":5,"result":{}}`)
	answer1.Clash, answer1.ClashFrameID = backend.ClashAmbiguous, 11
	answer2 := frame(13, backend.Inbound, backend.RPCResult, "tools/list", 11, `{"jsonrpc":"2.0","id":5,"result":{}}`)

	var b strings.Builder
	if err := FrameList(FramePage{SessionID: 1, Frames: []backend.Frame{first, second, answer1, answer2}}, false).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if n := strings.Count(html, `data-testid="frame-clash"`); n != 2 {
		t.Errorf("%d clash badges, want 2 (the duplicate request and the ambiguous response)", n)
	}
	for _, want := range []string{
		`data-clash="duplicate-id"`, `data-clash="ambiguous-response"`, ">duplicate id<", ">ambiguous response<",
		"duplicate id: request 10 still pending",
		"ambiguous: the id names several pending requests; paired with the oldest, 10; request 11 still pending",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if n := strings.Count(html, `data-testid="frame-clash-note"`); n != 2 {
		t.Errorf("%d clash notes, want 2", n)
	}

	b.Reset()
	if err := FrameList(FramePage{SessionID: 1, Frames: []backend.Frame{first, answer2}}, false).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "frame-clash") {
		t.Error("frames without a clash show one")
	}
}
