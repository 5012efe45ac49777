package backend_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/sdktest"
	"github.com/mcp-playground/playground/mcpclient"
)

// TestPoolHTTPServerGoesAway closes a real Streamable HTTP server (the
// official Go SDK's) under an open session, one that holds an event stream
// and one that offers none (stateless, so watched by pings), and wants the
// session closed on its own, with a reason saying why, told to its viewers.
func TestPoolHTTPServerGoesAway(t *testing.T) {
	tests := []struct {
		name  string
		hopts *mcp.StreamableHTTPOptions
		want  string
	}{
		{"event stream", nil, "server went away: the server is gone: its event stream ended"},
		{"keep-alive ping", &mcp.StreamableHTTPOptions{Stateless: true}, "server went away: the server did not answer a keep-alive ping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := MustEnv(t)
			e.Pool = backend.NewPool(e.DB, e.DB, e.Rec, e.Hub, e.Inbox, backendtest.Logger(t), mcpclient.Implementation{Name: "playground-test", Version: "0"},
				backend.WithKeepAlive(200*time.Millisecond))
			t.Cleanup(e.Pool.Close)
			server := sdktest.Server()
			ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, tt.hopts))
			srvID := e.MustServer(t, httpServer("going", ts.URL+"/mcp"))
			sess := e.MustConnect(t, srvID)
			sub := e.Hub.Subscribe(sess.ID)
			defer sub.Close()
			time.Sleep(500 * time.Millisecond) // the stream opens, or pings are answered
			if !e.Pool.IsLive(sess.ID) {
				t.Fatalf("session ended while the server ran: %+v", e.MustGetSession(t, sess.ID))
			}
			ts.CloseClientConnections()
			ts.Close()
			ended := e.waitEnded(t, sub, sess.ID)
			if ended.Status != backend.SessionClosed || !strings.Contains(ended.CloseReason, tt.want) {
				t.Errorf("session after the server went away = %+v, want the reason %q", ended, tt.want)
			}
			if _, ok := e.Pool.LiveSession(srvID); ok {
				t.Error("the server still has a live session")
			}
		})
	}
}
