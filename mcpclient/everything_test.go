package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// everythingScript returns the path of @modelcontextprotocol/server-everything
// under $PLAYGROUND_NODE_MODULES (default: the repository's node_modules).
// When it or node is missing the test fails if $CI is set, else it skips.
func everythingScript(t *testing.T) (node, script string) {
	t.Helper()
	dir := os.Getenv("PLAYGROUND_NODE_MODULES")
	if dir == "" {
		dir = filepath.Join("..", "node_modules")
	}
	script, _ = filepath.Abs(filepath.Join(dir, "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(script)
	}
	if err != nil {
		msg := "real peer server-everything unavailable (run npm install, or set PLAYGROUND_NODE_MODULES): " + err.Error()
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node, script
}

// startEverythingHTTP runs server-everything's Streamable HTTP transport on a
// free port and returns its URL once the port accepts connections. The
// process is killed when the test ends.
func startEverythingHTTP(t *testing.T) string {
	t.Helper()
	node, script := everythingScript(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(node, script, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	for deadline := time.Now().Add(15 * time.Second); ; {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return "http://" + addr + "/mcp"
		}
		if time.Now().After(deadline) {
			t.Fatalf("server-everything did not listen on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestServerEverything(t *testing.T) {
	connectors := []struct {
		name    string
		connect func(t *testing.T, opts Options) (*Client, error)
	}{
		{"stdio", func(t *testing.T, opts Options) (*Client, error) {
			node, script := everythingScript(t)
			return ConnectStdio(testContext(t), StdioConfig{Command: node, Args: []string{script, "stdio"}}, opts)
		}},
		{"http", func(t *testing.T, opts Options) (*Client, error) {
			return ConnectHTTP(testContext(t), HTTPConfig{URL: startEverythingHTTP(t)}, opts)
		}},
	}
	for _, conn := range connectors {
		t.Run(conn.name, func(t *testing.T) {
			t.Parallel()
			rec := &recorder{}
			c, err := conn.connect(t, Options{Tap: rec.tap})
			if err != nil {
				t.Fatal(err)
			}
			mustClose(t, c)
			ctx := testContext(t)

			t.Run("initialize", func(t *testing.T) {
				res := c.InitializeResult()
				if res.ProtocolVersion != "2025-11-25" || res.ServerInfo.Name == "" || !strings.Contains(string(res.Capabilities), `"tools"`) {
					t.Errorf("InitializeResult = %+v", res)
				}
			})

			t.Run("tools/list", func(t *testing.T) {
				tools, err := c.ListTools(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var names []string
				for _, tool := range tools {
					names = append(names, tool.Name)
				}
				t.Logf("tools: %s", strings.Join(names, ", "))
				if !strings.Contains(","+strings.Join(names, ",")+",", ",echo,") {
					t.Errorf("no echo tool in %v", names)
				}
			})

			t.Run("echo", func(t *testing.T) {
				res, err := c.CallTool(ctx, "echo", json.RawMessage(`{"message":"hi"}`))
				if err != nil {
					t.Fatal(err)
				}
				if res.IsError || len(res.Content) != 1 || res.Content[0].Text != "Echo: hi" {
					t.Errorf("result = %+v", res)
				}
			})

			t.Run("bad arguments give a tool error", func(t *testing.T) {
				res, err := c.CallTool(ctx, "echo", json.RawMessage(`{"message":5}`))
				if err != nil {
					t.Fatal(err)
				}
				if !res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "Input validation error") {
					t.Errorf("result = %+v", res)
				}
			})

			t.Run("unknown method", func(t *testing.T) {
				_, err := c.Call(ctx, "no/such/method", nil)
				var rpcErr *RPCError
				if !errors.As(err, &rpcErr) || rpcErr.Code != -32601 {
					t.Fatalf("err = %v, want *RPCError -32601", err)
				}
			})

			t.Run("20 concurrent echo calls", func(t *testing.T) {
				testConcurrentEcho(t, c, "echo", "message", func(s string) string { return "Echo: " + s })
			})

			t.Run("cancelled call", func(t *testing.T) {
				cctx, cancel := context.WithCancel(ctx)
				cancel()
				if _, err := c.CallTool(cctx, "echo", json.RawMessage(`{"message":"late"}`)); !errors.Is(err, context.Canceled) {
					t.Errorf("err = %v, want Canceled", err)
				}
				if _, err := c.Call(ctx, "ping", nil); err != nil {
					t.Errorf("ping after cancel: %v", err)
				}
			})
		})
	}
}
