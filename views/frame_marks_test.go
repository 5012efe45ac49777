package views

import (
	"testing"

	"github.com/mcp-playground/playground/backend"
)

func TestMarkOf(t *testing.T) {
	msg := func(rpc backend.RPCType, method, body string) backend.Frame {
		return backend.Frame{Kind: backend.KindMessage, RPCType: rpc, Method: method, Body: []byte(body)}
	}
	toolError := func(f backend.Frame) backend.Frame { f.ToolError = true; return f } // as the recorder stores it
	tests := []struct {
		name  string
		f     backend.Frame
		class string
		label string
	}{
		{"JSON-RPC error with its code", msg(backend.RPCError, "tools/call", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`), "marked-error", "error -32602"},
		{"JSON-RPC error, preview only", backend.Frame{Kind: backend.KindMessage, RPCType: backend.RPCError, Body: []byte(`{"jsonrpc":"2.0","id":1,"error":{"co`), BodySize: 9000}, "marked-error", "error"},
		{"tool error", toolError(msg(backend.RPCResult, "tools/call", `{"jsonrpc":"2.0","id":1,"result":{"content":[],"isError":true}}`)), "marked-tool-error", "isError"},
		{"tool success", msg(backend.RPCResult, "tools/call", `{"result":{"isError":false}}`), "", ""},
		{"log level", msg(backend.RPCNotification, "notifications/message", `{"method":"notifications/message","params":{"level":"warning","data":"x"}}`), "level-warning", "warning"},
		{"log level with markup", msg(backend.RPCNotification, "notifications/message", `{"params":{"level":"<b>Err\"x"}}`), "", ""},
		{"malformed", backend.Frame{Kind: backend.KindParseError, Body: []byte("not json")}, "marked-error", "malformed"},
		{"plain request", msg(backend.RPCRequest, "ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if m := markOf(tt.f); m.class != tt.class || m.label != tt.label {
				t.Errorf("markOf = %q %q, want %q %q", m.class, m.label, tt.class, tt.label)
			}
		})
	}
}

func TestExcerptOf(t *testing.T) {
	long := make([]byte, 400)
	for i := range long {
		long[i] = 'x'
	}
	msg := func(id, method, body string) backend.Frame {
		return backend.Frame{Kind: backend.KindMessage, RPCID: id, Method: method, Body: []byte(body)}
	}
	tests := []struct {
		name string
		f    backend.Frame
		want string
	}{
		{"what the row says is left out", msg("7", "tools/call", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo"}}`), `{"params":{"name":"echo"}}`},
		{"a response", msg(`"a"`, "tools/call", `{"jsonrpc":"2.0","id":"a","result":{}}`), `{"result":{}}`},
		{"one line", backend.Frame{Body: []byte("{\n  \"a\": 1\n}")}, `{ "a": 1 }`},
		{"markup escapes undone in JSON", backend.Frame{Body: []byte(`{"text":"\u003cb\u003e"}`)}, `{"text":"<b>"}`},
		{"stderr text as it is", backend.Frame{Kind: backend.KindLog, Body: []byte(`see \u003c`)}, `see \u003c`},
		{"cut", backend.Frame{Body: long}, string(long[:excerptLen]) + "…"},
		{"a preview is cut", backend.Frame{Body: []byte(`{"a":1}`), BodySize: 9000}, `{"a":1}…`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := excerptOf(tt.f); got != tt.want {
				t.Errorf("excerptOf(%q) = %q, want %q", tt.f.Body, got, tt.want)
			}
		})
	}
}
