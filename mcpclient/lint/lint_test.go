package lint

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/mcpclient"
)

// out and in are frames the client sent and received, over stdio.
func out(body string) Frame {
	return Frame{Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, Body: []byte(body)}
}
func in(body string) Frame {
	return Frame{Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage, Body: []byte(body)}
}

// handshake is a clean legacy start at version 2025-11-25, with the
// client's sampling capability and the server's tools and logging.
var handshake = []Frame{
	out(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}},"clientInfo":{"name":"t","version":"1"}}}`),
	in(`{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"logging":{}},"serverInfo":{"name":"s","version":"1"}}}`),
	out(`{"jsonrpc":"2.0","method":"notifications/initialized"}`),
}

// overHTTP is f as it travelled over Streamable HTTP with the headers
// given as name, value pairs.
func overHTTP(f Frame, header ...string) Frame {
	f.HTTP, f.Header = true, http.Header{}
	if f.Direction == mcpclient.Inbound {
		f.HTTPStatus, f.ContentType = 200, "application/json"
	}
	for i := 0; i+1 < len(header); i += 2 {
		f.Header.Set(header[i], header[i+1])
	}
	return f
}

// httpHandshake is handshake over HTTP: the server gives session s1 and
// the client keeps it and the version.
var httpHandshake = []Frame{
	overHTTP(handshake[0]),
	overHTTP(handshake[1], "Mcp-Session-Id", "s1"),
	overHTTP(handshake[2], "Mcp-Session-Id", "s1", "MCP-Protocol-Version", "2025-11-25"),
}

// modernMeta is the _meta every modern request carries.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// modernPost is a modern request over HTTP with the headers it should
// have, followed by any others.
func modernPost(body, method, name string, header ...string) Frame {
	h := []string{"MCP-Protocol-Version", "2026-07-28", "Mcp-Method", method}
	if name != "" {
		h = append(h, "Mcp-Name", name)
	}
	return overHTTP(out(body), append(h, header...)...)
}

// after returns the handshake followed by frames.
func after(frames ...Frame) []Frame { return append(append([]Frame{}, handshake...), frames...) }

// modernCall is a clean modern tools/call with id id.
func modernCall(id int) Frame {
	return out(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, id))
}

// ruleCases each break one rule on their last frame.
var ruleCases = []struct {
	name    string
	frames  []Frame
	opts    Options
	code    string
	pointer string
}{
	{"stdout noise", []Frame{{Direction: mcpclient.Inbound, Kind: mcpclient.KindParseError, Body: []byte("Server started on stdio")}}, Options{}, "transport.stdio-line", ""},
	{"message split across lines", []Frame{
		{Direction: mcpclient.Inbound, Kind: mcpclient.KindParseError, Body: []byte(`{"jsonrpc": "2.0",`)},
		{Direction: mcpclient.Inbound, Kind: mcpclient.KindParseError, Body: []byte(` "method": "notifications/message"`)},
		{Direction: mcpclient.Inbound, Kind: mcpclient.KindParseError, Body: []byte(`}`)},
	}, Options{}, "transport.stdio-split", ""},
	{"http body not JSON", []Frame{{Direction: mcpclient.Inbound, Kind: mcpclient.KindParseError, Body: []byte(`{"jsonrpc":`), HTTP: true, HTTPStatus: 200}}, Options{}, "jsonrpc.parse", ""},
	{"not an object", []Frame{out(`"hello"`)}, Options{}, "jsonrpc.not-object", ""},
	{"jsonrpc 1.0", []Frame{out(`{"jsonrpc":"1.0","id":1,"method":"ping"}`)}, Options{}, "jsonrpc.version", "/jsonrpc"},
	{"jsonrpc missing", []Frame{out(`{"id":1,"method":"ping"}`)}, Options{}, "jsonrpc.version", ""},
	{"neither request nor response", []Frame{out(`{"jsonrpc":"2.0","params":{}}`)}, Options{}, "jsonrpc.shape", ""},
	{"id null", []Frame{out(`{"jsonrpc":"2.0","id":null,"method":"ping"}`)}, Options{}, "jsonrpc.id-type", "/id"},
	{"id fraction", []Frame{out(`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`)}, Options{}, "jsonrpc.id-type", "/id"},
	{"method number", []Frame{out(`{"jsonrpc":"2.0","id":1,"method":7}`)}, Options{}, "jsonrpc.method-type", "/method"},
	{"params string", []Frame{out(`{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}`)}, Options{}, "jsonrpc.params-type", "/params"},
	{"result and error", after(out(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), in(`{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":-32603,"message":"x"}}`)), Options{}, "jsonrpc.response-shape", ""},
	{"error code string", after(out(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), in(`{"jsonrpc":"2.0","id":1,"error":{"code":"bad","message":"x"}}`)), Options{}, "jsonrpc.error-object", "/error/code"},
	{"error message missing", after(out(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), in(`{"jsonrpc":"2.0","id":1,"error":{"code":-32603}}`)), Options{}, "jsonrpc.error-object", "/error"},
	{"reserved code", after(out(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), in(`{"jsonrpc":"2.0","id":1,"error":{"code":-32500,"message":"x"}}`)), Options{}, "jsonrpc.reserved-code", "/error/code"},
	{"result with null id", after(in(`{"jsonrpc":"2.0","id":null,"result":{}}`)), Options{}, "jsonrpc.null-id", "/id"},
	{"answer never asked", after(in(`{"jsonrpc":"2.0","id":42,"result":{}}`)), Options{}, "jsonrpc.unknown-response", "/id"},
	{"answered twice", after(out(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), in(`{"jsonrpc":"2.0","id":1,"result":{}}`), in(`{"jsonrpc":"2.0","id":1,"result":{}}`)), Options{}, "jsonrpc.duplicate-response", "/id"},
	{"id in flight twice", after(out(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), out(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)), Options{}, "jsonrpc.duplicate-id", "/id"},
	{"batch in 2025-11-25", after(out(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)), Options{}, "jsonrpc.batch", ""},
	{"empty batch", []Frame{out(`[]`)}, Options{}, "jsonrpc.empty-batch", ""},
	{"notification with id", after(out(`{"jsonrpc":"2.0","id":5,"method":"notifications/roots/list_changed"}`)), Options{}, "mcp.notification-id", "/id"},
	{"unknown method", after(out(`{"jsonrpc":"2.0","id":1,"method":"tools/run"}`)), Options{}, "mcp.unknown-method", "/method"},
	{"wrong direction", after(in(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)), Options{}, "mcp.method-direction", "/method"},
	{"params against schema", after(out(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":3}}`)), Options{}, "mcp.schema", "/params/name"},
	{"result against schema", after(out(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), in(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"x"}]}}`)), Options{}, "mcp.schema", "/result/tools/0"},
	{"content of unknown type", after(out(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`), in(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a"},{"type":"video","url":"x"}]}}`)), Options{}, "mcp.content-type", "/result/content/1/type"},
	{"structured content against outputSchema", after(
		out(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
		in(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"w","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"temp":{"type":"number"}},"required":["temp"]}}]}}`),
		out(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w"}}`),
		in(`{"jsonrpc":"2.0","id":2,"result":{"content":[],"structuredContent":{"temp":20}}}`),
		out(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"w"}}`),
		in(`{"jsonrpc":"2.0","id":3,"result":{"content":[],"isError":true}}`),
		out(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"w"}}`),
		in(`{"jsonrpc":"2.0","id":4,"result":{"content":[],"structuredContent":{"temp":"warm"}}}`)), Options{}, "mcp.structured-content", "/result/structuredContent/temp"},
	{"structured content missing", after(
		out(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`),
		in(`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"w","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}]}}`),
		out(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"w"}}`),
		in(`{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`)), Options{}, "mcp.structured-content", "/result"},
	{"version without schema", []Frame{out(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)}, Options{}, "mcp.unknown-version", ""},
	{"request before initialize", []Frame{out(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)}, Options{}, "mcp.lifecycle.initialize-first", "/method"},
	{"initialize twice", after(out(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)), Options{}, "mcp.lifecycle.initialize-twice", "/method"},
	{"request before initialized", handshake[:2:2], Options{}, "", ""}, // the base of the next case: clean
	{"request before initialized", append(handshake[:2:2], out(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)), Options{}, "mcp.lifecycle.initialized-first", "/method"},
	{"server request before initialized", append(handshake[:2:2], in(`{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}`)), Options{}, "mcp.lifecycle.server-early", "/method"},
	{"capability not advertised", after(in(`{"jsonrpc":"2.0","id":9,"method":"roots/list"}`)), Options{}, "mcp.capability", "/method"},
	{"server capability not advertised", after(out(`{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`)), Options{}, "mcp.capability", "/method"},
	{"modern request without _meta", []Frame{modernCall(1), out(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`)}, Options{Version: "2026-07-28"}, "mcp.meta-missing", "/params/_meta"},
	{"progress for no request", after(in(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}}`)), Options{}, "mcp.progress-token", "/params/progressToken"},
	{"answer after cancel", after(out(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), out(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`), in(`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`)), Options{}, "mcp.response-after-cancel", "/id"},
	{"http content type", after(out(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), Frame{Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage, Body: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), HTTP: true, HTTPStatus: 200, ContentType: "text/html"}), Options{}, "transport.content-type", ""},
	{"http handshake", httpHandshake, Options{}, "", ""},
	{"sse event of another type", after(out(`{"jsonrpc":"2.0","id":1,"method":"ping"}`),
		Frame{Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage, Body: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), HTTP: true, HTTPStatus: 200, ContentType: "text/event-stream", EventType: "reply"}), Options{}, "transport.sse-event-type", ""},
	{"session id dropped", append(httpHandshake[:3:3], overHTTP(out(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), "MCP-Protocol-Version", "2025-11-25")), Options{}, "transport.session-id", ""},
	{"session id changed", append(httpHandshake[:3:3], overHTTP(out(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), "Mcp-Session-Id", "s2", "MCP-Protocol-Version", "2025-11-25")), Options{}, "transport.session-id", ""},
	{"version header missing", append(httpHandshake[:3:3], overHTTP(out(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), "Mcp-Session-Id", "s1")), Options{}, "transport.protocol-version-header", ""},
	{"version header wrong", append(httpHandshake[:3:3], overHTTP(out(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), "Mcp-Session-Id", "s1", "MCP-Protocol-Version", "2025-03-26")), Options{}, "transport.protocol-version-header", ""},
	{"modern post", []Frame{modernPost(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo",`+modernMeta+`}}`, "tools/call", "echo")}, Options{}, "", ""},
	{"modern session id", []Frame{modernPost(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo",`+modernMeta+`}}`, "tools/call", "echo", "Mcp-Session-Id", "s1")}, Options{}, "transport.session-id", ""},
	{"modern version header against _meta", []Frame{overHTTP(out(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+modernMeta+`}}`), "MCP-Protocol-Version", "2025-11-25", "Mcp-Method", "tools/list")}, Options{}, "transport.protocol-version-header", ""},
	{"modern method header", []Frame{modernPost(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+modernMeta+`}}`, "tools/call", "")}, Options{}, "transport.method-header", "/method"},
	{"modern name header", []Frame{modernPost(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"test://a",`+modernMeta+`}}`, "resources/read", "test://b")}, Options{}, "transport.method-header", "/params/uri"},
	{"modern result without resultType", []Frame{modernCall(1), in(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)}, Options{}, "mcp.result-type", "/result"},
	{"input_required without anything", []Frame{modernCall(1), in(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}`)}, Options{}, "mcp.input-round", "/result"},
	{"input round", []Frame{modernCall(1),
		in(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"st-1","inputRequests":{"ask":{"method":"elicitation/create","params":{"mode":"form","message":"name?","requestedSchema":{"type":"object","properties":{}}}}}}}`),
		out(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","requestState":"st-1","inputResponses":{"ask":{"action":"decline"}},` + modernMeta + `}}`)}, Options{}, "", ""},
	{"input round without its state", []Frame{modernCall(1),
		in(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","requestState":"st-1"}}`),
		out(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","requestState":"st-2",` + modernMeta + `}}`)}, Options{}, "mcp.input-round", "/params/requestState"},
	{"input round unanswered", []Frame{modernCall(1),
		in(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"ask":{"method":"elicitation/create","params":{"mode":"form","message":"name?","requestedSchema":{"type":"object","properties":{}}}}}}}`),
		out(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo",` + modernMeta + `}}`)}, Options{}, "mcp.input-round", "/params/inputResponses"},
	{"deprecated sampling", []Frame{modernCall(1),
		in(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"s":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}}}}`)}, Options{}, "mcp.deprecated", "/result/inputRequests/s/method"},
	{"deprecated logging level", []Frame{out(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info"}}}`)}, Options{}, "mcp.deprecated", "/params/_meta/io.modelcontextprotocol~1logLevel"},
	{"result with http error status", after(out(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), Frame{Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage, Body: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), HTTP: true, HTTPStatus: 500, ContentType: "application/json"}), Options{}, "transport.http-status", "/result"},
}

// earlierFindings names, by case, the one code the frames before the
// last may have.
var earlierFindings = map[string]string{"message split across lines": "transport.stdio-line"}

// TestRules feeds each case's frames and checks that the earlier ones
// are clean and the last one breaks exactly the case's rule, at its
// pointer.
func TestRules(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.name, func(t *testing.T) {
			l := New(tc.opts)
			for i, f := range tc.frames {
				got := l.Lint(f)
				if i < len(tc.frames)-1 || tc.code == "" {
					if earlier := earlierFindings[tc.name]; len(got) > 0 && (earlier == "" || len(got) != 1 || got[0].Code != earlier) {
						t.Fatalf("frame %d %s: findings %+v, want none", i, f.Body, got)
					}
					continue
				}
				if len(got) != 1 || got[0].Code != tc.code || got[0].Pointer != tc.pointer {
					t.Fatalf("findings %+v, want one %s at %q", got, tc.code, tc.pointer)
				}
				if got[0].Message == "" || got[0].Spec == "" || got[0].Fix == "" || got[0].Severity == "" {
					t.Errorf("finding %+v lacks a message, spec, fix or severity", got[0])
				}
			}
		})
	}
}

// TestEveryRuleHasACase keeps Rules and ruleCases together.
func TestEveryRuleHasACase(t *testing.T) {
	tested := map[string]bool{}
	for _, tc := range ruleCases {
		tested[tc.code] = true
	}
	for _, r := range Rules() {
		if !tested[r.Code] {
			t.Errorf("rule %s has no case in ruleCases", r.Code)
		}
		if !strings.Contains(r.Code, ".") || r.Fix == "" || r.Spec == "" {
			t.Errorf("rule %+v is incomplete", r)
		}
	}
}

// TestExcerptSkipsWholeSessionRules: a history export starts anywhere.
func TestExcerptSkipsWholeSessionRules(t *testing.T) {
	l := New(Options{Excerpt: true})
	for _, f := range []Frame{
		in(`{"jsonrpc":"2.0","id":7,"result":{}}`),
		out(`{"jsonrpc":"2.0","id":8,"method":"tools/list"}`),
		in(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}`),
	} {
		if got := l.Lint(f); len(got) > 0 {
			t.Errorf("%s: %+v", f.Body, got)
		}
	}
}

// TestBatchElements: in a version with batches, each element is judged
// at its index.
func TestBatchElements(t *testing.T) {
	l := New(Options{Version: "2025-03-26"})
	got := l.Lint(out(`[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":null,"method":"ping"}]`))
	if len(got) != 1 || got[0].Code != "jsonrpc.id-type" || got[0].Pointer != "/1/id" {
		t.Fatalf("findings %+v, want jsonrpc.id-type at /1/id", got)
	}
}

// TestModernVersionFromMeta: with no version given, a modern request's
// _meta names it, and its requests need no handshake.
func TestModernVersionFromMeta(t *testing.T) {
	l := New(Options{})
	if got := l.Lint(modernCall(1)); len(got) > 0 {
		t.Fatalf("findings %+v", got)
	}
	if l.Version() != "2026-07-28" {
		t.Fatalf("Version() = %q", l.Version())
	}
	got := l.Lint(in(`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`))
	if len(got) != 1 || got[0].Code != "mcp.result-type" || got[0].Pointer != "/result" {
		t.Fatalf("a result without resultType: findings %+v, want mcp.result-type at /result", got)
	}
}

// TestREADMEListsEveryRule keeps the README's table of rules whole.
func TestREADMEListsEveryRule(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules() {
		if row := fmt.Sprintf("| `%s` | %s |", r.Code, r.Severity); !strings.Contains(string(readme), row) {
			t.Errorf("README.md has no row %s…", row)
		}
	}
}

// TestUnknownVersionsAreNotRemembered: a version without a schema is
// noted, and nothing of it stays in the spec cache.
func TestUnknownVersionsAreNotRemembered(t *testing.T) {
	for i := range 100 {
		if specOf(fmt.Sprintf("1999-01-%02d", i)) != nil {
			t.Fatal("a spec for a version without a schema")
		}
	}
	specsMu.Lock()
	defer specsMu.Unlock()
	for v := range specs {
		if !embeddedVersion(v) {
			t.Errorf("the cache keeps version %q", v)
		}
	}
}

// TestInFlightIsBounded: past maxInFlight requests never answered, a
// Linter follows no new ones, and an answer it cannot place is no finding.
func TestInFlightIsBounded(t *testing.T) {
	l := New(Options{})
	for _, f := range handshake {
		l.Lint(f)
	}
	for i := range maxInFlight + 10 {
		l.Lint(out(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i)))
	}
	if n := len(l.flight[client].open); n != maxInFlight {
		t.Errorf("%d requests followed, want %d", n, maxInFlight)
	}
	if got := l.Lint(in(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{}}`, 100+maxInFlight+5))); len(got) > 0 {
		t.Errorf("an answer to a request past the bound: %+v", got)
	}
	if got := l.Lint(in(`{"jsonrpc":"2.0","id":100,"result":{}}`)); len(got) > 0 {
		t.Errorf("an answer to a followed request: %+v", got)
	}
}

// TestMethod names the method of the frame judged last, a response's by
// its request.
func TestMethod(t *testing.T) {
	l := New(Options{})
	for _, tc := range []struct {
		f    Frame
		want string
	}{
		{handshake[0], "initialize"},
		{handshake[1], "initialize"},
		{out(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`), "tools/list"},
		{in(`{"jsonrpc":"2.0","id":9,"result":{"tools":[]}}`), "tools/list"},
		{in(`{"jsonrpc":"2.0","id":77,"result":{}}`), ""},
		{out(`[{"jsonrpc":"2.0","method":"notifications/initialized"}]`), ""},
	} {
		l.Lint(tc.f)
		if got := l.Method(); got != tc.want {
			t.Errorf("%s: Method() = %q, want %q", tc.f.Body, got, tc.want)
		}
	}
}

// TestFindingsOfAFrameAreBounded: a batch of many broken messages gets
// MaxFindings findings, the first ones.
func TestFindingsOfAFrameAreBounded(t *testing.T) {
	l := New(Options{Version: "2025-03-26"})
	got := l.Lint(out("[" + strings.Repeat(`{"jsonrpc":"1.0","method":"notifications/initialized"},`, 300) + `{"jsonrpc":"1.0","method":"notifications/initialized"}]`))
	if len(got) != MaxFindings || got[0].Pointer != "/0/jsonrpc" {
		t.Errorf("%d findings, the first at %q; want %d from /0/jsonrpc", len(got), got[0].Pointer, MaxFindings)
	}
}
