package backend_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/sdktest"
	"github.com/mcp-playground/playground/backend/store"
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

// MustSession stores a connecting session and returns its id.
func MustSession(tb testing.TB, db *store.DB) int64 {
	tb.Helper()
	id, err := db.CreateSession(backendtest.Context(tb), backend.Session{ServerName: "test", Transport: backend.TransportStdio,
		Status: backend.SessionConnecting, StartedAt: time.Now()})
	if err != nil {
		tb.Fatalf("CreateSession: %v", err)
	}
	return id
}

// env is a whole backend (backendtest.Env), to which this package's tests
// add their helpers.
type env struct{ *backendtest.Env }

// MustEnv is backendtest.MustEnv.
func MustEnv(tb testing.TB) *env {
	tb.Helper()
	return &env{backendtest.MustEnv(tb)}
}
