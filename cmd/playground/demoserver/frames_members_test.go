package demoserver

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzReadMembers checks that readMembers reads a frame's members as
// decoding it into a map does, and refuses what that refuses.
func FuzzReadMembers(f *testing.F) {
	for _, frame := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"h\"i}"}}}`,
		` { "jsonrpc" : "2.0" , "id" : "a\\\"b" , "result" : [1, {"x": null}] } `,
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32601,"message":"m"},"id":6}`,
		`{"jsonr\u0070c":"2.0","id":2,"method":"ping"}`,
		`{"id":-1.5e3,"method":true,"result":false,"error":null}`,
		`{}`, `[]`, `null`, `42`, `"x"`, `{"a":}`, `{"a":1}x`, `{"a":1}{"b":2}`, "",
	} {
		f.Add([]byte(frame))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		got, err := readMembers(frame)
		var fields map[string]json.RawMessage
		if json.Unmarshal(frame, &fields) != nil || fields == nil {
			if err == nil {
				t.Fatalf("readMembers(%q) = %+v, want an error: it is not a JSON object", frame, got)
			}
			return
		}
		if err != nil {
			t.Fatalf("readMembers(%q): %v", frame, err)
		}
		for _, m := range []struct {
			name string
			got  json.RawMessage
		}{{"jsonrpc", got.jsonrpc}, {"id", got.id}, {"method", got.method}, {"result", got.result}, {"error", got.err}} {
			want, ok := fields[m.name]
			if ok != (m.got != nil) || !bytes.Equal(m.got, want) {
				t.Errorf("readMembers(%q).%s = %q, want %q (present: %v)", frame, m.name, m.got, want, ok)
			}
		}
	})
}

// BenchmarkCheckFrame times checkFrame on an echo call's frame.
func BenchmarkCheckFrame(b *testing.B) {
	frame := []byte(`{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"},"_meta":{"progressToken":"abc"}}}`)
	for b.Loop() {
		if err := checkFrame(frame); err != nil {
			b.Fatal(err)
		}
	}
}
