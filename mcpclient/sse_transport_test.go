package mcpclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestConnectSSEServerEverything(t *testing.T) {
	base := startEverything(t, "sse")
	rec := &recorder{}
	c, err := ConnectSSE(testContext(t), HTTPConfig{URL: base + "/sse"}, Options{Tap: rec.tap})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	if c.Era() != EraLegacy || c.InitializeResult().ServerInfo.Name == "" {
		t.Errorf("era %s, init %+v", c.Era(), c.InitializeResult())
	}
	ctx := testContext(t)
	tools, err := c.ListTools(ctx)
	if err != nil || len(tools) == 0 {
		t.Fatalf("ListTools: %d, %v", len(tools), err)
	}
	res, err := c.CallTool(ctx, "echo", json.RawMessage(`{"message":"over SSE"}`))
	if err != nil || res.IsError || !strings.Contains(res.Content[0].Text, "over SSE") {
		t.Fatalf("echo: %+v, %v", res, err)
	}
	ep := rec.waitFind(t, Inbound, KindTransport, "endpoint event: ")
	if ep.HTTP.EventType != "endpoint" || ep.HTTP.Method != http.MethodGet {
		t.Errorf("endpoint event info = %+v", ep.HTTP)
	}
	post := rec.waitFind(t, Outbound, KindMessage, `"method":"tools/call"`)
	if post.HTTP.Method != http.MethodPost || !strings.HasPrefix(post.HTTP.URL, base) || post.HTTP.URL == base+"/sse" {
		t.Errorf("POST went to %s", post.HTTP.URL)
	}
	reply := rec.waitFind(t, Inbound, KindMessage, "over SSE")
	if reply.HTTP.Method != http.MethodGet || reply.HTTP.EventType != "message" {
		t.Errorf("reply came in %+v", reply.HTTP)
	}
}

func TestConnectHTTPAutoFallsBackToSSE(t *testing.T) {
	base := startEverything(t, "sse")
	rec := &recorder{}
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: base + "/sse"}, Options{Tap: rec.tap, Era: EraAuto})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	if _, ok := c.t.(*sseTransport); !ok || c.Era() != EraLegacy {
		t.Fatalf("transport %T, era %s", c.t, c.Era())
	}
	if _, err := c.ListTools(testContext(t)); err != nil {
		t.Fatal(err)
	}
	rec.waitFind(t, Inbound, KindTransport, "era auto: the endpoint refused initialize")
}

// fakeSSEServer is a hand-written HTTP+SSE server: the endpoint event is a
// relative URL; each POST is answered 202 and its response sent on the
// stream; "bye" ends the stream.
func fakeSSEServer(t *testing.T) string {
	var mu sync.Mutex
	streams := map[string]chan string{}
	srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/sse/events":
			ch := make(chan string, 10)
			mu.Lock()
			streams["1"] = ch
			mu.Unlock()
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: endpoint\ndata: ../post?session=1\n\n")
			w.(http.Flusher).Flush()
			for {
				select {
				case msg := <-ch:
					if msg == "" {
						return
					}
					fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg)
					w.(http.Flusher).Flush()
				case <-r.Context().Done():
					return
				}
			}
		case r.Method == http.MethodPost && r.URL.Path == "/post" && r.URL.Query().Get("session") == "1":
			var m message
			_ = json.NewDecoder(r.Body).Decode(&m)
			mu.Lock()
			ch := streams["1"]
			mu.Unlock()
			w.WriteHeader(http.StatusAccepted)
			switch m.Method {
			case "initialize":
				ch <- fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2024-11-05","serverInfo":{"name":"sse-fake","version":"1"},"capabilities":{}}}`, m.ID)
			case "bye":
				ch <- ""
			case "":
			default:
				if len(m.ID) > 0 {
					ch <- fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"echo":%q}}`, m.ID, m.Method)
				}
			}
		default:
			http.NotFound(w, r)
		}
	}))
	return srv.URL + "/sse/events"
}

func TestConnectSSEFake(t *testing.T) {
	rec := &recorder{}
	c, err := ConnectSSE(testContext(t), HTTPConfig{URL: fakeSSEServer(t)}, Options{Tap: rec.tap, ProtocolVersion: "2024-11-05"})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	if v := c.ProtocolVersion(); v != "2024-11-05" {
		t.Errorf("version %s", v)
	}
	if res, err := c.Call(testContext(t), "ping-me", nil); err != nil || string(res) != `{"echo":"ping-me"}` {
		t.Fatalf("call: %s, %v", res, err)
	}
	rec.waitFind(t, Inbound, KindTransport, "messages go to http://127.0.0.1:")
	_, _ = c.Call(testContext(t), "bye", nil)
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the connection did not end with the stream")
	}
	if err := c.Err(); err == nil || !strings.Contains(err.Error(), "the server closed the event stream") {
		t.Errorf("Err() = %v", err)
	}
}

func TestConnectSSEFailures(t *testing.T) {
	if _, err := ConnectSSE(testContext(t), HTTPConfig{URL: "http://127.0.0.1:1/sse"}, Options{Era: EraModern}); err == nil ||
		!strings.Contains(err.Error(), "no modern era") {
		t.Errorf("modern: %v", err)
	}
	noEndpoint := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {}\n\n")
	}))
	_, err := ConnectSSE(testContext(t), HTTPConfig{URL: noEndpoint.URL}, Options{})
	if err == nil || !strings.Contains(err.Error(), "no endpoint event") {
		t.Errorf("no endpoint: %v", err)
	}
	notFound := newLoopbackServer(t, http.NotFoundHandler())
	_, err = ConnectSSE(testContext(t), HTTPConfig{URL: notFound.URL}, Options{})
	var status *HTTPStatusError
	if !errors.As(err, &status) || status.Status != 404 {
		t.Errorf("404: %v", err)
	}
}
