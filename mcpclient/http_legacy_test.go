package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// legacyFake is a hand-written legacy Streamable HTTP server that misbehaves
// on purpose. Sessions are "s-1", "s-2", ...; forget makes it answer the
// current one with goneStatus. "drop" answers with an SSE priming event
// (id d1, retry 300ms) and closes the stream without the response, which a
// GET with Last-Event-ID d1 then delivers (and the stream stays open).
// The standalone GET stream sends notification A (id g1, retry 100ms) and
// ends; reopened with Last-Event-ID g1 it sends notification B and stays
// open.
type legacyFake struct {
	goneStatus int
	goneBody   string

	mu        sync.Mutex
	session   string
	sessions  int
	dropID    json.RawMessage
	droppedAt time.Time
	gets      []fakeGet
}

type fakeGet struct {
	lastEventID string
	at          time.Time
}

func (f *legacyFake) forget() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.session = ""
}

func (f *legacyFake) getsWith(lastEventID string) []fakeGet {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []fakeGet
	for _, g := range f.gets {
		if g.lastEventID == lastEventID {
			out = append(out, g)
		}
	}
	return out
}

func (f *legacyFake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.Method == http.MethodDelete {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	body, _ := io.ReadAll(r.Body)
	m, _ := decodeMessage(body)
	if r.Method == http.MethodPost && m != nil && m.Method == "initialize" {
		f.sessions++
		f.session = fmt.Sprintf("s-%d", f.sessions)
		w.Header().Set("Mcp-Session-Id", f.session)
		writeJSON(w, 200, m.ID, map[string]any{"protocolVersion": "2025-11-25", "serverInfo": map[string]any{"name": "legacy-fake", "version": "1"}, "capabilities": map[string]any{}}, nil)
		return
	}
	if r.Header.Get("Mcp-Session-Id") != f.session || f.session == "" {
		http.Error(w, f.goneBody, f.goneStatus)
		return
	}
	if r.Method == http.MethodGet {
		last := r.Header.Get("Last-Event-ID")
		f.gets = append(f.gets, fakeGet{last, time.Now()})
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		switch last {
		case "":
			fmt.Fprint(w, "id: g1\nretry: 100\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/A\"}\n\n")
			return
		case "g1":
			fmt.Fprint(w, "id: g2\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/B\"}\n\n")
		case "d1":
			fmt.Fprintf(w, "id: d2\ndata: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"resumed\":true}}\n\n", f.dropID)
		}
		w.(http.Flusher).Flush()
		f.mu.Unlock()
		<-r.Context().Done()
		f.mu.Lock()
		return
	}
	switch {
	case m == nil || m.isNotification() || m.isResponse():
		w.WriteHeader(http.StatusAccepted)
	case m.Method == "drop":
		f.dropID = m.ID
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		fmt.Fprint(w, "id: d1\nretry: 300\ndata:\n\n")
		f.droppedAt = time.Now()
	default:
		writeJSON(w, 200, m.ID, map[string]any{"method": m.Method}, nil)
	}
}

func connectLegacyFake(t *testing.T, f *legacyFake, opts Options) *Client {
	t.Helper()
	srv := newLoopbackServer(t, f)
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL}, opts)
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	return c
}

func TestHTTPResumeDroppedStream(t *testing.T) {
	f := &legacyFake{goneStatus: 404}
	rec := &recorder{}
	c := connectLegacyFake(t, f, Options{Tap: rec.tap})
	res, err := c.Call(testContext(t), "drop", nil)
	if err != nil || string(res) != `{"resumed":true}` {
		t.Fatalf("drop: %s, %v", res, err)
	}
	gets := f.getsWith("d1")
	if len(gets) != 1 {
		t.Fatalf("%d GETs with Last-Event-ID d1, want 1", len(gets))
	}
	f.mu.Lock()
	waited := gets[0].at.Sub(f.droppedAt)
	f.mu.Unlock()
	if waited < 290*time.Millisecond {
		t.Errorf("resumed %v after the stream dropped; the server asked for 300ms", waited)
	}
	rec.waitFind(t, Inbound, KindTransport, `the response stream of drop (id `)
	rec.waitFind(t, Inbound, KindTransport, `resuming with Last-Event-ID "d1" in 300ms`)
	prime := rec.waitFind(t, Inbound, KindTransport, `SSE event without data (id "d1", retry 300ms)`)
	if prime.HTTP.EventID != "d1" || prime.HTTP.Retry != 300*time.Millisecond {
		t.Errorf("priming event info = %+v", prime.HTTP)
	}
	resp := rec.waitFind(t, Inbound, KindMessage, `"resumed":true`)
	if resp.HTTP.Method != http.MethodGet || resp.HTTP.EventID != "d2" || resp.HTTP.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("resumed response came in %+v", resp.HTTP)
	}
}

func TestHTTPStandaloneStreamReopens(t *testing.T) {
	f := &legacyFake{goneStatus: 404}
	rec := &recorder{}
	notes := make(chan string, 10)
	connectLegacyFake(t, f, Options{Tap: rec.tap, OnNotification: func(n Notification) { notes <- n.Method }})
	for _, want := range []string{"notifications/A", "notifications/B"} {
		select {
		case got := <-notes:
			if got != want {
				t.Errorf("notification %s, want %s", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no %s", want)
		}
	}
	first, again := f.getsWith(""), f.getsWith("g1")
	if len(first) != 1 || len(again) != 1 {
		t.Fatalf("GETs: %d without Last-Event-ID, %d with g1", len(first), len(again))
	}
	if d := again[0].at.Sub(first[0].at); d < 95*time.Millisecond {
		t.Errorf("reopened after %v; the server asked for 100ms", d)
	}
	rec.waitFind(t, Inbound, KindTransport, `standalone event stream ended; reopening in 100ms (Last-Event-ID "g1")`)
	a := rec.waitFind(t, Inbound, KindMessage, "notifications/A")
	if a.HTTP.EventType != "message" || a.HTTP.EventID != "g1" || a.HTTP.Elapsed <= 0 {
		t.Errorf("notification A info = %+v", a.HTTP)
	}
	rec.waitFind(t, Outbound, KindTransport, `GET event stream (Last-Event-ID "g1")`)
}

func TestHTTPSessionGone(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		renew  bool
	}{
		{"404", 404, "session not found", true},
		{"400 about the session", 400, "Bad Request: No valid session ID provided", true},
		{"400 about something else", 400, "Bad Request: malformed", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := &legacyFake{goneStatus: tt.status, goneBody: tt.body}
			rec := &recorder{}
			c := connectLegacyFake(t, f, Options{Tap: rec.tap})
			f.forget()
			res, err := c.Call(testContext(t), "echo", nil)
			if !tt.renew {
				if err == nil || !strings.Contains(err.Error(), "HTTP 400 Bad Request: Bad Request: malformed") {
					t.Fatalf("echo: %s, %v", res, err)
				}
				return
			}
			if err != nil || string(res) != `{"method":"echo"}` {
				t.Fatalf("echo: %s, %v", res, err)
			}
			rec.waitFind(t, Inbound, KindTransport, `session "s-1" is gone`)
			rec.waitFind(t, Inbound, KindTransport, `new session "s-2" started`)
			rec.waitFind(t, Inbound, KindTransport, `sending echo (id `)
			if c.InitializeResult().ServerInfo.Name != "legacy-fake" {
				t.Errorf("InitializeResult = %+v", c.InitializeResult())
			}
		})
	}
}

func TestHTTPSessionGoneOnlyOnce(t *testing.T) {
	// The server forgets every session at once: the renewed request fails
	// instead of looping.
	var f *legacyFake
	f = &legacyFake{goneStatus: 404, goneBody: "session not found"}
	srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Session-Id") != "" && r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			if !strings.Contains(string(body), "notifications/initialized") {
				http.Error(w, "session not found", http.StatusNotFound)
				return
			}
			r.Body = io.NopCloser(strings.NewReader(string(body)))
		}
		f.ServeHTTP(w, r)
	}))
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := c.Call(ctx, "echo", nil); err == nil || !strings.Contains(err.Error(), "session expired") {
		t.Fatalf("echo: %v", err)
	}
}
