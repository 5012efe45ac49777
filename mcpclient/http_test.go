package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestConnectHTTPFailures(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/mcp"
	ln.Close()
	unauthorized := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "missing token", http.StatusUnauthorized)
	}))

	tests := []struct {
		name string
		url  string
		want string
	}{
		{"connection refused", refused, "connect " + refused + ": connection refused"},
		{"error status", unauthorized.URL, "initialize: HTTP 401 Unauthorized: missing token"},
		{"bad URL", "ftp://example.com", `invalid server URL "ftp://example.com"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: tt.url}, Options{Tap: rec.tap})
			if err == nil {
				c.Close()
				t.Fatal("connected")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

// sdkHTTPServer serves newSDKServer over Streamable HTTP and can be told to
// forget sessions, which it then answers with 404.
type sdkHTTPServer struct {
	server    *mcp.Server
	url       string
	forgotten sync.Map // session id -> true
}

func startSDKHTTP(t *testing.T, hopts *mcp.StreamableHTTPOptions) *sdkHTTPServer {
	s := &sdkHTTPServer{server: newSDKServer()}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.server }, hopts)
	srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, gone := s.forgotten.Load(r.Header.Get("Mcp-Session-Id")); gone {
			http.Error(w, "session not found", http.StatusNotFound)
			return
		}
		h.ServeHTTP(w, r)
	}))
	s.url = srv.URL + "/mcp"
	return s
}

func TestHTTPSession(t *testing.T) {
	s := startSDKHTTP(t, nil)
	rec := &recorder{}
	notes := make(chan Notification, 10)
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: s.url, Header: http.Header{"X-Test": {"yes"}}},
		Options{Tap: rec.tap, OnNotification: func(n Notification) { notes <- n }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t)

	t.Run("standalone stream carries notifications", func(t *testing.T) {
		rec.waitFind(t, Outbound, KindMessage, "notifications/initialized")
		time.Sleep(200 * time.Millisecond) // let the GET stream open
		mcp.AddTool(s.server, &mcp.Tool{Name: "late"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{}, nil, nil
		})
		select {
		case n := <-notes:
			if n.Method != "notifications/tools/list_changed" {
				t.Errorf("notification = %+v", n)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no notification")
		}
		f := rec.waitFind(t, Inbound, KindMessage, "notifications/tools/list_changed")
		if f.HTTP == nil || f.HTTP.Method != http.MethodGet {
			t.Errorf("notification came in %+v, want the GET stream", f.HTTP)
		}
	})

	t.Run("server ping is answered", func(t *testing.T) {
		for ss := range s.server.Sessions() {
			if err := ss.Ping(ctx, nil); err != nil {
				t.Errorf("ping: %v", err)
			}
		}
		f := rec.waitFind(t, Outbound, KindMessage, `"result":{}`)
		if f.HTTP.Header.Get("X-Test") != "yes" {
			t.Errorf("configured header not sent: %v", f.HTTP.Header)
		}
	})

	t.Run("a forgotten session is renewed and the request sent again", func(t *testing.T) {
		call := rec.waitFind(t, Outbound, KindMessage, `"result":{}`)
		old := call.HTTP.Header.Get("Mcp-Session-Id")
		s.forgotten.Store(old, true)
		res, err := c.CallTool(ctx, "echo", json.RawMessage(`{"text":"again"}`))
		if err != nil || res.Content[0].Text != "again" {
			t.Fatalf("echo after the session was forgotten: %+v, %v", res, err)
		}
		f := rec.waitFind(t, Inbound, KindTransport, "HTTP 404 Not Found: session not found")
		if f.HTTP.Status != 404 {
			t.Errorf("HTTP info = %+v", f.HTTP)
		}
		rec.waitFind(t, Inbound, KindTransport, fmt.Sprintf("session %q is gone (HTTP 404 Not Found); starting a new session with initialize", old))
		rec.waitFind(t, Inbound, KindTransport, "sending tools/call (id ")
		calls := rec.find(Outbound, KindMessage, `"text":"again"`)
		if len(calls) != 2 || string(calls[0].Body) != string(calls[1].Body) ||
			calls[1].HTTP.Header.Get("Mcp-Session-Id") == old || calls[1].HTTP.Header.Get("Mcp-Session-Id") == "" {
			t.Errorf("tools/call frames: %d", len(calls))
		}
		if n := len(rec.find(Outbound, KindMessage, `"method":"initialize"`)); n != 2 {
			t.Errorf("%d initialize requests, want 2", n)
		}
	})

	t.Run("close ends the session", func(t *testing.T) {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		rec.waitFind(t, Inbound, KindTransport, "end session: HTTP 204")
		if err := c.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
		if _, err := c.Call(ctx, "tools/list", nil); !errors.Is(err, ErrClosed) {
			t.Errorf("call after Close: %v", err)
		}
	})
}

// TestHTTPRequestsKeepTheirConnection checks that a request's reply is read
// to its end, so that the next request reuses the connection rather than
// dialling a new one.
func TestHTTPRequestsKeepTheirConnection(t *testing.T) {
	server := newSDKServer()
	var dials atomic.Int64
	srv := httptest.NewUnstartedServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			dials.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL + "/mcp"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	ctx := testContext(t)
	if _, err := c.CallTool(ctx, "echo", json.RawMessage(`{"text":"warm"}`)); err != nil {
		t.Fatal(err)
	}
	before := dials.Load()
	const calls = 200
	for range calls {
		if _, err := c.CallTool(ctx, "echo", json.RawMessage(`{"text":"again"}`)); err != nil {
			t.Fatal(err)
		}
	}
	// A call may begin while the previous reply's end is still being read,
	// so two connections may take turns, and on a loaded machine a reply's
	// end may take longer than the client waits for it (100 ms), which
	// costs one more. Replies cut short as a rule dial a connection for
	// every tenth call or so (11 to 15 here).
	if n := dials.Load() - before; n > 4 {
		t.Errorf("%d connections dialled for %d calls one after another, want at most 4", n, calls)
	}
}

func TestHTTPStateless(t *testing.T) {
	s := startSDKHTTP(t, &mcp.StreamableHTTPOptions{Stateless: true})
	rec := &recorder{}
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: s.url}, Options{Tap: rec.tap})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	rec.waitFind(t, Inbound, KindTransport, "server offers no standalone event stream (HTTP 405)")
	res, err := c.CallTool(testContext(t), "echo", json.RawMessage(`{"text":"stateless"}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(res.Content) != 1 || res.Content[0].Text != "stateless" {
		t.Errorf("echo over a stateless server: %+v, want the text echoed", res)
	}
}

// fakeHTTPHandler is a hand-written Streamable HTTP server. Its initialize
// reply is an SSE stream with CRLF line ends, a comment, an empty priming
// event, a notification split over two data lines, and an event that is not
// JSON. "big" answers a 4 KiB JSON body; "lost" answers a body without the
// response; "teapot" answers 418; "linger" answers on an event stream that
// it then keeps open until the client goes. Requests after initialize
// without the session and version headers get 400. GET and DELETE get 405.
func fakeHTTPHandler(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var m message
	_ = json.Unmarshal(body, &m)
	if m.Method != "initialize" && (r.Header.Get("Mcp-Session-Id") != "s-1" || r.Header.Get("MCP-Protocol-Version") != "2025-03-26") {
		http.Error(w, "missing headers", http.StatusBadRequest)
		return
	}
	switch m.Method {
	case "initialize":
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Mcp-Session-Id", "s-1")
		fmt.Fprint(w, ": hello\r\nid: prime\r\ndata:\r\n\r\n"+
			"id: e1\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\r\ndata: \"params\":{\"level\":\"info\",\"data\":\"hi\"}}\r\n\r\n"+
			"data: not json\n\n"+
			"id: e2\ndata: {\"jsonrpc\":\"2.0\",\"id\":"+string(m.ID)+",\"result\":{\"protocolVersion\":\"2025-03-26\",\"serverInfo\":{\"name\":\"fake-http\",\"version\":\"1\"}}}\n\n")
	case "big":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"x":"%s"}}`, m.ID, strings.Repeat("x", 4096))
	case "lost":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","method":"notifications/progress"}`)
	case "teapot":
		http.Error(w, strings.Repeat("tea ", 100), http.StatusTeapot)
	case "linger":
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("X-Lingered", "yes")
		fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{}}\n\n", m.ID)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

func TestFakeHTTPServer(t *testing.T) {
	lingerEnded := make(chan struct{}, 1)
	srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fakeHTTPHandler(w, r)
		if w.Header().Get("X-Lingered") != "" {
			lingerEnded <- struct{}{}
		}
	}))
	rec := &recorder{}
	var notes []Notification
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL}, Options{
		Tap:             rec.tap,
		ProtocolVersion: "2025-03-26",
		MaxFrameSize:    1024,
		OnNotification:  func(n Notification) { notes = append(notes, n) },
	})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	ctx := testContext(t)

	t.Run("SSE events", func(t *testing.T) {
		if len(notes) != 1 || string(notes[0].Params) != `{"level":"info","data":"hi"}` {
			t.Errorf("notifications = %+v", notes)
		}
		f := rec.waitFind(t, Inbound, KindMessage, "notifications/message")
		if f.HTTP.EventID != "e1" || !strings.Contains(string(f.Body), "\n") {
			t.Errorf("frame = %q, %+v", f.Body, f.HTTP)
		}
		if f := rec.waitFind(t, Inbound, KindParseError, "not json"); f.HTTP.EventID != "" {
			t.Errorf("frame = %+v", f.HTTP)
		}
		if f := rec.waitFind(t, Inbound, KindMessage, "fake-http"); f.HTTP.EventID != "e2" || f.HTTP.Header.Get("Mcp-Session-Id") != "s-1" {
			t.Errorf("frame = %+v", f.HTTP)
		}
		if n := len(rec.find(Inbound, KindParseError, "")); n != 1 {
			t.Errorf("%d parse errors, want 1 (the priming event is not a frame)", n)
		}
	})

	tests := []struct{ method, want string }{
		{"big", "inbound frame larger than the 1024-byte limit"},
		{"lost", "the server's HTTP reply ended without the response"},
		{"teapot", "HTTP 418 I'm a teapot: tea tea"},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			_, err := c.Call(ctx, tt.method, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			if len(err.Error()) > 400 {
				t.Errorf("error is %d bytes long", len(err.Error()))
			}
		})
	}
	t.Run("a reply stream kept open is closed soon after the response", func(t *testing.T) {
		if _, err := c.Call(ctx, "linger", nil); err != nil {
			t.Fatal(err)
		}
		select {
		case <-lingerEnded:
		case <-time.After(5 * time.Second):
			t.Fatal("the reply stream is still open")
		}
	})
	if f := rec.waitFind(t, Inbound, KindParseError, `"result":{"x":"xxx`); len(f.Body) != 1024 {
		t.Errorf("oversized frame recorded with %d bytes", len(f.Body))
	}
	if err := c.Notify(ctx, "notifications/roots/list_changed", nil); err != nil {
		t.Errorf("Notify: %v", err)
	}
}
