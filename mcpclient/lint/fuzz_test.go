package lint

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/mcpclient"
)

// FuzzLint feeds a Linter a session made of the input's lines, sent and
// received in turn (over HTTP, with headers and an SSE event type, when
// the input's first byte is odd): it never panics, and every finding
// names a rule and points into the body.
func FuzzLint(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n" +
			`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`,
		"\x01" + `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x",` + modernMeta + `}}` + "\n" + `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"s","inputRequests":{"a":{"method":"sampling/createMessage"}}}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{}]` + "\n" + `{"jsonrpc":"2.0","id":1,"error":{"code":-32601.5,"message":7}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"w","inputSchema":{"type":"object"},"outputSchema":{"$ref":"http://x/y"}}]}}`,
		"{\n\"a\":\n1}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		overHTTP := len(in) > 0 && in[0]&1 == 1
		l := New(Options{})
		for i, line := range bytes.Split(in, []byte("\n")) {
			dir := mcpclient.Outbound
			if i%2 == 1 {
				dir = mcpclient.Inbound
			}
			fr := Frame{Direction: dir, Kind: mcpclient.KindMessage, Body: line}
			if len(line) == 0 || line[0] != '{' && line[0] != '[' && line[0] != '"' {
				fr.Kind = mcpclient.KindParseError
			}
			if overHTTP {
				fr.HTTP, fr.HTTPStatus, fr.Header = true, 200, http.Header{"Mcp-Session-Id": {"s"}, "Mcp-Method": {"ping"}}
				if dir == mcpclient.Inbound {
					fr.ContentType, fr.EventType = "text/event-stream", string(line[:min(len(line), 3)])
				}
			}
			for _, got := range l.Lint(fr) {
				if _, ok := RuleOf(got.Code); !ok && got.Code != ruleSchema.Code {
					t.Fatalf("finding of no rule: %+v", got)
				}
				if got.Pointer != "" && !strings.HasPrefix(got.Pointer, "/") {
					t.Fatalf("finding pointing nowhere: %+v", got)
				}
			}
		}
	})
}
