package mcpclient

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPServerGone closes a real Streamable HTTP server (the official Go
// SDK's) under an open connection and wants the connection to end on its
// own, with a cause that says so: through the standalone event stream
// when the server holds one, through keep-alive pings when it does not —
// in the modern era, which has no ping, through server/discover.
func TestHTTPServerGone(t *testing.T) {
	tests := []struct {
		name  string
		era   Era
		hopts *mcp.StreamableHTTPOptions
		ping  string // what a keep-alive ping sends, "" for none
		want  string
	}{
		{"event stream", EraLegacy, &mcp.StreamableHTTPOptions{}, "", "the server is gone: its event stream ended and could not be reopened"},
		{"keep-alive ping", EraLegacy, &mcp.StreamableHTTPOptions{Stateless: true}, `"method":"ping"`, "the server did not answer a keep-alive ping"},
		{"modern keep-alive", EraModern, &mcp.StreamableHTTPOptions{Stateless: true}, `"method":"server/discover"`, "the server did not answer a keep-alive ping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			server := newSDKServer()
			srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, tt.hopts))
			rec := &recorder{}
			c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL + "/mcp"},
				Options{Tap: rec.tap, Era: tt.era, KeepAlive: 100 * time.Millisecond, KeepAliveTimeout: time.Second})
			if err != nil {
				srv.Close()
				t.Fatalf("ConnectHTTP: %v", err)
			}
			mustClose(t, c)
			if tt.ping != "" {
				// The server answers pings while it runs; in the modern
				// era the first server/discover is the connect's own.
				sent := len(rec.find(Outbound, KindMessage, tt.ping))
				for deadline := time.Now().Add(5 * time.Second); len(rec.find(Outbound, KindMessage, tt.ping)) <= sent; time.Sleep(20 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatalf("no keep-alive %s was sent", tt.ping)
					}
				}
				time.Sleep(300 * time.Millisecond)
			} else {
				rec.waitFind(t, Outbound, KindTransport, "GET event stream")
			}
			select {
			case <-c.Done():
				t.Fatalf("connection ended while the server ran: %v", c.Err())
			default:
			}
			srv.CloseClientConnections()
			srv.Close()
			select {
			case <-c.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("the connection stayed open after the server went away")
			}
			if err := c.Err(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Err() = %v, want it to say %q", err, tt.want)
			}
			if _, err := c.Call(testContext(t), "ping", nil); err == nil {
				t.Error("a call after the end succeeded")
			}
		})
	}
}
