package mcpclient

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// roleEnv makes the test binary act as a server process instead of running
// tests: "sdk" runs the Go SDK test server over stdio, "fake" runs
// fakeServer.
const roleEnv = "MCPCLIENT_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "sdk":
		if err := newSDKServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "fake":
		fakeServer()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type echoArgs struct {
	Text string `json:"text"`
}

// newSDKServer returns a Go SDK server with tools echo, fail, hang,
// filler1..3, ask and progress (see addClientFeatureTools), listed two per
// page.
func newSDKServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk-test", Version: "1.0"}, &mcp.ServerOptions{PageSize: 2})
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes text"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "always fails"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("tool failed on purpose")
		})
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "waits until cancelled"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	for i := 1; i <= 3; i++ {
		mcp.AddTool(s, &mcp.Tool{Name: fmt.Sprintf("filler%d", i)},
			func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
				return &mcp.CallToolResult{}, nil, nil
			})
	}
	addClientFeatureTools(s)
	return s
}

// fakeServer is a hand-written stdio server that misbehaves on purpose.
// initialize: a garbage line, a notification and a response to an unknown
// id come before the reply. "ask": asks the client ping and
// sampling/createMessage, then answers with the client's two raw replies.
// "big": a 4 KiB line. "bigtail": a 4 KiB line with the id last. "bignote":
// a 4 KiB notification, and no answer. "cancelme": asks the client
// sampling/createMessage (id "c1"), cancels that at once and answers {}.
// "exit": exits 7 after a stderr line. "hang": no answer. Input that is not
// JSON gets a -32700 reply with id null; notifications get nothing. Others:
// -32601. With FAKE_IGNORE_EOF=1 it keeps running after stdin ends; with
// FAKE_IGNORE_TERM=1 it also ignores SIGTERM.
func fakeServer() {
	if os.Getenv("FAKE_IGNORE_TERM") != "" {
		signal.Ignore(syscall.SIGTERM)
	}
	var mu sync.Mutex
	write := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Println(s)
	}
	in := bufio.NewScanner(os.Stdin)
	var askID json.RawMessage
	answers := map[string]string{}
	for in.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &m) != nil {
			write(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
			continue
		}
		if len(m.ID) == 0 {
			continue // a notification
		}
		switch m.Method {
		case "initialize":
			fmt.Fprintln(os.Stderr, "fake server starting")
			write("this is not JSON")
			write(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
			write(`{"jsonrpc":"2.0","id":999,"result":{}}`)
			write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"fake","version":"1"},"instructions":"be nice"}}`)
		case "hang":
		case "ask":
			askID = m.ID
			write(`{"jsonrpc":"2.0","id":"s1","method":"ping"}`)
			write(`{"jsonrpc":"2.0","id":"s2","method":"sampling/createMessage","params":{}}`)
		case "":
			answers[string(m.ID)] = in.Text()
			if len(answers) == 2 {
				write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"ping":%s,"sampling":%s}}`, askID, answers[`"s1"`], answers[`"s2"`]))
			}
		case "big":
			write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{"x":"` + strings.Repeat("x", 4096) + `"}}`)
		case "bigtail":
			write(`{"result":{"x":"` + strings.Repeat("x", 4096) + `"},"jsonrpc":"2.0","id":` + string(m.ID) + `}`)
		case "bignote":
			write(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"` + strings.Repeat("x", 4096) + `"}}`)
		case "cancelme":
			write(`{"jsonrpc":"2.0","id":"c1","method":"sampling/createMessage","params":{}}`)
			write(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c1","reason":"changed my mind"}}`)
			write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`)
		case "exit":
			fmt.Fprintln(os.Stderr, "fatal: asked to exit")
			os.Exit(7)
		default:
			write(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`)
		}
	}
	if os.Getenv("FAKE_IGNORE_EOF") != "" {
		time.Sleep(time.Hour)
	}
}

// selfCommand returns a StdioConfig that re-runs the test binary as role.
// The race detector's one-second pause at exit is turned off in the child.
func selfCommand(role string, env ...string) StdioConfig {
	return StdioConfig{Command: os.Args[0], Env: append([]string{roleEnv + "=" + role, "GORACE=atexit_sleep_ms=0"}, env...)}
}

// recorder is a Tap that keeps every frame.
type recorder struct {
	mu     sync.Mutex
	frames []Frame
}

func (r *recorder) tap(f Frame) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.frames = append(r.frames, f)
}

// find returns the frames of direction dir and kind whose body contains s.
func (r *recorder) find(dir Direction, kind FrameKind, s string) []Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Frame
	for _, f := range r.frames {
		if f.Direction == dir && f.Kind == kind && strings.Contains(string(f.Body), s) {
			out = append(out, f)
		}
	}
	return out
}

// waitFind polls find until it returns a frame or a few seconds pass.
func (r *recorder) waitFind(t *testing.T, dir Direction, kind FrameKind, s string) Frame {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if fs := r.find(dir, kind, s); len(fs) > 0 {
			return fs[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s %s frame containing %q", dir, kind, s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// mustClose closes c when the test ends.
func mustClose(t *testing.T, c *Client) {
	t.Helper()
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}
