package collections_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

// roleEnv makes the test binary act as an MCP server over stdio instead of
// running the tests: "sdk" runs newSDKServer.
const roleEnv = "COLLECTIONS_TEST_ROLE"

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

// newSDKServer returns an official Go SDK server with the tools echo
// (answers its text) and hang (waits until cancelled).
func newSDKServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk-test", Version: "1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echoes text"},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "waits until cancelled"},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	return s
}

// sdkStdioServer is a registered stdio server that re-runs this test
// binary as newSDKServer. The race detector's pause at exit is turned off.
func sdkStdioServer(name string) backend.Server {
	return backend.Server{Name: name, Transport: backend.TransportStdio, Command: os.Args[0],
		Env: map[string]string{roleEnv: "sdk", "GORACE": "atexit_sleep_ms=0"}}
}

// env is a backend over a temp-file database: what the collections
// service stores in, records through and calls.
type env struct {
	db   *store.DB
	rec  *backend.Recorder
	pool *backend.Pool
	reg  *backend.Registry
}

// MustEnv builds a database, hub, recorder, pool and registry; the pool is
// closed, then the recorder, then the database, when the test ends.
func MustEnv(tb testing.TB) *env {
	tb.Helper()
	ctx := testContext(tb)
	db, err := store.Open(ctx, filepath.Join(tb.TempDir(), "playground.db"))
	if err != nil {
		tb.Fatalf("store.Open: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	hub := backend.NewHub(0)
	rec, err := backend.NewRecorder(ctx, db, hub, testLogger(tb))
	if err != nil {
		tb.Fatalf("NewRecorder: %v", err)
	}
	tb.Cleanup(func() {
		if err := rec.Close(); err != nil {
			tb.Errorf("Recorder.Close: %v", err)
		}
	})
	e := &env{db: db, rec: rec}
	e.pool = backend.NewPool(db, db, rec, hub, backend.NewInbox(hub, time.Minute), testLogger(tb),
		mcpclient.Implementation{Name: "playground-test", Version: "0"}, backend.WithRevisions(db))
	tb.Cleanup(e.pool.Close)
	e.reg = backend.NewRegistry(db, db, e.pool)
	return e
}

// collections returns the collections service over e, closed when the
// test ends.
func (e *env) collections(tb testing.TB) *collections.Service {
	cols := collections.New(e.db, e.db, e.db, e.pool, testLogger(tb))
	tb.Cleanup(cols.Close)
	return cols
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

// MustConnect connects the registered server serverID.
func (e *env) MustConnect(tb testing.TB, serverID int64) backend.Session {
	tb.Helper()
	sess, err := e.pool.Connect(testContext(tb), serverID)
	if err != nil {
		tb.Fatalf("Connect(%d): %v", serverID, err)
	}
	return sess
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
