package mcpclient

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestHeaderValue(t *testing.T) {
	tests := []struct{ in, want string }{
		{"us-west1", "us-west1"},
		{"us west 1", "us west 1"},
		{"", ""},
		{"Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="},
		{" padded ", "=?base64?IHBhZGRlZCA=?="},
		{"line1\nline2", "=?base64?bGluZTEKbGluZTI=?="},
		{"\tindented", "=?base64?CWluZGVudGVk?="},
		{"=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="},
	}
	for _, tt := range tests {
		if got := headerValue(tt.in); got != tt.want {
			t.Errorf("headerValue(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestHeaderBindings(t *testing.T) {
	tests := []struct {
		name    string
		schema  string
		want    []paramHeader
		wantErr string
	}{
		{"none", `{"type":"object","properties":{"q":{"type":"string"}}}`, nil, ""},
		{"flat and nested", `{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},
			"opts":{"type":"object","properties":{"n":{"type":["integer","null"],"x-mcp-header":"N"}}},
			"x-mcp-header":{"type":"string","default":{"x-mcp-header":"data, not an annotation"}}}}`,
			[]paramHeader{{[]string{"opts", "n"}, "N"}, {[]string{"region"}, "Region"}}, ""},
		{"empty", `{"properties":{"v":{"type":"string","x-mcp-header":""}}}`, nil, "empty"},
		{"number", `{"properties":{"v":{"type":"number","x-mcp-header":"V"}}}`, nil, "not string, integer or boolean"},
		{"object", `{"properties":{"v":{"type":"object","x-mcp-header":"V"}}}`, nil, "not string, integer or boolean"},
		{"duplicate by case", `{"properties":{"a":{"type":"string","x-mcp-header":"MyField"},"b":{"type":"string","x-mcp-header":"myfield"}}}`, nil, "used twice"},
		{"space", `{"properties":{"v":{"type":"string","x-mcp-header":"My Region"}}}`, nil, "not allowed"},
		{"colon", `{"properties":{"v":{"type":"string","x-mcp-header":"A:B"}}}`, nil, "not allowed"},
		{"non-ASCII", `{"properties":{"v":{"type":"string","x-mcp-header":"Région"}}}`, nil, "not allowed"},
		{"under items", `{"properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}}`, nil, "reachable through properties alone"},
		{"under anyOf", `{"anyOf":[{"properties":{"v":{"type":"string","x-mcp-header":"V"}}}]}`, nil, "reachable through properties alone"},
		{"under $defs", `{"$defs":{"d":{"type":"string","x-mcp-header":"D"}}}`, nil, "reachable through properties alone"},
		{"on the root", `{"type":"string","x-mcp-header":"Root"}`, nil, "reachable through properties alone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := headerBindings(json.RawMessage(tt.schema))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			byName := func(bs []paramHeader) map[string][]string {
				m := map[string][]string{}
				for _, b := range bs {
					m[b.name] = b.path
				}
				return m
			}
			if !reflect.DeepEqual(byName(got), byName(tt.want)) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// newHeaderServer returns a Go SDK server with tool "route", whose
// arguments region, priority, verbose and nested opts.zone are mirrored
// into Mcp-Param headers; the SDK checks them against the body.
func newHeaderServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "headers", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "route", InputSchema: json.RawMessage(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"priority":{"type":"integer","x-mcp-header":"Priority"},
		"verbose":{"type":"boolean","x-mcp-header":"Verbose"},
		"opts":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
		"query":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(req.Params.Arguments)}}}, nil
		})
	return s
}

func TestModernParamHeaders(t *testing.T) {
	server := newHeaderServer()
	srv := newLoopbackServer(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: true}))
	rec := &recorder{}
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL}, Options{Tap: rec.tap, Era: EraModern})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	ctx := testContext(t)
	if _, err := c.ListTools(ctx); err != nil {
		t.Fatal(err)
	}
	args := `{"region":"Zürich","priority":42,"verbose":null,"opts":{"zone":" b "},"query":"SELECT 1"}`
	res, err := c.CallTool(ctx, "route", json.RawMessage(args))
	if err != nil || res.IsError {
		t.Fatalf("route: %+v, %v (the server checks the headers)", res, err)
	}
	h := rec.waitFind(t, Outbound, KindMessage, `"method":"tools/call"`).HTTP.Header
	want := map[string]string{
		"Mcp-Param-Region":   "=?base64?WsO8cmljaA==?=",
		"Mcp-Param-Priority": "42",
		"Mcp-Param-Zone":     "=?base64?IGIg?=",
		"Mcp-Name":           "route",
	}
	for k, v := range want {
		if got := h.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	for _, k := range []string{"Mcp-Param-Verbose", "Mcp-Param-Query"} {
		if v, ok := h[k]; ok {
			t.Errorf("%s sent (%q) for a null or unannotated argument", k, v)
		}
	}
}

func TestModernToolsListScreening(t *testing.T) {
	url := modernFake(t, func(r *http.Request, m *message) (any, *RPCError) {
		if m.Method == "tools/list" {
			return json.RawMessage(`{"resultType":"complete","tools":[
				{"name":"good","inputSchema":{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"R"}}}},
				{"name":"bad","inputSchema":{"type":"object","properties":{"s":{"type":"number","x-mcp-header":"S"}}}},
				{"name":"plain","inputSchema":{"type":"object"}}],"nextCursor":""}`), nil
		}
		return map[string]any{"resultType": "complete", "content": []any{}}, nil
	})
	rec := &recorder{}
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: url}, Options{Tap: rec.tap, Era: EraModern})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	tools, err := c.ListTools(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, ",") != "good,plain" {
		t.Errorf("tools = %v, want good,plain", names)
	}
	rec.waitFind(t, Inbound, KindTransport, `tools/list: tool "bad" left out: its inputSchema has an invalid x-mcp-header`)
	rec.waitFind(t, Inbound, KindMessage, `"name":"bad"`) // recorded as received
	if _, err := c.CallTool(testContext(t), "good", json.RawMessage(`{"r":"x"}`)); err != nil {
		t.Fatal(err)
	}
	if h := rec.waitFind(t, Outbound, KindMessage, `"name":"good"`).HTTP.Header; h.Get("Mcp-Param-R") != "x" {
		t.Errorf("headers = %v", h)
	}
}
