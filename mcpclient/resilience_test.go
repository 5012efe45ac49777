package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestServerDeathFailsEveryPendingCall(t *testing.T) {
	c, rec, _ := connectFake(t, Options{})
	ctx := testContext(t)
	const hung = 5
	errs := make(chan error, hung+1)
	for range hung {
		go func() {
			_, err := c.Call(ctx, "hang", nil)
			errs <- err
		}()
	}
	for deadline := time.Now().Add(5 * time.Second); len(rec.find(Outbound, KindMessage, `"method":"hang"`)) < hung; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("hang calls not sent")
		}
	}
	start := time.Now()
	go func() {
		_, err := c.Call(ctx, "exit", nil)
		errs <- err
	}()
	want := "server process exited: exit status 7; stderr: fake server starting | fatal: asked to exit"
	for range hung + 1 {
		select {
		case err := <-errs:
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("err = %v, want %q", err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a pending call was not failed")
		}
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("failing the pending calls took %v", d)
	}
}

func TestGarbageLinesDoNotEndTheSession(t *testing.T) {
	// The fake server sends a garbage line before its initialize reply.
	c, rec, _ := connectFake(t, Options{})
	rec.waitFind(t, Inbound, KindParseError, "this is not JSON")
	if _, err := c.Call(testContext(t), "ping", nil); !strings.Contains(fmt.Sprint(err), "Method not found") {
		t.Errorf("call after garbage: %v", err)
	}
}

// garbageHTTPHandler answers initialize, then "garbage" with a 200 JSON
// body that is not JSON and "echo" with a result.
func garbageHTTPHandler(w http.ResponseWriter, r *http.Request) {
	var m message
	_ = json.NewDecoder(r.Body).Decode(&m)
	w.Header().Set("Content-Type", "application/json")
	switch m.Method {
	case "initialize":
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","serverInfo":{"name":"garbage","version":"1"}}}`, m.ID)
	case "garbage":
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":`+string(m.ID)+`,"result":`) // cut short
	case "echo":
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"ok":true}}`, m.ID)
	default:
		w.WriteHeader(http.StatusAccepted)
	}
}

func TestGarbageHTTPBodyDoesNotEndTheSession(t *testing.T) {
	srv := newLoopbackServer(t, http.HandlerFunc(garbageHTTPHandler))
	rec := &recorder{}
	c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL}, Options{Tap: rec.tap})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	ctx := testContext(t)
	_, err = c.Call(ctx, "garbage", nil)
	if err == nil || !strings.Contains(err.Error(), "the server's HTTP reply ended without the response") {
		t.Errorf("err = %v", err)
	}
	if f := rec.waitFind(t, Inbound, KindParseError, `"result":`); f.HTTP == nil || f.HTTP.Status != 200 {
		t.Errorf("parse error frame %+v", f.HTTP)
	}
	if res, err := c.Call(ctx, "echo", nil); err != nil || string(res) != `{"ok":true}` {
		t.Errorf("call after garbage: %s, %v", res, err)
	}
}

func TestConnectionEndWhileServingAServerRequest(t *testing.T) {
	// A Handler still working when the Client closes gets its ctx cancelled
	// and Close waits for it.
	started := make(chan struct{})
	finished := make(chan struct{})
	h := HandlerFunc(func(ctx context.Context, _ string, _ json.RawMessage) (json.RawMessage, error) {
		close(started)
		<-ctx.Done()
		close(finished)
		return nil, ctx.Err()
	})
	c, _, _ := connectFake(t, Options{Handler: h})
	called := make(chan error, 1)
	go func() {
		_, err := c.Call(context.Background(), "ask", nil)
		called <- err
	}()
	<-started
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-finished:
	default:
		t.Error("Close returned before the handler")
	}
	select {
	case err := <-called:
		if !errors.Is(err, ErrClosed) {
			t.Errorf("pending call ended with %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("the pending call did not end with the connection")
	}
}
