package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// unmatched collects what Options.OnUnmatched receives.
type unmatched struct {
	mu     sync.Mutex
	bodies []string
}

func (u *unmatched) add(b []byte) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.bodies = append(u.bodies, string(b))
}

// wait returns the first body containing s, waiting a few seconds for it.
func (u *unmatched) wait(t *testing.T, s string) string {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		u.mu.Lock()
		for _, b := range u.bodies {
			if strings.Contains(b, s) {
				u.mu.Unlock()
				return b
			}
		}
		u.mu.Unlock()
	}
	t.Fatalf("OnUnmatched got nothing containing %q", s)
	return ""
}

// waitExact waits for a message frame of direction dir whose body is
// exactly body.
func waitExact(t *testing.T, rec *recorder, dir Direction, body string) Frame {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		for _, f := range rec.find(dir, KindMessage, body) {
			if string(f.Body) == body {
				return f
			}
		}
	}
	t.Fatalf("no %s frame with body %q", dir, body)
	return Frame{}
}

func TestSendRawStdio(t *testing.T) {
	um := &unmatched{}
	c, rec, _ := connectFake(t, Options{OnUnmatched: um.add})
	ctx := testContext(t)
	tests := []struct {
		name  string
		frame string
		reply string // a substring of the unmatched reply; "" for none
	}{
		{"malformed JSON", `{"jsonrpc":"2.0","id":`, `"id":null,"error":{"code":-32700`},
		{"request with a foreign id", `{"jsonrpc":"2.0","id":"raw-1","method":"unknown/method"}`, `"id":"raw-1","error":{"code":-32601`},
		{"wrong jsonrpc value", `{"jsonrpc":"1.0","id":777,"method":"nope"}`, `"id":777,"error"`},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/whatever"}`, ""},
		{"not even JSON", "hello there", `"id":null,"error":{"code":-32700`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := c.SendRaw(ctx, []byte(tt.frame)); err != nil {
				t.Fatal(err)
			}
			waitExact(t, rec, Outbound, tt.frame)
			if tt.reply != "" {
				um.wait(t, tt.reply)
				rec.waitFind(t, Inbound, KindMessage, tt.reply)
			}
		})
	}
	t.Run("a reused id steals the reply", func(t *testing.T) {
		// A raw request reusing the id of a waiting call: the call gets
		// the first reply with that id, here the raw request's -32601.
		done := make(chan error, 1)
		go func() {
			_, err := c.Call(ctx, "hang", nil)
			done <- err
		}()
		f := rec.waitFind(t, Outbound, KindMessage, `"method":"hang"`)
		var m message
		if err := json.Unmarshal(f.Body, &m); err != nil {
			t.Fatal(err)
		}
		if err := c.SendRaw(ctx, []byte(`{"jsonrpc":"2.0","id":`+string(m.ID)+`,"method":"duplicate"}`)); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-done:
			var rpcErr *RPCError
			if !errors.As(err, &rpcErr) || rpcErr.Code != -32601 {
				t.Errorf("hang call err = %v, want the -32601 meant for the raw duplicate", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the pending call did not get the duplicate's reply")
		}
	})
	if _, err := c.Call(ctx, "ping", nil); !errors.As(err, new(*RPCError)) {
		t.Errorf("session unusable after raw frames: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.SendRaw(ctx, []byte("{}")); !errors.Is(err, ErrClosed) {
		t.Errorf("SendRaw after Close: %v", err)
	}
}

func TestSendRawHTTP(t *testing.T) {
	for _, tt := range []struct {
		name  string
		hopts *mcp.StreamableHTTPOptions
	}{{"http-sse", &mcp.StreamableHTTPOptions{}}, {"http-json", &mcp.StreamableHTTPOptions{JSONResponse: true}}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			um := &unmatched{}
			rec := &recorder{}
			c := connectSDKHTTP(t, Options{Tap: rec.tap, OnUnmatched: um.add}, tt.hopts)
			ctx := testContext(t)

			t.Run("request", func(t *testing.T) {
				frame := `{"jsonrpc":"2.0","id":"raw-1","method":"tools/call","params":{"name":"echo","arguments":{"text":"raw!"}}}`
				if err := c.SendRaw(ctx, []byte(frame)); err != nil {
					t.Fatal(err)
				}
				f := rec.waitFind(t, Outbound, KindMessage, `"raw-1"`)
				if string(f.Body) != frame || f.HTTP == nil || f.HTTP.Method != http.MethodPost || f.HTTP.Header.Get("Mcp-Session-Id") == "" {
					t.Errorf("recorded %q %+v", f.Body, f.HTTP)
				}
				if got := um.wait(t, `"id":"raw-1"`); !strings.Contains(got, "raw!") {
					t.Errorf("reply = %s", got)
				}
			})
			t.Run("malformed", func(t *testing.T) {
				frame := []byte(`{"jsonrpc":"2.0","id":5,"method":`)
				err := c.SendRaw(ctx, frame)
				if err == nil || !strings.Contains(err.Error(), "HTTP 400") {
					t.Errorf("err = %v, want HTTP 400", err)
				}
				if f := waitExact(t, rec, Outbound, string(frame)); f.HTTP == nil || f.HTTP.Method != http.MethodPost {
					t.Errorf("recorded %+v", f.HTTP)
				}
				if f := rec.waitFind(t, Inbound, KindTransport, "HTTP 400"); f.HTTP.Status != 400 {
					t.Errorf("status frame %+v", f.HTTP)
				}
				// The SDK answers with a plain-text body: recorded as a parse error.
				if len(rec.find(Inbound, KindParseError, "")) == 0 && len(rec.find(Inbound, KindMessage, "-32700")) == 0 {
					t.Error("the error body was not recorded")
				}
			})
			t.Run("notification", func(t *testing.T) {
				if err := c.SendRaw(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)); err != nil {
					t.Fatal(err)
				}
			})
			if _, err := c.CallTool(ctx, "echo", json.RawMessage(`{"text":"still here"}`)); err != nil {
				t.Errorf("session unusable after raw frames: %v", err)
			}
		})
	}
}

func TestSendRawTimeout(t *testing.T) {
	srv := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m message
		_ = json.NewDecoder(r.Body).Decode(&m)
		if m.Method == "initialize" {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","serverInfo":{"name":"slow","version":"1"}}}`))
			return
		}
		if m.Method == "notifications/initialized" || r.Method != http.MethodPost {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		<-r.Context().Done() // never answers
	}))
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL}, Options{RequestTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	start := time.Now()
	err = c.SendRaw(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"x"}`))
	if err == nil || time.Since(start) > 2*time.Second {
		t.Errorf("err = %v after %v", err, time.Since(start))
	}
}
