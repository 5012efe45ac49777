package mcpclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The benchmarks time one tools/call round trip (the echo tool of
// newSDKServer) through mcpclient and through the official Go SDK client,
// against the same server: in process over Streamable HTTP on 127.0.0.1,
// and as a child process over stdio. Neither client has a tap or handler.

// benchHTTPURL serves newSDKServer over Streamable HTTP for the benchmark.
func benchHTTPURL(b *testing.B) string {
	server := newSDKServer()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	b.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func BenchmarkToolsCallMcpclient(b *testing.B) {
	connect := map[string]func(b *testing.B) (*Client, error){
		"http": func(b *testing.B) (*Client, error) {
			return ConnectHTTP(b.Context(), HTTPConfig{URL: benchHTTPURL(b)}, Options{})
		},
		"stdio": func(b *testing.B) (*Client, error) {
			return ConnectStdio(b.Context(), selfCommand("sdk"), Options{})
		},
	}
	for _, name := range []string{"http", "stdio"} {
		b.Run(name, func(b *testing.B) {
			c, err := connect[name](b)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			args := json.RawMessage(`{"text":"hello"}`)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				res, err := c.CallTool(ctx, "echo", args)
				if err != nil || res.IsError || len(res.Content) != 1 || res.Content[0].Text != "hello" {
					b.Fatalf("CallTool: %v %+v, want the text hello", err, res)
				}
			}
		})
	}
}

func BenchmarkToolsCallSDK(b *testing.B) {
	transport := map[string]func(b *testing.B) mcp.Transport{
		"http": func(b *testing.B) mcp.Transport {
			return &mcp.StreamableClientTransport{Endpoint: benchHTTPURL(b)}
		},
		"stdio": func(b *testing.B) mcp.Transport {
			self := selfCommand("sdk")
			cmd := exec.Command(self.Command, self.Args...)
			cmd.Env = append(os.Environ(), self.Env...)
			return &mcp.CommandTransport{Command: cmd}
		},
	}
	for _, name := range []string{"http", "stdio"} {
		b.Run(name, func(b *testing.B) {
			client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
			session, err := client.Connect(b.Context(), transport[name](b), nil)
			if err != nil {
				b.Fatal(err)
			}
			defer session.Close()
			params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hello"}}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				res, err := session.CallTool(ctx, params)
				if err != nil || res.IsError || len(res.Content) != 1 {
					b.Fatalf("CallTool: %v %+v", err, res)
				}
				if text, ok := res.Content[0].(*mcp.TextContent); !ok || text.Text != "hello" {
					b.Fatalf("CallTool: %+v, want the text hello", res.Content[0])
				}
			}
		})
	}
}
