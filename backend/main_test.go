package backend_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

// roleEnv makes the test binary act as an MCP server over stdio instead of
// running the tests: "sdk" runs newSDKServer.
const roleEnv = "BACKEND_TEST_ROLE"

func TestMain(m *testing.M) {
	if os.Getenv(roleEnv) == "sdk" {
		if err := newSDKServer().Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type echoArgs struct {
	Text string `json:"text"`
}

// newSDKServer returns an official Go SDK server with the tools echo, pid
// (the process id, as text), hang (waits until cancelled),
// progress_hang (reports progress 1 and 2 of 2, then waits until
// cancelled) and log (logs "<level> line" at each of the eight levels,
// which the SDK sends only at the level the client asked for and above).
func newSDKServer() *mcp.Server {
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

// MustSDKHTTPServer serves newSDKServer over Streamable HTTP on loopback
// and returns its MCP URL. When the test ends, client connections are cut
// first: a session's open GET stream would otherwise block Close.
func MustSDKHTTPServer(tb testing.TB) string {
	tb.Helper()
	server := newSDKServer()
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

// sdkStdioServer is a registered stdio server that re-runs this test
// binary as newSDKServer. The race detector's pause at exit is turned off.
func sdkStdioServer(name string) backend.Server {
	return backend.Server{Name: name, Transport: backend.TransportStdio, Command: os.Args[0],
		Env: map[string]string{roleEnv: "sdk", "GORACE": "atexit_sleep_ms=0"}}
}

// MustOpenDB opens a temp-file database, closed when the test ends.
func MustOpenDB(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(testContext(tb), filepath.Join(tb.TempDir(), "playground.db"))
	if err != nil {
		tb.Fatalf("store.Open: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// MustRecorder starts a recorder on db and hub, closed when the test ends
// (after anything registered later, such as a pool).
func MustRecorder(tb testing.TB, db *store.DB, hub *backend.Hub) *backend.Recorder {
	tb.Helper()
	rec, err := backend.NewRecorder(testContext(tb), db, hub, testLogger(tb))
	if err != nil {
		tb.Fatalf("NewRecorder: %v", err)
	}
	tb.Cleanup(func() {
		if err := rec.Close(); err != nil {
			tb.Errorf("Recorder.Close: %v", err)
		}
	})
	return rec
}

// MustSession stores a connecting session and returns its id.
func MustSession(tb testing.TB, db *store.DB) int64 {
	tb.Helper()
	id, err := db.CreateSession(testContext(tb), backend.Session{ServerName: "test", Transport: backend.TransportStdio,
		Status: backend.SessionConnecting, StartedAt: time.Now()})
	if err != nil {
		tb.Fatalf("CreateSession: %v", err)
	}
	return id
}

// env is a full backend over a temp-file database.
type env struct {
	db    *store.DB
	hub   *backend.Hub
	rec   *backend.Recorder
	inbox *backend.Inbox
	pool  *backend.Pool
	reg   *backend.Registry
}

// MustEnv builds a database, hub, recorder, pool and registry; the pool is
// closed, then the recorder, when the test ends.
func MustEnv(tb testing.TB) *env {
	tb.Helper()
	e := &env{db: MustOpenDB(tb), hub: backend.NewHub(0)}
	e.rec = MustRecorder(tb, e.db, e.hub)
	e.inbox = backend.NewInbox(e.hub, time.Minute)
	e.pool = backend.NewPool(e.db, e.db, e.rec, e.hub, e.inbox, testLogger(tb), mcpclient.Implementation{Name: "playground-test", Version: "0"}, backend.WithRevisions(e.db))
	tb.Cleanup(e.pool.Close)
	e.reg = backend.NewRegistry(e.db, e.db, e.pool)
	return e
}

// MustServer registers s and returns its id.
func (e *env) MustServer(tb testing.TB, s backend.Server) int64 {
	tb.Helper()
	id, err := e.reg.Create(testContext(tb), s)
	if err != nil {
		tb.Fatalf("Registry.Create(%q): %v", s.Name, err)
	}
	return id
}

func testContext(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	tb.Cleanup(cancel)
	return ctx
}

func testLogger(testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}
