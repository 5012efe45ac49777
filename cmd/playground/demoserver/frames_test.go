package demoserver

import (
	"strings"
	"testing"
)

// TestCheckFrameAccepts checks that checkFrame passes every kind of
// message the SDK takes. What it refuses is tested on the real binary, in
// cmd/playground.
func TestCheckFrameAccepts(t *testing.T) {
	tests := []struct {
		name  string
		frame string
	}{
		{"request", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"request with a string id", `{"jsonrpc":"2.0","id":"a-1","method":"tools/list","params":{}}`},
		{"request with a negative id", `{"jsonrpc":"2.0","id":-9223372036854775808,"method":"ping"}`},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{"id null is a notification", `{"jsonrpc":"2.0","id":null,"method":"notifications/initialized"}`},
		{"params of any type", `{"jsonrpc":"2.0","id":2,"method":"ping","params":"x"}`},
		{"escaped version", `{"jsonrpc":"2\u002e0","id":3,"method":"ping"}`},
		{"unknown fields", `{"jsonrpc":"2.0","id":4,"method":"ping","extra":[1,{"a":null}]}`},
		{"result", `{"jsonrpc":"2.0","id":5,"result":{"roots":[]}}`},
		{"null result", `{"jsonrpc":"2.0","id":6,"result":null}`},
		{"error", `{"jsonrpc":"2.0","id":"s7","error":{"code":-32601,"message":"Method not found","data":{"x":1}}}`},
		{"1000 levels", `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"a":` + strings.Repeat("[", 998) + strings.Repeat("]", 998) + `}}`},
		{"brackets in strings do not nest", `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"a":"` + strings.Repeat(`[{\"`, 2000) + `"}}`},
		{"spaces around", " \t{ \"jsonrpc\" : \"2.0\" , \"id\" : 10 , \"method\" : \"ping\" } "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := checkFrame([]byte(tt.frame)); err != nil {
				t.Errorf("checkFrame refused %.100q: %v", tt.frame, err)
			}
		})
	}
}
