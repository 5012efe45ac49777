package lint

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// brokenHTTPServer is a legacy Streamable HTTP server that answers
// tools/list in an SSE event of type "reply" and ping with a text/plain
// Content-Type; the rest is right.
func brokenHTTPServer(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		_ = json.Unmarshal(body, &m)
		w.Header().Set("Mcp-Session-Id", "s1")
		switch m.Method {
		case "initialize":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"broken","version":"1"}}}`, m.ID)
		case "tools/list":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: reply\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"tools\":[]}}\n\n", m.ID)
		case "ping":
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, m.ID)
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestBrokenServersOverRealTransports connects the real client to servers
// that break transport rules and finds each on the frame that breaks it,
// through FrameOf as the recorder lints: the SSE event type, the
// Content-Type, and, over stdio, a message printed across lines.
func TestBrokenServersOverRealTransports(t *testing.T) {
	t.Run("http", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		rec := &tapped{}
		c, err := mcpclient.ConnectHTTP(ctx, mcpclient.HTTPConfig{URL: brokenHTTPServer(t)}, mcpclient.Options{Tap: rec.tap, Era: mcpclient.EraLegacy})
		if err != nil {
			t.Fatal(err)
		}
		_, _ = c.ListTools(ctx)
		_, _ = c.Call(ctx, "ping", nil)
		c.Close()
		found := lintTapped(rec)
		for _, want := range []string{"transport.sse-event-type", "transport.content-type"} {
			if found[want] == "" {
				t.Errorf("no %s finding; found %v", want, found)
			}
		}
		if found["transport.sse-event-type"] != `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}` {
			t.Errorf("the SSE event type is found on %s", found["transport.sse-event-type"])
		}
	})
	t.Run("stdio", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		rec := &tapped{}
		// It answers initialize pretty-printed, one member a line.
		script := `read line; printf '{\n"jsonrpc": "2.0",\n"id": 1,\n"result": {}\n}\n'; sleep 5`
		c, err := mcpclient.ConnectStdio(ctx, mcpclient.StdioConfig{Command: "sh", Args: []string{"-c", script}},
			mcpclient.Options{Tap: rec.tap, InitializeTimeout: time.Second})
		if err == nil {
			c.Close()
			t.Fatal("the handshake with a server that splits its answer succeeded")
		}
		if found := lintTapped(rec); found["transport.stdio-split"] != "}" {
			t.Errorf("transport.stdio-split on %q; found %v", found["transport.stdio-split"], found)
		}
	})
}

// lintTapped lints the frames rec holds and returns, by code, the body of
// the frame each code was first found on.
func lintTapped(rec *tapped) map[string]string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	l := New(Options{})
	found := map[string]string{}
	for _, f := range rec.frames {
		for _, fd := range l.Lint(FrameOf(f)) {
			if _, seen := found[fd.Code]; !seen {
				found[fd.Code] = string(f.Body)
			}
		}
	}
	return found
}
