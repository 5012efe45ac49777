package demoserver

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// waitRun waits for Run to return and fails the test if it takes too long
// or returns an error.
func waitRun(tb testing.TB, done <-chan error) {
	tb.Helper()
	select {
	case err := <-done:
		if err != nil {
			tb.Errorf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		tb.Fatal("Run did not return after shutdown")
	}
}

func TestRunHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stderrR, stderrW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, "127.0.0.1:0", nil, io.Discard, stderrW)
		stderrW.Close()
	}()
	line, err := bufio.NewReader(stderrR).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the listening line: %v", err)
	}
	go io.Copy(io.Discard, stderrR) // ends when Run's goroutine closes stderrW
	i := strings.Index(line, "http://127.0.0.1:")
	if i < 0 || !strings.HasSuffix(strings.TrimSpace(line), "/mcp") {
		t.Fatalf("listening line %q does not name an http://127.0.0.1:PORT/mcp URL", line)
	}
	endpoint := strings.TrimSpace(line[i:])

	progress := make(chan float64, 10)
	updates := make(chan string, 10)
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			progress <- req.Params.Progress
		},
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			select {
			case updates <- req.Params.URI:
			default:
			}
		},
	})
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v", endpoint, err)
	}
	defer cs.Close()
	init := cs.InitializeResult()
	t.Logf("negotiated protocol %s", init.ProtocolVersion)
	if init.ServerInfo == nil || init.ServerInfo.Name != serverName || init.ServerInfo.Version != serverVersion {
		t.Errorf("server info = %+v", init.ServerInfo)
	}
	if init.Instructions == "" {
		t.Error("no instructions")
	}

	if res := mustCall(t, cs, "echo", map[string]any{"message": "over http"}); text(res) != "over http" {
		t.Errorf("echo = %q", text(res))
	}

	params := &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"seconds": 0, "steps": 2}}
	params.SetProgressToken(7)
	if _, err := cs.CallTool(ctx, params); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		select {
		case <-progress:
		case <-time.After(5 * time.Second):
			t.Fatal("missing progress notification over HTTP")
		}
	}

	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: clockURI}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-updates:
	case <-time.After(3 * clockInterval):
		t.Fatal("no clock update over HTTP")
	}

	// Shut down with the client still connected (its GET stream open) and a
	// long call in flight: Run must cancel the call rather than wait for it.
	slowDone := make(chan struct{})
	go func() {
		defer close(slowDone)
		cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"seconds": 60}})
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	waitRun(t, done)
	cs.Close()
	<-slowDone
}

func TestRunHTTPBadAddress(t *testing.T) {
	if err := Run(t.Context(), "256.0.0.1:0", nil, io.Discard, io.Discard); err == nil {
		t.Fatal("Run on an invalid address succeeded, want an error")
	}
}

func TestRunStdio(t *testing.T) {
	tests := []struct {
		name string
		// stop ends the server: by cancelling Run's context or by the client
		// hanging up.
		stop func(cancel context.CancelFunc, cs *mcp.ClientSession)
	}{
		{"context cancelled", func(cancel context.CancelFunc, _ *mcp.ClientSession) { cancel() }},
		{"client closes", func(_ context.CancelFunc, cs *mcp.ClientSession) { cs.Close() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			stdinR, stdinW := io.Pipe()
			stdoutR, stdoutW := io.Pipe()
			defer stdoutW.Close()
			done := make(chan error, 1)
			go func() { done <- Run(ctx, "", stdinR, stdoutW, io.Discard) }()

			client := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: stdoutR, Writer: stdinW}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			if res := mustCall(t, cs, "echo", map[string]any{"message": "over stdio"}); text(res) != "over stdio" {
				t.Errorf("echo = %q", text(res))
			}
			tt.stop(cancel, cs)
			waitRun(t, done)
		})
	}
}
