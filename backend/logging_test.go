package backend_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/sdktest"
)

// callLog calls the SDK server's log tool on a session.
func callLog(t *testing.T, e *env, sessionID int64) {
	t.Helper()
	res, err := e.Pool.Call(backendtest.Context(t), sessionID, "tools/call", json.RawMessage(`{"name":"log","arguments":{}}`))
	if err != nil || res.Error != nil {
		t.Fatalf("tools/call log: %v %v", err, res.Error)
	}
}

// waitLogs polls the session's log entries at minLevel and above until
// there are n (the recorder commits in batches).
func waitLogs(t *testing.T, e *env, sessionID int64, minLevel string, n int) []backend.LogEntry {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got, _, err := backend.ListLogs(backendtest.Context(t), e.DB, backend.LogQuery{SessionID: sessionID, MinLevel: minLevel, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func levelsOf(entries []backend.LogEntry) string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Level)
	}
	return strings.Join(out, " ")
}

func TestSetLogLevel(t *testing.T) {
	for _, era := range []backend.Era{backend.EraLegacy, backend.EraModern} {
		t.Run(string(era), func(t *testing.T) {
			e := MustEnv(t)
			srv := sdktest.StdioServer("logs")
			srv.Era = era
			sess := e.MustConnect(t, e.MustServer(t, srv))

			// Before any level is asked for, the SDK sends nothing.
			callLog(t, e, sess.ID)
			if got := waitLogs(t, e, sess.ID, "", 1); len(got) != 0 {
				t.Errorf("logs before a level was set: %s", levelsOf(got))
			}
			if err := e.Pool.SetLogLevel(backendtest.Context(t), sess.ID, "loud"); backend.ErrorCodeOf(err) != backend.EInvalid {
				t.Errorf("SetLogLevel(loud) = %v, want EInvalid", err)
			}
			if err := e.Pool.SetLogLevel(backendtest.Context(t), sess.ID, "error"); err != nil {
				t.Fatalf("SetLogLevel(error): %v", err)
			}
			if got := e.Pool.LogLevel(sess.ID); got != "error" {
				t.Errorf("LogLevel = %q", got)
			}
			callLog(t, e, sess.ID)
			got := waitLogs(t, e, sess.ID, "", 4)
			if want := "error critical alert emergency"; levelsOf(got) != want {
				t.Fatalf("logs after SetLogLevel(error): %q, want %q", levelsOf(got), want)
			}
			if got[0].Logger != "test" || string(got[0].Data) != `"error line"` {
				t.Errorf("first entry = %+v", got[0])
			}
			if got := waitLogs(t, e, sess.ID, "alert", 2); levelsOf(got) != "alert emergency" {
				t.Errorf("entries at alert and above: %q", levelsOf(got))
			}
			text, _, err := backend.ListLogs(backendtest.Context(t), e.DB, backend.LogQuery{SessionID: sess.ID, Text: "CRITICAL line", Limit: 10})
			if err != nil || levelsOf(text) != "critical" {
				t.Errorf("entries holding %q: %q (%v)", "CRITICAL line", levelsOf(text), err)
			}

			// How the level reached the server depends on the era.
			frames, err := e.DB.ListFrames(backendtest.Context(t), backend.FrameQuery{SessionID: sess.ID, Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			var setLevel, meta int
			for _, f := range frames {
				if f.Method == "logging/setLevel" && f.RPCType == backend.RPCRequest {
					setLevel++
				}
				if f.Method == "tools/call" && f.RPCType == backend.RPCRequest && strings.Contains(string(f.Body), `"io.modelcontextprotocol/logLevel":"error"`) {
					meta++
				}
			}
			wantSet, wantMeta := 1, 0
			if era == backend.EraModern {
				wantSet, wantMeta = 0, 1
			}
			if setLevel != wantSet || meta != wantMeta {
				t.Errorf("logging/setLevel sent %d times (want %d); tools/call with the level in _meta %d times (want %d)", setLevel, wantSet, meta, wantMeta)
			}
		})
	}
}

func TestListLogsPages(t *testing.T) {
	e := MustEnv(t)
	sess := e.MustConnect(t, e.MustServer(t, sdktest.StdioServer("pages")))
	if err := e.Pool.SetLogLevel(backendtest.Context(t), sess.ID, "debug"); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		callLog(t, e, sess.ID)
	}
	all := waitLogs(t, e, sess.ID, "", 24)
	if len(all) != 24 {
		t.Fatalf("%d entries, want 24", len(all))
	}
	ctx := backendtest.Context(t)
	// At warning and above: "warning error critical alert emergency" thrice.
	newest, more, err := backend.ListLogs(ctx, e.DB, backend.LogQuery{SessionID: sess.ID, MinLevel: "warning", Limit: 7})
	if want := "alert emergency warning error critical alert emergency"; err != nil || !more || levelsOf(newest) != want {
		t.Fatalf("the newest 7 at warning and above: %q (more %v, %v), want %q", levelsOf(newest), more, err, want)
	}
	older, more, err := backend.ListLogs(ctx, e.DB, backend.LogQuery{SessionID: sess.ID, MinLevel: "warning", Limit: 7, BeforeID: newest[0].FrameID})
	if want := "error critical alert emergency warning error critical"; err != nil || !more || levelsOf(older) != want {
		t.Errorf("the page before: %q (more %v, %v), want %q", levelsOf(older), more, err, want)
	}
	oldest, more, err := backend.ListLogs(ctx, e.DB, backend.LogQuery{SessionID: sess.ID, MinLevel: "warning", Limit: 7, BeforeID: older[0].FrameID})
	if err != nil || more || levelsOf(oldest) != "warning" {
		t.Errorf("the first page: %q (more %v, %v)", levelsOf(oldest), more, err)
	}
	after, _, err := backend.ListLogs(ctx, e.DB, backend.LogQuery{SessionID: sess.ID, Limit: 100, AfterID: all[21].FrameID, Forward: true})
	if err != nil || levelsOf(after) != "alert emergency" {
		t.Errorf("entries after the 22nd: %q (%v)", levelsOf(after), err)
	}
}
