package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkConnectors start the Go SDK test server over each transport and
// connect to it.
var sdkConnectors = []struct {
	name    string
	connect func(t *testing.T, opts Options) *Client
}{
	{"stdio", func(t *testing.T, opts Options) *Client {
		c, err := ConnectStdio(testContext(t), selfCommand("sdk"), opts)
		if err != nil {
			t.Fatalf("ConnectStdio: %v", err)
		}
		mustClose(t, c)
		return c
	}},
	{"http-sse", func(t *testing.T, opts Options) *Client {
		return connectSDKHTTP(t, opts, &mcp.StreamableHTTPOptions{})
	}},
	{"http-json", func(t *testing.T, opts Options) *Client {
		return connectSDKHTTP(t, opts, &mcp.StreamableHTTPOptions{JSONResponse: true})
	}},
}

// newLoopbackServer starts an httptest server (on 127.0.0.1) for the test.
func newLoopbackServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func connectSDKHTTP(t *testing.T, opts Options, hopts *mcp.StreamableHTTPOptions) *Client {
	t.Helper()
	server := newSDKServer()
	srv := newLoopbackServer(t, mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, hopts))
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL + "/mcp"}, opts)
	if err != nil {
		t.Fatalf("ConnectHTTP: %v", err)
	}
	mustClose(t, c)
	return c
}

func TestSDKServer(t *testing.T) {
	for _, conn := range sdkConnectors {
		t.Run(conn.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			c := conn.connect(t, Options{Tap: rec.tap})
			ctx := testContext(t)

			t.Run("initialize", func(t *testing.T) {
				res := c.InitializeResult()
				if res.ProtocolVersion != "2025-11-25" || res.ServerInfo.Name != "sdk-test" {
					t.Errorf("InitializeResult = %+v", res)
				}
				if !json.Valid(res.Capabilities) {
					t.Errorf("capabilities %q", res.Capabilities)
				}
			})

			t.Run("tools/list paginated", func(t *testing.T) {
				tools, err := c.ListTools(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var names []string
				for _, tool := range tools {
					names = append(names, tool.Name)
				}
				slices.Sort(names)
				want := []string{"ask", "echo", "fail", "filler1", "filler2", "filler3", "hang", "progress"}
				if !slices.Equal(names, want) {
					t.Errorf("tools = %v, want %v", names, want)
				}
				if n := len(rec.find(Outbound, KindMessage, `"cursor"`)); n < 2 {
					t.Errorf("%d paged tools/list requests, want ≥ 2", n)
				}
			})

			t.Run("echo", func(t *testing.T) {
				res, err := c.CallTool(ctx, "echo", json.RawMessage(`{"text":"<hello & bye>"}`))
				if err != nil {
					t.Fatal(err)
				}
				if res.IsError || len(res.Content) != 1 || res.Content[0].Type != "text" || res.Content[0].Text != "<hello & bye>" {
					t.Errorf("result = %+v", res)
				}
				if len(rec.find(Outbound, KindMessage, `"<hello & bye>"`)) == 0 {
					t.Error("arguments were not sent verbatim")
				}
			})

			t.Run("tool error is a result", func(t *testing.T) {
				res, err := c.CallTool(ctx, "fail", json.RawMessage(`{}`))
				if err != nil {
					t.Fatal(err)
				}
				if !res.IsError || len(res.Content) == 0 || res.Content[0].Text != "tool failed on purpose" {
					t.Errorf("result = %+v", res)
				}
			})

			t.Run("unknown method", func(t *testing.T) {
				_, err := c.Call(ctx, "no/such/method", nil)
				if conn.name != "stdio" {
					// The SDK's HTTP handler refuses unknown methods at the HTTP level.
					if err == nil || !strings.Contains(err.Error(), "HTTP 400 Bad Request: JSON RPC not handled") {
						t.Fatalf("err = %v, want an HTTP 400 error with the body excerpt", err)
					}
					rec.waitFind(t, Inbound, KindTransport, "HTTP 400 Bad Request")
					return
				}
				var rpcErr *RPCError
				if !errors.As(err, &rpcErr) || rpcErr.Code != -32601 {
					t.Fatalf("err = %v, want *RPCError -32601", err)
				}
			})

			t.Run("20 concurrent calls", func(t *testing.T) {
				testConcurrentEcho(t, c, "echo", "text", func(s string) string { return s })
			})

			t.Run("timeout of a hung tool", func(t *testing.T) {
				hctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
				defer cancel()
				_, err := c.CallTool(hctx, "hang", json.RawMessage(`{}`))
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("err = %v, want DeadlineExceeded", err)
				}
				rec.waitFind(t, Outbound, KindMessage, `"notifications/cancelled"`)
				// The connection is still usable.
				if _, err := c.CallTool(ctx, "echo", json.RawMessage(`{"text":"after"}`)); err != nil {
					t.Errorf("call after timeout: %v", err)
				}
			})

			t.Run("tap", func(t *testing.T) {
				out := rec.find(Outbound, KindMessage, `"method":"initialize"`)
				if len(out) != 1 || !json.Valid(out[0].Body) || out[0].Time.IsZero() {
					t.Fatalf("initialize frames = %+v", out)
				}
				in := rec.find(Inbound, KindMessage, `"serverInfo"`)
				if len(in) != 1 {
					t.Fatalf("initialize reply frames = %d", len(in))
				}
				if len(rec.find(Outbound, KindMessage, `"notifications/initialized"`)) != 1 {
					t.Error("no notifications/initialized frame")
				}
				if conn.name != "stdio" {
					if in[0].HTTP == nil || in[0].HTTP.Status != 200 || in[0].HTTP.Method != "POST" || in[0].HTTP.Header.Get("Mcp-Session-Id") == "" {
						t.Errorf("HTTP info = %+v", in[0].HTTP)
					}
					if out[0].HTTP == nil || out[0].HTTP.Header.Get("Accept") != "application/json, text/event-stream" {
						t.Errorf("outbound HTTP info = %+v", out[0].HTTP)
					}
					later := rec.find(Outbound, KindMessage, `"tools/list"`)
					if len(later) == 0 || later[0].HTTP.Header.Get("MCP-Protocol-Version") != "2025-11-25" || later[0].HTTP.Header.Get("Mcp-Session-Id") == "" {
						t.Errorf("headers after initialize = %v", later[0].HTTP.Header)
					}
				}
			})
		})
	}
}

// testConcurrentEcho makes 20 concurrent calls of tool with distinct
// values in argument arg and checks each gets its own answer, as mapped by
// want.
func testConcurrentEcho(t *testing.T, c *Client, tool, arg string, want func(string) string) {
	t.Helper()
	ctx := testContext(t)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			value := fmt.Sprintf("value-%d", i)
			args, _ := json.Marshal(map[string]string{arg: value})
			res, err := c.CallTool(ctx, tool, args)
			switch {
			case err != nil:
				t.Errorf("call %d: %v", i, err)
			case len(res.Content) != 1 || res.Content[0].Text != want(value):
				t.Errorf("call %d got %+v, want %q", i, res.Content, want(value))
			}
		})
	}
	wg.Wait()
}
