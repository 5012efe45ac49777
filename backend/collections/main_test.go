package collections_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/sdktest"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

func TestMain(m *testing.M) {
	sdktest.ServeIfAsked()
	os.Exit(m.Run())
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
