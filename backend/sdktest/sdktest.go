// Package sdktest serves the official Go SDK's MCP server, with a few
// tools that backend tests call, as a stdio server that re-runs the test
// binary.
package sdktest

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
)

// roleEnv makes a test binary act as the stdio server of StdioServer
// instead of running its tests.
const roleEnv = "PLAYGROUND_SDKTEST_ROLE"

// ServeIfAsked serves Server over stdio and exits when this process was
// started as the command of a StdioServer; else it returns at once. A
// TestMain calls it before m.Run.
func ServeIfAsked() {
	if os.Getenv(roleEnv) != "sdk" {
		return
	}
	if err := Server().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// StdioServer is a stdio server to register that re-runs this test
// binary as Server; its TestMain must call ServeIfAsked. The race
// detector's pause at exit is turned off.
func StdioServer(name string) backend.Server {
	return backend.Server{Name: name, Transport: backend.TransportStdio, Command: os.Args[0],
		Env: map[string]string{roleEnv: "sdk", "GORACE": "atexit_sleep_ms=0"}}
}

type echoArgs struct {
	Text string `json:"text"`
}

// Server returns an official Go SDK server with the tools echo, pid
// (the process id, as text), hang (waits until cancelled),
// progress_hang (reports progress 1 and 2 of 2, then waits until
// cancelled) and log (logs "<level> line" at each of the eight levels,
// which the SDK sends only at the level the client asked for and above).
func Server() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk-test", Version: "1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "log", Description: "logs a line at each level"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			for _, level := range backend.LogLevels {
				if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(level), Logger: "test", Data: level + " line"}); err != nil {
					return nil, nil, err
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "logged"}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes text"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "pid", Description: "the server's process id"},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strconv.Itoa(os.Getpid())}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "waits until cancelled"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	mcp.AddTool(s, &mcp.Tool{Name: "progress_hang", Description: "reports progress, then waits until cancelled"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			if token := req.Params.GetProgressToken(); token != nil {
				for i := 1; i <= 2; i++ {
					err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token,
						Progress: float64(i), Total: 2, Message: fmt.Sprintf("step %d", i)})
					if err != nil {
						return nil, nil, err
					}
				}
			}
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	return s
}
