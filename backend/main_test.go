package backend_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/sdktest"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

func TestMain(m *testing.M) {
	sdktest.ServeIfAsked()
	os.Exit(m.Run())
}

// MustSDKHTTPServer serves sdktest.Server over Streamable HTTP on loopback
// and returns its MCP URL. When the test ends, client connections are cut
// first: a session's open GET stream would otherwise block Close.
func MustSDKHTTPServer(tb testing.TB) string {
	tb.Helper()
	server := sdktest.Server()
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
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
