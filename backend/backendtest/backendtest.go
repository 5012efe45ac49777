// Package backendtest builds, for the tests of backend and of the
// packages above it, a whole backend over a temp-file database: store,
// hub, recorder, inbox, pool and registry, each closed when the test
// ends. Only tests import it.
package backendtest

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

// Env is a whole backend over a temp-file database.
type Env struct {
	DB    *store.DB
	Hub   *backend.Hub
	Rec   *backend.Recorder
	Inbox *backend.Inbox
	Pool  *backend.Pool
	Reg   *backend.Registry
}

// MustEnv builds a database, hub, recorder, inbox, pool and registry; the
// pool is closed, then the recorder, then the database, when the test
// ends.
func MustEnv(tb testing.TB) *Env {
	tb.Helper()
	e := &Env{DB: MustOpenDB(tb), Hub: backend.NewHub(0)}
	e.Rec = MustRecorder(tb, e.DB, e.Hub)
	e.Inbox = backend.NewInbox(e.Hub, time.Minute)
	e.Pool = backend.NewPool(e.DB, e.DB, e.Rec, e.Hub, e.Inbox, Logger(tb), mcpclient.Implementation{Name: "playground-test", Version: "0"}, backend.WithRevisions(e.DB))
	tb.Cleanup(e.Pool.Close)
	e.Reg = backend.NewRegistry(e.DB, e.DB, e.Pool)
	return e
}

// MustServer registers s and returns its id.
func (e *Env) MustServer(tb testing.TB, s backend.Server) int64 {
	tb.Helper()
	id, err := e.Reg.Create(Context(tb), s)
	if err != nil {
		tb.Fatalf("Registry.Create(%q): %v", s.Name, err)
	}
	return id
}

// MustConnect opens a session on the registered server serverID.
func (e *Env) MustConnect(tb testing.TB, serverID int64) backend.Session {
	tb.Helper()
	sess, err := e.Pool.Connect(Context(tb), serverID)
	if err != nil {
		tb.Fatalf("Connect(%d): %v", serverID, err)
	}
	return sess
}

// MustOpenDB opens a temp-file database, closed when the test ends.
func MustOpenDB(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(Context(tb), filepath.Join(tb.TempDir(), "playground.db"))
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
	rec, err := backend.NewRecorder(Context(tb), db, hub, Logger(tb), backend.RecorderOptions{})
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

// Context returns a context that ends 20 s from now, or with the test.
func Context(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	tb.Cleanup(cancel)
	return ctx
}

// Logger returns a logger to stderr under go test -v, silent otherwise.
func Logger(testing.TB) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}
