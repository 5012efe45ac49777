package backend_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/sdktest"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

func httpServer(name, url string) backend.Server {
	return backend.Server{Name: name, Transport: backend.TransportHTTP, URL: url}
}

// MustGetSession reads a session from the database.
func (e *env) MustGetSession(tb testing.TB, id int64) backend.Session {
	tb.Helper()
	s, err := e.DB.GetSession(backendtest.Context(tb), id)
	if err != nil {
		tb.Fatalf("GetSession(%d): %v", id, err)
	}
	return s
}

// waitEnded waits for the hub to report that the session ended and
// returns the session as stored.
func (e *env) waitEnded(tb testing.TB, sub *backend.Subscription, id int64) backend.Session {
	tb.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, ok := <-sub.C:
			if !ok {
				tb.Fatal("subscription ended before the session did")
			}
			if ev.Session != nil && !ev.Session.Live() {
				return e.MustGetSession(tb, id)
			}
		case <-timeout:
			tb.Fatalf("session %d did not end; stored: %+v", id, e.MustGetSession(tb, id))
		}
	}
}

// refusedURL returns an http URL on loopback where nothing listens.
func refusedURL(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/mcp"
}

func TestPoolHTTPSession(t *testing.T) {
	e := MustEnv(t)
	ctx := backendtest.Context(t)
	srvID := e.MustServer(t, httpServer("sdk", MustSDKHTTPServer(t)))

	sess := e.MustConnect(t, srvID)
	if sess.ID == 0 || sess.Status != backend.SessionOpen || sess.ProtocolVersion != "2025-11-25" || sess.PeerName != "sdk-test" ||
		sess.PeerVersion != "1.0" || sess.ServerID != srvID || sess.ServerName != "sdk" || sess.Transport != backend.TransportHTTP {
		t.Errorf("Connect = %+v", sess)
	}
	stored := e.MustGetSession(t, sess.ID)
	if stored.Status != backend.SessionOpen || stored.ProtocolVersion != "2025-11-25" || stored.PeerName != "sdk-test" {
		t.Errorf("stored session = %+v", stored)
	}
	if live, ok := e.Pool.LiveSession(srvID); !ok || live.ID != sess.ID {
		t.Errorf("LiveSession = %+v, %v", live, ok)
	}
	if !e.Pool.IsLive(sess.ID) {
		t.Error("IsLive = false")
	}

	t.Run("tools", func(t *testing.T) {
		tools, err := e.Pool.Tools(ctx, sess.ID, false)
		if err != nil {
			t.Fatalf("Tools: %v", err)
		}
		var names []string
		for _, tl := range tools {
			names = append(names, tl.Name)
		}
		if strings.Join(names, ",") != "echo,hang,log,pid,progress_hang" {
			t.Errorf("tools = %v", names)
		}
		if _, err := e.Pool.Tools(ctx, sess.ID, false); err != nil { // cached
			t.Fatal(err)
		}
		echo, err := e.Pool.Tool(ctx, sess.ID, "echo")
		if err != nil || !json.Valid(echo.InputSchema) {
			t.Errorf("Tool(echo) = %+v, %v", echo, err)
		}
		_, err = e.Pool.Tool(ctx, sess.ID, "nope")
		if backend.ErrorCodeOf(err) != backend.ENotFound {
			t.Errorf("Tool(nope) error = %v, want ENotFound", err)
		}
		if err := e.Rec.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		if n := countFrames(t, e, sess.ID, "tools/list", backend.RPCRequest); n != 1 {
			t.Errorf("tools/list sent %d times, want once (cached)", n)
		}
		if _, err := e.Pool.Tools(ctx, sess.ID, true); err != nil {
			t.Fatal(err)
		}
		e.Rec.Flush(ctx)
		if n := countFrames(t, e, sess.ID, "tools/list", backend.RPCRequest); n != 2 {
			t.Errorf("tools/list sent %d times after refresh, want 2", n)
		}
	})

	t.Run("call succeeds", func(t *testing.T) {
		res, err := e.Pool.Call(ctx, sess.ID, "tools/call", json.RawMessage(`{"name":"echo","arguments":{"text":"hello"}}`))
		if err != nil {
			t.Fatalf("Call: %v", err)
		}
		var out mcpclient.CallToolResult
		if res.Error != nil || json.Unmarshal(res.Result, &out) != nil || len(out.Content) != 1 || out.Content[0].Text != "hello" || out.IsError {
			t.Errorf("Call result = %s, error %+v", res.Result, res.Error)
		}
		if res.Latency <= 0 {
			t.Errorf("latency %v", res.Latency)
		}
	})

	t.Run("unknown method refused at the HTTP level", func(t *testing.T) {
		// The Go SDK (v1.8.0, legacy protocol era) answers an unknown
		// method over Streamable HTTP with a plain HTTP 400, not a
		// JSON-RPC error: no response came, so Call returns a Go error.
		res, err := e.Pool.Call(ctx, sess.ID, "no/such/method", nil)
		if backend.ErrorCodeOf(err) != backend.EUnavailable || !strings.Contains(backend.ErrorMessageOf(err), "400") {
			t.Errorf("Call = %+v, %v; want an EUnavailable error naming HTTP 400", res, err)
		}
	})

	t.Run("no response in time", func(t *testing.T) {
		cctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		_, err := e.Pool.Call(cctx, sess.ID, "tools/call", json.RawMessage(`{"name":"hang","arguments":{}}`))
		if backend.ErrorCodeOf(err) != backend.EUnavailable || !strings.Contains(backend.ErrorMessageOf(err), "timed out") {
			t.Errorf("Call on a hanging tool = %v, want an EUnavailable timeout", err)
		}
	})

	t.Run("traffic recorded and paired", func(t *testing.T) {
		if err := e.Rec.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		frames, err := e.DB.ListFrames(ctx, backend.FrameQuery{SessionID: sess.ID})
		if err != nil {
			t.Fatal(err)
		}
		byID := map[int64]backend.Frame{}
		for _, f := range frames {
			byID[f.ID] = f
		}
		var sawInit, sawCall bool
		for _, f := range frames {
			if f.RPCType != backend.RPCRequest || f.Direction != mcpclient.Outbound {
				continue
			}
			resp, ok := byID[f.PairID]
			switch f.Method {
			case "initialize":
				sawInit = ok && resp.RPCType == backend.RPCResult && resp.PairID == f.ID && resp.LatencyNS > 0 && resp.LatencyNS == f.LatencyNS
			case "tools/call":
				sawCall = sawCall || (ok && resp.RPCType == backend.RPCResult && resp.Method == "tools/call" && resp.Direction == mcpclient.Inbound)
			}
			if f.HTTP == nil || f.HTTP.Method != "POST" {
				t.Errorf("request frame %d has no HTTP info: %+v", f.ID, f.HTTP)
			}
		}
		if !sawInit || !sawCall {
			t.Errorf("initialize paired %v, tools/call paired %v; frames: %+v", sawInit, sawCall, frames)
		}
	})
	t.Run("deleting a connected server is refused", func(t *testing.T) {
		err := e.Reg.Delete(ctx, srvID)
		if backend.ErrorCodeOf(err) != backend.EConflict {
			t.Errorf("Delete of a connected server = %v, want EConflict", err)
		}
	})

	t.Run("disconnect", func(t *testing.T) {
		if err := e.Pool.Disconnect(ctx, sess.ID); err != nil {
			t.Fatalf("Disconnect: %v", err)
		}
		s := e.MustGetSession(t, sess.ID)
		if s.Status != backend.SessionClosed || s.CloseReason != "closed by the user" || s.EndedAt.IsZero() {
			t.Errorf("after Disconnect: %+v", s)
		}
		if e.Pool.IsLive(sess.ID) {
			t.Error("still live after Disconnect")
		}
		if _, ok := e.Pool.LiveSession(srvID); ok {
			t.Error("LiveSession still reports the session")
		}
		if err := e.Pool.Disconnect(ctx, sess.ID); backend.ErrorCodeOf(err) != backend.EConflict {
			t.Errorf("second Disconnect = %v, want EConflict", err)
		}
		if _, err := e.Pool.Call(ctx, sess.ID, "ping", nil); backend.ErrorCodeOf(err) != backend.EConflict {
			t.Errorf("Call after Disconnect = %v, want EConflict", err)
		}
		if err := e.Reg.Delete(ctx, srvID); err != nil {
			t.Errorf("Delete after Disconnect: %v", err)
		}
	})
}

func countFrames(t *testing.T, e *env, sessionID int64, method string, typ backend.RPCType) int {
	t.Helper()
	frames, err := e.DB.ListFrames(backendtest.Context(t), backend.FrameQuery{SessionID: sessionID})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range frames {
		if f.Method == method && f.RPCType == typ {
			n++
		}
	}
	return n
}

func TestPoolConnectFailures(t *testing.T) {
	e := MustEnv(t)
	// A program that is there when saved and gone when connected.
	gone := filepath.Join(t.TempDir(), "mcp-server")
	if err := os.WriteFile(gone, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		server backend.Server
		reason string // substring of the stored reason
	}{
		{"refused URL", httpServer("refused", refusedURL(t)), "connect failed"},
		{"stdio server exits at once", backend.Server{Name: "exits", Transport: backend.TransportStdio, Command: "sh", Args: []string{"-c", "exit 3"}}, "connect failed"},
		{"stdio command missing", backend.Server{Name: "missing", Transport: backend.TransportStdio, Command: gone}, "connect failed"},
		{"stdio server writes garbage and exits", backend.Server{Name: "garbage", Transport: backend.TransportStdio, Command: "sh",
			Args: []string{"-c", "read line; echo not-json; echo oops >&2; exit 4"}}, "exit status 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := backendtest.Context(t)
			srvID := e.MustServer(t, tt.server)
			if tt.server.Command == gone {
				if err := os.Remove(gone); err != nil {
					t.Fatal(err)
				}
			}
			sess, err := e.Pool.Connect(ctx, srvID)
			if backend.ErrorCodeOf(err) != backend.EUnavailable {
				t.Fatalf("Connect error = %v, want EUnavailable", err)
			}
			if sess.ID == 0 || sess.Status != backend.SessionFailed {
				t.Fatalf("returned session = %+v, want a failed session with an id", sess)
			}
			if !strings.Contains(backend.ErrorMessageOf(err), tt.reason) {
				t.Errorf("error message %q does not contain %q", backend.ErrorMessageOf(err), tt.reason)
			}
			stored := e.MustGetSession(t, sess.ID)
			if stored.Status != backend.SessionFailed || !strings.Contains(stored.CloseReason, tt.reason) || stored.EndedAt.IsZero() ||
				stored.CloseReason != sess.CloseReason {
				t.Errorf("stored session = %+v", stored)
			}
			if e.Pool.IsLive(sess.ID) {
				t.Error("a failed session is live")
			}
			if err := e.Rec.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			frames, _ := e.DB.ListFrames(ctx, backend.FrameQuery{SessionID: sess.ID})
			noted := false
			for _, f := range frames {
				noted = noted || (f.Kind == mcpclient.KindTransport && strings.Contains(string(f.Body), "connect failed"))
			}
			if !noted {
				t.Errorf("no transport note recording the failure among %d frames", len(frames))
			}
		})
	}

	t.Run("unknown server", func(t *testing.T) {
		_, err := e.Pool.Connect(backendtest.Context(t), 9999)
		if backend.ErrorCodeOf(err) != backend.ENotFound {
			t.Errorf("Connect(9999) = %v, want ENotFound", err)
		}
	})
}

// TestPoolStdioExitReason: when a stdio server exits before the handshake,
// the stored reason must say how it exited and what it last wrote to
// stderr, whatever the timing of the initialize write.
func TestPoolStdioExitReason(t *testing.T) {
	tests := []struct {
		name     string
		script   string
		attempts int
	}{
		// Races the initialize write, which fails with EPIPE in some attempts.
		{"exits at once", "echo 'fatal: API_KEY is not set' >&2; exit 3", 30},
		// Exits while the client waits for the initialize reply.
		{"exits after reading", "read line; echo 'fatal: API_KEY is not set' >&2; exit 3", 1},
	}
	e := MustEnv(t)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srvID := e.MustServer(t, backend.Server{Name: "exits" + strconv.Itoa(i), Transport: backend.TransportStdio, Command: "sh",
				Args: []string{"-c", tt.script}})
			for n := range tt.attempts {
				sess, err := e.Pool.Connect(backendtest.Context(t), srvID)
				if err == nil || sess.Status != backend.SessionFailed {
					t.Fatalf("Connect = %+v, %v; want a failed session", sess, err)
				}
				if !strings.Contains(sess.CloseReason, "exit status 3") || !strings.Contains(sess.CloseReason, "API_KEY is not set") {
					t.Fatalf("attempt %d: failure reason %q hides the server's exit status and stderr "+
						"(mcpclient/stdio.go send returns the EPIPE of the initialize write instead of the process's exit cause)", n+1, sess.CloseReason)
				}
			}
		})
	}
}

func TestPoolStdioServerGoesAway(t *testing.T) {
	e := MustEnv(t)
	ctx := backendtest.Context(t)
	srvID := e.MustServer(t, sdktest.StdioServer("stdio-sdk"))
	sess := e.MustConnect(t, srvID)
	if sess.ProtocolVersion != "2025-11-25" || sess.PeerName != "sdk-test" {
		t.Errorf("session = %+v", sess)
	}
	sub := e.Hub.Subscribe(sess.ID)
	defer sub.Close()

	res, err := e.Pool.Call(ctx, sess.ID, "no/such/method", nil)
	if err != nil {
		t.Fatalf("Call of an unknown method returned a Go error: %v", err)
	}
	if res.Error == nil || res.Error.Code != -32601 || res.Result != nil || res.Latency <= 0 {
		t.Errorf("Call of an unknown method = %+v, want a -32601 error", res)
	}

	res, err = e.Pool.Call(ctx, sess.ID, "tools/call", json.RawMessage(`{"name":"pid","arguments":{}}`))
	if err != nil || res.Error != nil {
		t.Fatalf("pid call: %v %+v", err, res.Error)
	}
	var out mcpclient.CallToolResult
	if err := json.Unmarshal(res.Result, &out); err != nil || len(out.Content) != 1 {
		t.Fatalf("pid result %s", res.Result)
	}
	pid, err := strconv.Atoi(out.Content[0].Text)
	if err != nil || pid <= 1 {
		t.Fatalf("pid %q", out.Content[0].Text)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill %d: %v", pid, err)
	}

	ended := e.waitEnded(t, sub, sess.ID)
	if ended.Status != backend.SessionClosed || !strings.Contains(ended.CloseReason, "server went away") || ended.EndedAt.IsZero() {
		t.Errorf("session after the server died = %+v", ended)
	}
	if e.Pool.IsLive(sess.ID) {
		t.Error("session still live")
	}
	if _, err := e.Pool.Call(ctx, sess.ID, "ping", nil); backend.ErrorCodeOf(err) != backend.EConflict {
		t.Errorf("Call on the dead session = %v, want EConflict", err)
	}
	if err := e.Rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	frames, _ := e.DB.ListFrames(ctx, backend.FrameQuery{SessionID: sess.ID})
	noted := false
	for _, f := range frames {
		noted = noted || (f.Kind == mcpclient.KindTransport && strings.Contains(string(f.Body), "server went away"))
	}
	if !noted {
		t.Error("no transport note recording that the server went away")
	}
	// The server can be connected again.
	again := e.MustConnect(t, srvID)
	if again.ID == sess.ID || again.Status != backend.SessionOpen {
		t.Errorf("reconnect = %+v", again)
	}
}

func TestPoolCloseClosesEverySession(t *testing.T) {
	e := MustEnv(t)
	ctx := backendtest.Context(t)
	httpID := e.MustServer(t, httpServer("http", MustSDKHTTPServer(t)))
	stdioID := e.MustServer(t, sdktest.StdioServer("stdio"))
	s1 := e.MustConnect(t, httpID)
	s2 := e.MustConnect(t, stdioID)

	start := time.Now()
	e.Pool.Close()
	t.Logf("Pool.Close took %v", time.Since(start))
	for _, id := range []int64{s1.ID, s2.ID} {
		s := e.MustGetSession(t, id)
		if s.Status != backend.SessionClosed || s.CloseReason != "the playground shut down" || s.EndedAt.IsZero() {
			t.Errorf("session %d after Pool.Close = %+v", id, s)
		}
		if e.Pool.IsLive(id) {
			t.Errorf("session %d still live", id)
		}
	}
	_, err := e.Pool.Connect(ctx, httpID)
	if !errors.Is(err, backend.ErrPoolClosed) && backend.ErrorCodeOf(err) != backend.EUnavailable {
		t.Errorf("Connect after Close = %v, want ErrPoolClosed", err)
	}
	e.Pool.Close() // idempotent
}

func TestPoolSessionOutlivesTheConnectContext(t *testing.T) {
	e := MustEnv(t)
	for _, srv := range []backend.Server{httpServer("http", MustSDKHTTPServer(t)), sdktest.StdioServer("stdio")} {
		t.Run(string(srv.Transport), func(t *testing.T) {
			srvID := e.MustServer(t, srv)
			cctx, cancel := context.WithCancel(context.Background())
			sess, err := e.Pool.Connect(cctx, srvID)
			if err != nil {
				t.Fatal(err)
			}
			cancel()
			time.Sleep(50 * time.Millisecond)
			if !e.Pool.IsLive(sess.ID) {
				t.Fatalf("session ended with the connect context: %+v", e.MustGetSession(t, sess.ID))
			}
			res, err := e.Pool.Call(backendtest.Context(t), sess.ID, "ping", nil)
			if err != nil || res.Error != nil {
				t.Errorf("ping after the connect context ended: %+v, %v", res, err)
			}
		})
	}
}

// openFailingSessions fails MarkSessionOpen.
type openFailingSessions struct {
	backend.SessionStore
}

func (openFailingSessions) MarkSessionOpen(context.Context, backend.Session) error {
	return errors.New("database is locked")
}

// TestPoolConnectWhenStoringTheOpenSessionFails: the handshake succeeded
// but the session could not be marked open. The session must not stay
// "connecting" (live) in the database with nobody owning it.
func TestPoolConnectWhenStoringTheOpenSessionFails(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	hub := backend.NewHub(0)
	rec := backendtest.MustRecorder(t, db, hub)
	pool := backend.NewPool(db, openFailingSessions{db}, rec, hub, backend.NewInbox(hub, time.Minute), backendtest.Logger(t), mcpclient.Implementation{Name: "t", Version: "0"})
	defer pool.Close()
	ctx := backendtest.Context(t)
	srvID, err := db.CreateServer(ctx, httpServer("sdk", MustSDKHTTPServer(t)))
	if err != nil {
		t.Fatal(err)
	}
	sess, err := pool.Connect(ctx, srvID)
	if err == nil {
		t.Fatal("Connect succeeded although the session could not be stored as open")
	}
	if pool.IsLive(sess.ID) {
		t.Error("pool holds a session it reported as failed")
	}
	stored, gerr := db.GetSession(ctx, sess.ID)
	if gerr != nil {
		t.Fatalf("GetSession(%d): %v", sess.ID, gerr)
	}
	if stored.Live() || stored.EndedAt.IsZero() {
		t.Fatalf("after MarkSessionOpen fails, Connect leaves session %d stored as %q with no end (and returns Status %q); "+
			"backend/pool.go Connect should end it (p.end with SessionFailed) before returning", sess.ID, stored.Status, sess.Status)
	}
}

// TestPoolSecretHeadersNotStoredInPlaintext: server header values are
// encrypted in the servers table, so the recorded traffic must not keep
// them in clear either (DESIGN: secrets encrypted at rest).
func TestPoolSecretHeadersNotStoredInPlaintext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "playground.db")
	db, err := store.Open(backendtest.Context(t), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() }) // after the recorder's Close: it commits what the pool's Close recorded
	hub := backend.NewHub(0)
	rec := backendtest.MustRecorder(t, db, hub)
	pool := backend.NewPool(db, db, rec, hub, backend.NewInbox(hub, time.Minute), backendtest.Logger(t), mcpclient.Implementation{Name: "t", Version: "0"})
	defer pool.Close()
	ctx := backendtest.Context(t)
	const secret = "Bearer s3cr3t-t0ken-value"
	srv := httpServer("sdk", MustSDKHTTPServer(t))
	srv.Headers = map[string]string{"Authorization": secret}
	srvID, err := db.CreateServer(ctx, srv)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := pool.Connect(ctx, srvID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Call(ctx, sess.ID, "ping", nil); err != nil {
		t.Fatal(err)
	}
	if err := rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, f := range []string{path, path + "-wal"} {
		b, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(secret)) {
			found = append(found, filepath.Base(f))
		}
	}
	if len(found) > 0 {
		t.Fatalf("the Authorization header value is stored in plaintext in %v: mcpclient/http.go requestInfo records req.Header "+
			"with the configured headers, and backend/store/frames.go InsertFrames writes it to frames.http unencrypted", found)
	}
}
