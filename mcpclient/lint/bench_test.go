package lint

import "testing"

// BenchmarkLint measures the cost of judging a frame: a tools/call and
// its result, schema checks included, per iteration two frames.
func BenchmarkLint(b *testing.B) {
	call := out(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`)
	result := in(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hello"}],"structuredContent":{"echo":"hello"}}}`)
	l := New(Options{})
	for _, f := range handshake {
		l.Lint(f)
	}
	b.ReportAllocs()
	for b.Loop() {
		if got := append(l.Lint(call), l.Lint(result)...); len(got) > 0 {
			b.Fatalf("findings %+v", got)
		}
	}
}
