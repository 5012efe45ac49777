package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/migrations"
)

// MustOpen opens a fresh database in a temporary directory and closes it
// when the test ends.
func MustOpen(tb testing.TB) *DB {
	tb.Helper()
	return MustOpenPath(tb, filepath.Join(tb.TempDir(), "playground.db"))
}

// MustOpenPath opens the database at path and closes it when the test ends.
func MustOpenPath(tb testing.TB, path string) *DB {
	tb.Helper()
	d, err := Open(testContext(tb), path)
	if err != nil {
		tb.Fatalf("Open(%s): %v", path, err)
	}
	tb.Cleanup(func() {
		if err := d.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return d
}

// MustCreateServer stores s and returns its id.
func MustCreateServer(tb testing.TB, d *DB, s backend.Server) int64 {
	tb.Helper()
	id, err := d.CreateServer(testContext(tb), s)
	if err != nil {
		tb.Fatalf("CreateServer(%q): %v", s.Name, err)
	}
	return id
}

// MustCreateSession stores a connecting session of serverID (0: none).
func MustCreateSession(tb testing.TB, d *DB, serverID int64, name string) int64 {
	tb.Helper()
	id, err := d.CreateSession(testContext(tb), backend.Session{
		ServerID: serverID, ServerName: name, Transport: backend.TransportStdio,
		Status: backend.SessionConnecting, StartedAt: time.Now(),
	})
	if err != nil {
		tb.Fatalf("CreateSession: %v", err)
	}
	return id
}

func testContext(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	tb.Cleanup(cancel)
	return ctx
}

func stdioServer(name string) backend.Server {
	return backend.Server{Name: name, Transport: backend.TransportStdio, Command: "/bin/true"}
}

// wantCode fails unless err carries code.
func wantCode(tb testing.TB, err error, code backend.ErrorCode) *backend.Error {
	tb.Helper()
	if got := backend.ErrorCodeOf(err); got != code {
		tb.Fatalf("error %v: code %q, want %q", err, got, code)
	}
	var e *backend.Error
	errors.As(err, &e)
	return e
}

func TestOpenAppliesMigrationsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "db.sqlite")
	ctx := testContext(t)

	d, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	var names []string
	if err := d.db.SelectContext(ctx, &names, `SELECT name FROM migrations ORDER BY name`); err != nil {
		t.Fatalf("reading migrations: %v", err)
	}
	want, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil || len(want) == 0 {
		t.Fatalf("migration files: %v, %v", want, err)
	}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("applied migrations = %v, want %v", names, want)
	}
	var tables []string
	if err := d.db.SelectContext(ctx, &tables, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"exchanges", "frame_bodies", "frames", "migrations", "servers", "sessions", "settings"} {
		found := false
		for _, tb := range tables {
			found = found || tb == want
		}
		if !found {
			t.Errorf("table %q missing; have %v", want, tables)
		}
	}
	var appliedAt int64
	if err := d.db.GetContext(ctx, &appliedAt, `SELECT applied_at FROM migrations ORDER BY name LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	id := MustCreateServer(t, d, stdioServer("kept"))
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}

	// Reopening applies nothing again and keeps the data.
	d2 := MustOpenPath(t, path)
	var n int
	var again int64
	if err := d2.db.GetContext(ctx, &n, `SELECT COUNT(*) FROM migrations`); err != nil {
		t.Fatal(err)
	}
	if err := d2.db.GetContext(ctx, &again, `SELECT applied_at FROM migrations ORDER BY name LIMIT 1`); err != nil {
		t.Fatal(err)
	}
	if n != len(want) || again != appliedAt {
		t.Errorf("after reopen: %d migrations rows, applied_at %d (was %d)", n, again, appliedAt)
	}
	if s, err := d2.GetServer(ctx, id); err != nil || s.Name != "kept" {
		t.Errorf("GetServer after reopen = %+v, %v", s, err)
	}
}

func TestOpenRequiresAFile(t *testing.T) {
	for _, path := range []string{"", ":memory:", ":memory:?cache=shared"} {
		t.Run(fmt.Sprintf("%q", path), func(t *testing.T) {
			d, err := Open(testContext(t), path)
			if err == nil {
				d.Close()
				t.Fatalf("Open(%q) succeeded, want an error", path)
			}
		})
	}
}

func TestPragmasHoldOnEveryConnection(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	// Hold several connections at once so that the pool must open new ones.
	const conns = 4
	for i := range conns {
		c, err := d.db.Connx(ctx)
		if err != nil {
			t.Fatalf("conn %d: %v", i, err)
		}
		defer c.Close()
		var journal string
		var fk, busy int
		if err := c.GetContext(ctx, &journal, `PRAGMA journal_mode`); err != nil {
			t.Fatal(err)
		}
		if err := c.GetContext(ctx, &fk, `PRAGMA foreign_keys`); err != nil {
			t.Fatal(err)
		}
		if err := c.GetContext(ctx, &busy, `PRAGMA busy_timeout`); err != nil {
			t.Fatal(err)
		}
		if journal != "wal" || fk != 1 || busy != 5000 {
			t.Errorf("conn %d: journal_mode=%s foreign_keys=%d busy_timeout=%d, want wal 1 5000", i, journal, fk, busy)
		}
	}
}

func TestServersCRUD(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)

	in := backend.Server{
		Name: "beta", Transport: backend.TransportStdio, Command: "node", Args: []string{"dist/index.js", "stdio"},
		Env: map[string]string{"TOKEN": "s3cret"}, Dir: "/tmp",
	}
	id := MustCreateServer(t, d, in)
	httpID := MustCreateServer(t, d, backend.Server{Name: "Alpha", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:1/mcp",
		Headers: map[string]string{"Authorization": "Bearer x"}})
	bareID := MustCreateServer(t, d, stdioServer("gamma"))

	got, err := d.GetServer(ctx, id)
	if err != nil {
		t.Fatalf("GetServer: %v", err)
	}
	if got.ID != id || got.Name != in.Name || got.Transport != in.Transport || got.Command != in.Command || got.Dir != in.Dir ||
		!reflect.DeepEqual(got.Args, in.Args) || !reflect.DeepEqual(got.Env, in.Env) || len(got.Headers) != 0 {
		t.Errorf("GetServer = %+v, want %+v", got, in)
	}
	if got.CreatedAt.IsZero() || !got.CreatedAt.Equal(got.UpdatedAt) {
		t.Errorf("CreatedAt %v UpdatedAt %v", got.CreatedAt, got.UpdatedAt)
	}
	if bare, err := d.GetServer(ctx, bareID); err != nil || len(bare.Args) != 0 || len(bare.Env) != 0 {
		t.Errorf("server saved with nil args/env = %+v, %v", bare, err)
	}

	list, err := d.ListServers(ctx)
	if err != nil {
		t.Fatalf("ListServers: %v", err)
	}
	var names []string
	for _, s := range list {
		names = append(names, s.Name)
	}
	if want := []string{"Alpha", "beta", "gamma"}; !reflect.DeepEqual(names, want) {
		t.Errorf("ListServers names = %v, want %v (case-insensitive order)", names, want)
	}
	if list[0].ID != httpID || list[0].Headers["Authorization"] != "Bearer x" {
		t.Errorf("http server = %+v", list[0])
	}

	t.Run("duplicate name on create", func(t *testing.T) {
		_, err := d.CreateServer(ctx, stdioServer("beta"))
		e := wantCode(t, err, backend.EConflict)
		if e.Fields["name"] == "" {
			t.Errorf("conflict has no name field: %+v", e)
		}
	})

	t.Run("update", func(t *testing.T) {
		time.Sleep(time.Millisecond)
		up := got
		up.Name, up.Args, up.Env = "beta2", []string{"x"}, nil
		if err := d.UpdateServer(ctx, up); err != nil {
			t.Fatalf("UpdateServer: %v", err)
		}
		after, err := d.GetServer(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if after.Name != "beta2" || !reflect.DeepEqual(after.Args, []string{"x"}) || len(after.Env) != 0 {
			t.Errorf("after update = %+v", after)
		}
		if !after.CreatedAt.Equal(got.CreatedAt) || !after.UpdatedAt.After(got.UpdatedAt) {
			t.Errorf("timestamps after update: created %v (was %v), updated %v (was %v)",
				after.CreatedAt, got.CreatedAt, after.UpdatedAt, got.UpdatedAt)
		}
	})

	t.Run("duplicate name on update", func(t *testing.T) {
		s, _ := d.GetServer(ctx, bareID)
		s.Name = "Alpha"
		e := wantCode(t, d.UpdateServer(ctx, s), backend.EConflict)
		if e.Fields["name"] == "" {
			t.Errorf("conflict has no name field: %+v", e)
		}
	})

	t.Run("not found", func(t *testing.T) {
		_, err := d.GetServer(ctx, 9999)
		wantCode(t, err, backend.ENotFound)
		missing := stdioServer("nobody")
		missing.ID = 9999
		wantCode(t, d.UpdateServer(ctx, missing), backend.ENotFound)
		wantCode(t, d.DeleteServer(ctx, 9999), backend.ENotFound)
	})

	t.Run("delete", func(t *testing.T) {
		if err := d.DeleteServer(ctx, bareID); err != nil {
			t.Fatalf("DeleteServer: %v", err)
		}
		_, err := d.GetServer(ctx, bareID)
		wantCode(t, err, backend.ENotFound)
		wantCode(t, d.DeleteServer(ctx, bareID), backend.ENotFound)
		// The name is free again.
		MustCreateServer(t, d, stdioServer("gamma"))
	})
}

func TestSessionsLifecycle(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	srvA := MustCreateServer(t, d, stdioServer("a"))
	srvB := MustCreateServer(t, d, stdioServer("b"))

	started := time.Unix(0, time.Now().UnixNano())
	s1, err := d.CreateSession(ctx, backend.Session{ServerID: srvA, ServerName: "a", Transport: backend.TransportStdio,
		Status: backend.SessionConnecting, StartedAt: started})
	if err != nil {
		t.Fatalf("CreateSession: %v", err)
	}
	s2 := MustCreateSession(t, d, srvB, "b")
	s3 := MustCreateSession(t, d, srvA, "a")
	s4 := MustCreateSession(t, d, 0, "detached")

	got, err := d.GetSession(ctx, s1)
	if err != nil {
		t.Fatalf("GetSession: %v", err)
	}
	if got.Status != backend.SessionConnecting || got.ServerID != srvA || got.ServerName != "a" || !got.StartedAt.Equal(started) ||
		!got.EndedAt.IsZero() || !got.Live() {
		t.Errorf("new session = %+v", got)
	}
	if det, _ := d.GetSession(ctx, s4); det.ServerID != 0 {
		t.Errorf("session without server has ServerID %d", det.ServerID)
	}

	if err := d.MarkSessionOpen(ctx, backend.Session{ID: s1, Era: backend.EraLegacy, ProtocolVersion: "2025-11-25", PeerName: "peer", PeerVersion: "1.2"}); err != nil {
		t.Fatalf("MarkSessionOpen: %v", err)
	}
	got, _ = d.GetSession(ctx, s1)
	if got.Status != backend.SessionOpen || got.ProtocolVersion != "2025-11-25" || got.PeerName != "peer" || got.PeerVersion != "1.2" {
		t.Errorf("open session = %+v", got)
	}

	ended := time.Unix(0, time.Now().UnixNano())
	if err := d.EndSession(ctx, s1, backend.SessionClosed, "closed by the user", ended); err != nil {
		t.Fatalf("EndSession: %v", err)
	}
	got, _ = d.GetSession(ctx, s1)
	if got.Status != backend.SessionClosed || got.CloseReason != "closed by the user" || !got.EndedAt.Equal(ended) || got.Live() {
		t.Errorf("ended session = %+v", got)
	}
	if err := d.EndSession(ctx, s2, backend.SessionFailed, "connect failed: boom", ended); err != nil {
		t.Fatal(err)
	}

	t.Run("list", func(t *testing.T) {
		tests := []struct {
			name     string
			serverID int64
			before   int64
			limit    int
			want     []int64
		}{
			{"all newest first", 0, 0, 10, []int64{s4, s3, s2, s1}},
			{"one server", srvA, 0, 10, []int64{s3, s1}},
			{"limit", 0, 0, 2, []int64{s4, s3}},
			{"older page", 0, s3, 10, []int64{s2, s1}},
			{"older page of one server", srvA, s3, 10, []int64{s1}},
			{"before the first", 0, s1, 10, nil},
			{"unknown server", 9999, 0, 10, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				list, err := d.ListSessions(ctx, tt.serverID, tt.before, tt.limit)
				if err != nil {
					t.Fatal(err)
				}
				var ids []int64
				for _, s := range list {
					ids = append(ids, s.ID)
				}
				if !reflect.DeepEqual(ids, tt.want) {
					t.Errorf("ids = %v, want %v", ids, tt.want)
				}
			})
		}
	})

	t.Run("EndLiveSessions", func(t *testing.T) {
		if err := d.MarkSessionOpen(ctx, backend.Session{ID: s3, ProtocolVersion: "2025-06-18", PeerName: "p", PeerVersion: "1"}); err != nil {
			t.Fatal(err)
		}
		at := time.Now()
		n, err := d.EndLiveSessions(ctx, "the playground stopped", at)
		if err != nil {
			t.Fatal(err)
		}
		if n != 2 { // s3 (open) and s4 (connecting)
			t.Errorf("EndLiveSessions ended %d sessions, want 2", n)
		}
		for _, id := range []int64{s3, s4} {
			s, _ := d.GetSession(ctx, id)
			if s.Status != backend.SessionClosed || s.CloseReason != "the playground stopped" || s.EndedAt.IsZero() {
				t.Errorf("session %d = %+v", id, s)
			}
		}
		for id, reason := range map[int64]string{s1: "closed by the user", s2: "connect failed: boom"} {
			if s, _ := d.GetSession(ctx, id); s.CloseReason != reason {
				t.Errorf("already ended session %d was touched: %+v", id, s)
			}
		}
		if n, _ := d.EndLiveSessions(ctx, "again", at); n != 0 {
			t.Errorf("second EndLiveSessions ended %d", n)
		}
	})

	t.Run("not found", func(t *testing.T) {
		_, err := d.GetSession(ctx, 9999)
		wantCode(t, err, backend.ENotFound)
		wantCode(t, d.MarkSessionOpen(ctx, backend.Session{ID: 9999, ProtocolVersion: "v", PeerName: "p", PeerVersion: "1"}), backend.ENotFound)
		wantCode(t, d.EndSession(ctx, 9999, backend.SessionClosed, "x", time.Now()), backend.ENotFound)
	})
}

func TestFramesWithExchanges(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	sid := MustCreateSession(t, d, 0, "s")
	other := MustCreateSession(t, d, 0, "other")

	if max, err := d.MaxFrameID(ctx); err != nil || max != 0 {
		t.Fatalf("MaxFrameID on empty db = %d, %v", max, err)
	}

	t0 := time.Unix(0, time.Now().UnixNano())
	info := &mcpclient.HTTPInfo{Method: "POST", URL: "http://127.0.0.1/mcp", Status: 200,
		Header: http.Header{"Content-Type": {"text/event-stream"}}, EventID: "ev-1", EventType: "message", Retry: 300 * time.Millisecond, Elapsed: 7 * time.Millisecond}
	frames := []backend.Frame{
		{ID: 1, SessionID: sid, Time: t0, Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, RPCType: backend.RPCRequest,
			RPCID: "1", Method: "tools/list", Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)},
		{ID: 2, SessionID: sid, Time: t0.Add(time.Millisecond), Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage,
			RPCType: backend.RPCNotification, Method: "notifications/message", Body: []byte(`{}`)},
		{ID: 3, SessionID: sid, Time: t0.Add(7 * time.Millisecond), Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage,
			RPCType: backend.RPCResult, RPCID: "1", Method: "tools/list", Body: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), HTTP: info},
		{ID: 4, SessionID: other, Time: t0, Direction: mcpclient.Stderr, Kind: mcpclient.KindLog, Body: []byte("log line")},
		{ID: 5, SessionID: sid, Time: t0.Add(8 * time.Millisecond), Direction: mcpclient.Inbound, Kind: mcpclient.KindTransport},
	}
	exchanges := []backend.Exchange{{RequestFrameID: 1, ResponseFrameID: 3, SessionID: sid, Method: "tools/list", LatencyNS: int64(7 * time.Millisecond)}}
	if err := d.InsertFrames(ctx, frames, exchanges); err != nil {
		t.Fatalf("InsertFrames: %v", err)
	}
	if max, err := d.MaxFrameID(ctx); err != nil || max != 5 {
		t.Errorf("MaxFrameID = %d, %v; want 5", max, err)
	}

	all, err := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid})
	if err != nil {
		t.Fatalf("ListFrames: %v", err)
	}
	if len(all) != 4 {
		t.Fatalf("ListFrames returned %d frames, want 4 (the other session's frame excluded)", len(all))
	}
	req, note, resp, transport := all[0], all[1], all[2], all[3]
	if req.ID != 1 || req.PairID != 3 || req.LatencyNS != int64(7*time.Millisecond) || req.RPCID != "1" || req.Method != "tools/list" ||
		req.RPCType != backend.RPCRequest || !req.Time.Equal(t0) || string(req.Body) != string(frames[0].Body) || req.HTTP != nil {
		t.Errorf("request frame = %+v", req)
	}
	if resp.ID != 3 || resp.PairID != 1 || resp.LatencyNS != int64(7*time.Millisecond) || resp.RPCType != backend.RPCResult {
		t.Errorf("response frame = %+v", resp)
	}
	if resp.HTTP == nil || !reflect.DeepEqual(*resp.HTTP, *info) {
		t.Errorf("response HTTP info = %+v, want %+v", resp.HTTP, info)
	}
	if note.PairID != 0 || note.LatencyNS != 0 || note.RPCID != "" {
		t.Errorf("notification frame = %+v", note)
	}
	if transport.Body == nil || len(transport.Body) != 0 || transport.Kind != mcpclient.KindTransport {
		t.Errorf("frame stored with nil body = %+v (body %#v)", transport, transport.Body)
	}

	t.Run("paging", func(t *testing.T) {
		tests := []struct {
			name string
			q    backend.FrameQuery
			want []int64
		}{
			{"all", backend.FrameQuery{}, []int64{1, 2, 3, 5}},
			{"first two", backend.FrameQuery{Limit: 2}, []int64{1, 2}},
			{"after 2", backend.FrameQuery{AfterID: 2}, []int64{3, 5}},
			{"after 2 limit 1", backend.FrameQuery{AfterID: 2, Limit: 1}, []int64{3}},
			{"after last", backend.FrameQuery{AfterID: 5}, nil},
			{"negative limit means all", backend.FrameQuery{Limit: -1}, []int64{1, 2, 3, 5}},
			{"newest one", backend.FrameQuery{Newest: true, Limit: 1}, []int64{5}},
			{"newest two, oldest first", backend.FrameQuery{Newest: true, Limit: 2}, []int64{3, 5}},
			{"newest before 5", backend.FrameQuery{Newest: true, BeforeID: 5, Limit: 2}, []int64{2, 3}},
			{"between", backend.FrameQuery{AfterID: 1, BeforeID: 5}, []int64{2, 3}},
			{"before the first", backend.FrameQuery{BeforeID: 1}, nil},
			// Bodies are 46, 2, 36 and 0 bytes long.
			{"byte budget ends the list at the frame that reaches it", backend.FrameQuery{MaxBodyBytes: 47}, []int64{1, 2}},
			{"byte budget smaller than the first body", backend.FrameQuery{MaxBodyBytes: 1}, []int64{1}},
			{"byte budget counts previews", backend.FrameQuery{MaxBodyBytes: 10, BodyPreview: 4}, []int64{1, 2, 3}},
			{"newest within a byte budget", backend.FrameQuery{Newest: true, MaxBodyBytes: 30}, []int64{3, 5}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				tt.q.SessionID = sid
				fs, err := d.ListFrames(ctx, tt.q)
				if err != nil {
					t.Fatal(err)
				}
				var ids []int64
				for _, f := range fs {
					ids = append(ids, f.ID)
					if f.ID == 3 && (f.PairID != 1 || f.HTTP == nil) {
						t.Errorf("frame 3 lost its pair link or HTTP info: %+v", f)
					}
				}
				if !reflect.DeepEqual(ids, tt.want) {
					t.Errorf("ids = %v, want %v", ids, tt.want)
				}
			})
		}
	})

	t.Run("body preview", func(t *testing.T) {
		fs, err := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid, BodyPreview: 10})
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range fs {
			whole := frames[map[int]int{0: 0, 1: 1, 2: 2, 3: 4}[i]].Body
			if want := whole[:min(10, len(whole))]; string(f.Body) != string(want) || f.BodySize != len(whole) || f.Size() != len(whole) {
				t.Errorf("frame %d: body %q (size %d), want %q (size %d)", f.ID, f.Body, f.BodySize, want, len(whole))
			}
			if f.Partial() != (len(whole) > 10) {
				t.Errorf("frame %d: Partial() = %v with %d of %d bytes", f.ID, f.Partial(), len(f.Body), len(whole))
			}
		}
	})

	t.Run("one frame", func(t *testing.T) {
		f, err := d.GetFrame(ctx, 3)
		if err != nil {
			t.Fatal(err)
		}
		if string(f.Body) != string(frames[2].Body) || f.Partial() || f.PairID != 1 || f.HTTP == nil || !reflect.DeepEqual(*f.HTTP, *info) {
			t.Errorf("GetFrame(3) = %+v", f)
		}
		_, err = d.GetFrame(ctx, 999)
		wantCode(t, err, backend.ENotFound)
	})

	t.Run("count", func(t *testing.T) {
		for id, want := range map[int64]int{sid: 4, other: 1, 999: 0} {
			if n, err := d.CountFrames(ctx, id); err != nil || n != want {
				t.Errorf("CountFrames(%d) = %d, %v; want %d", id, n, err, want)
			}
		}
	})

	t.Run("batch is atomic", func(t *testing.T) {
		// The second frame reuses an id: nothing of the batch may be stored.
		bad := []backend.Frame{
			{ID: 6, SessionID: sid, Time: t0, Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, Body: []byte(`{}`)},
			{ID: 1, SessionID: sid, Time: t0, Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, Body: []byte(`{}`)},
		}
		if err := d.InsertFrames(ctx, bad, nil); err == nil {
			t.Fatal("InsertFrames with a duplicate id succeeded")
		}
		if fs, _ := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid, AfterID: 5}); len(fs) != 0 {
			t.Errorf("a failed batch left %d frames", len(fs))
		}
	})

	t.Run("foreign keys enforced", func(t *testing.T) {
		orphan := []backend.Frame{{ID: 100, SessionID: 424242, Time: t0, Direction: mcpclient.Inbound, Kind: mcpclient.KindLog, Body: []byte("x")}}
		if err := d.InsertFrames(ctx, orphan, nil); err == nil {
			t.Error("a frame of a missing session was stored")
		}
	})
}

func TestConcurrentFrameWriters(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	sid := MustCreateSession(t, d, 0, "s")
	const writers, perWriter = 4, 50
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				id := int64(w*perWriter + i + 1)
				f := backend.Frame{ID: id, SessionID: sid, Time: time.Now(), Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, Body: []byte(`{}`)}
				if err := d.InsertFrames(ctx, []backend.Frame{f}, nil); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("concurrent InsertFrames: %v", err)
	}
	if fs, _ := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid}); len(fs) != writers*perWriter {
		t.Errorf("stored %d frames, want %d", len(fs), writers*perWriter)
	}
}

func TestDeletingAServerKeepsItsSessions(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	srv := MustCreateServer(t, d, stdioServer("doomed"))
	sid := MustCreateSession(t, d, srv, "doomed")
	if err := d.EndSession(ctx, sid, backend.SessionClosed, "closed by the user", time.Now()); err != nil {
		t.Fatal(err)
	}
	f := backend.Frame{ID: 1, SessionID: sid, Time: time.Now(), Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, Body: []byte(`{}`)}
	if err := d.InsertFrames(ctx, []backend.Frame{f}, nil); err != nil {
		t.Fatal(err)
	}

	if err := d.DeleteServer(ctx, srv); err != nil {
		t.Fatalf("DeleteServer: %v", err)
	}
	s, err := d.GetSession(ctx, sid)
	if err != nil {
		t.Fatalf("session gone with its server: %v", err)
	}
	if s.ServerID != 0 || s.ServerName != "doomed" || s.CloseReason != "closed by the user" {
		t.Errorf("session after server delete = %+v", s)
	}
	var n int
	if err := d.db.GetContext(ctx, &n, `SELECT COUNT(*) FROM sessions WHERE id = ? AND server_id IS NULL`, sid); err != nil || n != 1 {
		t.Errorf("server_id not NULL in the row (count %d, err %v)", n, err)
	}
	if fs, _ := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid}); len(fs) != 1 {
		t.Errorf("frames after server delete: %d, want 1", len(fs))
	}
	if list, _ := d.ListSessions(ctx, 0, 0, 10); len(list) != 1 {
		t.Errorf("ListSessions after delete: %+v", list)
	}
}

func TestSettings(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	if v, ok, err := d.Setting(ctx, "k"); err != nil || ok || v != "" {
		t.Fatalf("unset Setting = %q, %v, %v", v, ok, err)
	}
	for _, v := range []string{"1", "2"} {
		if err := d.SetSetting(ctx, "k", v); err != nil {
			t.Fatalf("SetSetting(%s): %v", v, err)
		}
		if got, ok, err := d.Setting(ctx, "k"); err != nil || !ok || got != v {
			t.Errorf("Setting = %q, %v, %v; want %q", got, ok, err, v)
		}
	}
}

func TestServerSecretsEncryptedAtRest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "playground.db")
	d := MustOpenPath(t, path)
	ctx := testContext(t)
	id := MustCreateServer(t, d, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:1/mcp",
		Headers: map[string]string{"Authorization": "Bearer hunter2-header"}})
	sid := MustCreateServer(t, d, backend.Server{Name: "local", Transport: backend.TransportStdio, Command: "srv",
		Env: map[string]string{"API_KEY": "hunter2-env"}})

	var rows []struct {
		Env     string `db:"env"`
		Headers string `db:"headers"`
	}
	if err := d.db.SelectContext(ctx, &rows, `SELECT env, headers FROM servers`); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		for _, col := range []string{r.Env, r.Headers} {
			if !strings.HasPrefix(col, "enc:v1:") || strings.Contains(col, "hunter2") {
				t.Errorf("secret column stored as %q", col)
			}
		}
	}
	if s, err := d.GetServer(ctx, id); err != nil || s.Headers["Authorization"] != "Bearer hunter2-header" {
		t.Errorf("headers read back = %v, %v", s.Headers, err)
	}
	if s, err := d.GetServer(ctx, sid); err != nil || s.Env["API_KEY"] != "hunter2-env" {
		t.Errorf("env read back = %v, %v", s.Env, err)
	}

	info, err := os.Stat(path + ".key")
	if err != nil {
		t.Fatalf("key file: %v", err)
	}
	if info.Mode().Perm() != 0o600 || info.Size() != 32 {
		t.Errorf("key file mode %v size %d, want 0600 and 32 bytes", info.Mode().Perm(), info.Size())
	}

	t.Run("reopen with the same key", func(t *testing.T) {
		d2 := MustOpenPath(t, path)
		if s, err := d2.GetServer(ctx, sid); err != nil || s.Env["API_KEY"] != "hunter2-env" {
			t.Errorf("after reopen: %v, %v", s.Env, err)
		}
	})

	t.Run("another key cannot read them", func(t *testing.T) {
		// Move everything from the WAL into the main file, then copy it.
		if _, err := d.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			t.Fatal(err)
		}
		other := filepath.Join(t.TempDir(), "copy.db")
		copyFile(t, path, other)
		key, err := newKey()
		if err != nil {
			t.Fatal(err)
		}
		d3, err := Open(ctx, other, WithKey(KeySource{Key: key}))
		if err == nil {
			d3.Close()
			t.Fatal("Open succeeded with another key")
		}
		if !errors.Is(err, ErrWrongKey) || !strings.Contains(err.Error(), "this key does not open this database's secrets") {
			t.Errorf("Open with another key: %v, want ErrWrongKey", err)
		}
	})

	t.Run("bad key file", func(t *testing.T) {
		bad := filepath.Join(t.TempDir(), "bad.db")
		if err := os.WriteFile(bad+".key", []byte("short"), 0o600); err != nil {
			t.Fatal(err)
		}
		if d, err := Open(ctx, bad); err == nil {
			d.Close()
			t.Error("Open succeeded with a 5-byte key file")
		}
	})
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
