package backend_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

// counterIDs hands out frame ids from a counter.
type counterIDs struct{ next atomic.Int64 }

func (c *counterIDs) ReserveFrameIDs(n int64) int64 { return c.next.Add(n) - n }

func mustStore(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "playground.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// fileFrames yields frames as a file would, then err if not nil.
func fileFrames(frames []backend.ImportedFrame, err error) iter.Seq2[backend.ImportedFrame, error] {
	return func(yield func(backend.ImportedFrame, error) bool) {
		for _, f := range frames {
			if !yield(f, nil) {
				return
			}
		}
		if err != nil {
			yield(backend.ImportedFrame{}, err)
		}
	}
}

func importedFrame(session, id, pair int64, at time.Time, dir mcpclient.Direction, rpcType backend.RPCType, method, body, server string) backend.ImportedFrame {
	return backend.ImportedFrame{Frame: backend.Frame{ID: id, SessionID: session, PairID: pair, Time: at, Direction: dir, Kind: mcpclient.KindMessage,
		RPCType: rpcType, Method: method, Body: []byte(body)}, ServerName: server, Line: int(id)}
}

// TestSessionImport imports frames of two sessions of a file: they keep
// what was recorded, get new ids, and are paired again within their own
// session; the session is closed, of no server, named after the file's
// servers, and its exchanges are found by a word in their results.
func TestSessionImport(t *testing.T) {
	db := mustStore(t)
	ctx := context.Background()
	ids := &counterIDs{}
	ids.next.Store(1000)
	im := backend.NewSessionImporter(db, ids)
	at := time.Date(2026, 11, 30, 9, 0, 0, 5, time.UTC)
	big := `{"jsonrpc":"2.0","id":1,"result":{"text":"platypus ` + strings.Repeat("b", 20<<10) + `"}}`
	file := []backend.ImportedFrame{
		importedFrame(7, 1, 3, at, mcpclient.Outbound, backend.RPCRequest, "tools/call", `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`, "alpha"),
		importedFrame(7, 2, 0, at.Add(time.Millisecond), mcpclient.Inbound, backend.RPCNotification, "notifications/progress", `{"jsonrpc":"2.0","method":"notifications/progress"}`, "alpha"),
		importedFrame(7, 3, 1, at.Add(40*time.Millisecond), mcpclient.Inbound, backend.RPCResult, "tools/call", big, "alpha"),
		// Session 8 of the file reuses frame ids 1 and 3: its own pair.
		importedFrame(8, 3, 1, at.Add(time.Second), mcpclient.Inbound, backend.RPCError, "ping", `{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"wallaby"}}`, "beta"),
		importedFrame(8, 1, 3, at.Add(time.Second-time.Millisecond), mcpclient.Outbound, backend.RPCRequest, "ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "beta"),
		// A response whose request is not in the file stays unpaired.
		importedFrame(8, 9, 5, at.Add(2*time.Second), mcpclient.Inbound, backend.RPCResult, "", `{"jsonrpc":"2.0","id":5,"result":{}}`, "beta"),
	}
	importedAt := time.Now()
	id, err := im.Import(ctx, "two.ndjson", importedAt, fileFrames(file, nil))
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.GetSession(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if s.ImportedFrom != "two.ndjson" || !s.ImportedAt.Equal(importedAt) || s.ServerID != 0 || s.ServerName != "alpha, beta" ||
		s.Status != backend.SessionClosed || !s.StartedAt.Equal(at) || !s.EndedAt.Equal(at.Add(2*time.Second)) {
		t.Errorf("the session: %+v", s)
	}
	frames, err := db.ListFrames(ctx, backend.FrameQuery{SessionID: id})
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != len(file) {
		t.Fatalf("%d frames stored, want %d", len(frames), len(file))
	}
	for i, f := range frames {
		w := file[i]
		if f.ID != 1000+int64(i) || !f.Time.Equal(w.Time) || f.Direction != w.Direction || f.RPCType != w.RPCType || f.Method != w.Method || !bytes.Equal(f.Body, w.Body) {
			t.Errorf("frame %d: %d %v %s %s %s %.40s", i, f.ID, f.Time, f.Direction, f.RPCType, f.Method, f.Body)
		}
	}
	wantPairs := map[int]int{0: 2, 2: 0, 3: 4, 4: 3}
	for i, f := range frames {
		j, paired := wantPairs[i]
		switch {
		case paired && f.PairID != frames[j].ID:
			t.Errorf("frame %d is paired with %d, want %d", i, f.PairID, frames[j].ID)
		case !paired && f.PairID != 0:
			t.Errorf("frame %d is paired with %d, want none", i, f.PairID)
		}
	}
	if frames[0].LatencyNS != (40 * time.Millisecond).Nanoseconds() {
		t.Errorf("the tools/call latency is %d ns", frames[0].LatencyNS)
	}
	for _, word := range []string{"platypus", "wallaby"} {
		found, err := db.SearchHistory(ctx, backend.HistoryQuery{Text: []string{word}, Server: "alpha, beta"}, 0, 10)
		if err != nil || len(found) != 1 || found[0].Session.ID != id {
			t.Errorf("history search for %s: %d found, %v", word, len(found), err)
		}
	}
}

// TestSessionImportStoresNothingOnError fails an import after more frames
// than it writes at a time, and by a frame that no recording has: the
// database is as it was.
func TestSessionImportStoresNothingOnError(t *testing.T) {
	db := mustStore(t)
	ctx := context.Background()
	ids := &counterIDs{}
	ids.next.Store(1)
	im := backend.NewSessionImporter(db, ids)
	at := time.Now()
	var file []backend.ImportedFrame
	for i := range int64(1200) {
		file = append(file, importedFrame(1, 2*i+1, 2*i+2, at, mcpclient.Outbound, backend.RPCRequest, "ping", `{"jsonrpc":"2.0","id":1,"method":"ping"} kiwi`, ""),
			importedFrame(1, 2*i+2, 2*i+1, at, mcpclient.Inbound, backend.RPCResult, "ping", `{"jsonrpc":"2.0","id":1,"result":{}}`, ""))
	}
	bad := importedFrame(1, 9999, 0, at, "sideways", "", "", "{}", "")
	lineErr := backend.Errorf(backend.EInvalid, "Line 2401 is not a frame.")
	for _, tc := range []struct {
		name  string
		seq   iter.Seq2[backend.ImportedFrame, error]
		want  backend.ErrorCode
		wantE error
	}{
		{"a line that is not a frame", fileFrames(file, lineErr), backend.EInvalid, lineErr},
		{"a frame no recording has", fileFrames(append(file[:len(file):len(file)], bad), nil), backend.EInvalid, nil},
		{"a repeated frame", fileFrames(append(file[:len(file):len(file)], file[7]), nil), backend.EInvalid, nil},
		{"no frames", fileFrames(nil, nil), backend.EInvalid, nil},
		{"a server name with ESC", fileFrames(append(file[:len(file):len(file)],
			importedFrame(1, 9999, 0, at, mcpclient.Inbound, backend.RPCNotification, "ping", `{}`, "srv\x1b]0;owned\x07")), nil), backend.EInvalid, nil},
		{"an id clash no recording notes", fileFrames(append(file[:len(file):len(file)], clashing(importedFrame(1, 9999, 0, at, mcpclient.Outbound,
			backend.RPCRequest, "ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, ""), "twin", 1)), nil), backend.EInvalid, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := im.Import(ctx, "bad.ndjson", at, tc.seq)
			if backend.ErrorCodeOf(err) != tc.want || tc.wantE != nil && !errors.Is(err, tc.wantE) {
				t.Errorf("Import: %v, want a %s error", err, tc.want)
			}
			sessions, err := db.ListSessions(ctx, 0, 0, 10)
			if err != nil || len(sessions) != 0 {
				t.Errorf("%d sessions stored (%v)", len(sessions), err)
			}
			if max, err := db.MaxFrameID(ctx); err != nil || max != 0 {
				t.Errorf("frames stored: the largest id is %d (%v)", max, err)
			}
			if found, err := db.SearchHistory(ctx, backend.HistoryQuery{Text: []string{"kiwi"}}, 0, 10); err != nil || len(found) != 0 {
				t.Errorf("history finds %d exchanges (%v)", len(found), err)
			}
		})
	}
}

// TestRecorderReservesFrameIDs records frames while ids are reserved: no
// recorded frame takes a reserved id.
func TestRecorderReservesFrameIDs(t *testing.T) {
	db := mustStore(t)
	ctx := context.Background()
	rec, err := backend.NewRecorder(ctx, db, backend.NewHub(0), slog.New(slog.NewTextHandler(io.Discard, nil)), backend.RecorderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	sid, err := db.CreateSession(ctx, backend.Session{ServerName: "s", Transport: backend.TransportStdio, Status: backend.SessionOpen, StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	reserved := map[int64]bool{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 50 {
			first := rec.ReserveFrameIDs(3)
			for id := first; id < first+3; id++ {
				reserved[id] = true
			}
		}
	}()
	for i := range 100 {
		if err := rec.Record(sid, mcpclient.Frame{Time: time.Now(), Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage, Body: fmt.Appendf(nil, `{"n":%d}`, i)}); err != nil {
			t.Fatal(err)
		}
	}
	<-done
	if err := rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	frames, err := db.ListFrames(ctx, backend.FrameQuery{SessionID: sid})
	if err != nil || len(frames) != 100 {
		t.Fatalf("%d frames recorded (%v)", len(frames), err)
	}
	for _, f := range frames {
		if reserved[f.ID] {
			t.Errorf("frame id %d was reserved and recorded", f.ID)
		}
	}
	if len(reserved) != 150 {
		t.Errorf("%d ids reserved, want 150 distinct", len(reserved))
	}
}

// clashing is f with the id clash mark clash against the file's frame other.
func clashing(f backend.ImportedFrame, clash backend.IDClash, other int64) backend.ImportedFrame {
	f.Clash, f.ClashFrameID = clash, other
	return f
}

// TestSessionImportClashMarks imports id clash marks: one names its other
// request by the request's new id, one whose other request the file gives
// later or not at all names none, and is still described.
func TestSessionImportClashMarks(t *testing.T) {
	db := mustStore(t)
	ctx := context.Background()
	ids := &counterIDs{}
	ids.next.Store(500)
	at := time.Now()
	req := func(id int64) backend.ImportedFrame {
		return importedFrame(3, id, 0, at.Add(time.Duration(id)*time.Second), mcpclient.Outbound, backend.RPCRequest, "ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "")
	}
	file := []backend.ImportedFrame{req(10), clashing(req(11), backend.ClashDuplicate, 10), clashing(req(12), backend.ClashDuplicate, 13), clashing(req(14), backend.ClashDuplicate, 99)}
	id, err := backend.NewSessionImporter(db, ids).Import(ctx, "clash.ndjson", at, fileFrames(file, nil))
	if err != nil {
		t.Fatal(err)
	}
	frames, err := db.ListFrames(ctx, backend.FrameQuery{SessionID: id})
	if err != nil || len(frames) != 4 {
		t.Fatalf("%d frames (%v)", len(frames), err)
	}
	for i, want := range []struct {
		clash backend.IDClash
		other int64
		note  string
	}{
		{"", 0, ""},
		{backend.ClashDuplicate, 500, "duplicate id: request 500 still pending"},
		{backend.ClashDuplicate, 0, "duplicate id: another request still pending"},
		{backend.ClashDuplicate, 0, "duplicate id: another request still pending"},
	} {
		if f := frames[i]; f.Clash != want.clash || f.ClashFrameID != want.other || f.ClashNote() != want.note {
			t.Errorf("frame %d: %q with %d, %q; want %q with %d, %q", i, f.Clash, f.ClashFrameID, f.ClashNote(), want.clash, want.other, want.note)
		}
	}
}

// versioned is f as a file gives it with the protocol version version and
// the excerpt mark excerpt.
func versioned(f backend.ImportedFrame, version string, excerpt bool) backend.ImportedFrame {
	f.ProtocolVersion, f.Excerpt = version, excerpt
	return f
}

// TestSessionImportKeepsVersionAndExcerpt imports files of one session and
// of several: the session keeps the protocol version its frames give
// (none when its sessions give different ones) and is an excerpt when the
// file says so of a session or holds several, as ExportLinter.Merged
// says; the session's reads (one, a list, a history entry) give both.
func TestSessionImportKeepsVersionAndExcerpt(t *testing.T) {
	db := mustStore(t)
	ctx := context.Background()
	ids := &counterIDs{}
	im := backend.NewSessionImporter(db, ids)
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	req := func(session, id int64) backend.ImportedFrame {
		return importedFrame(session, id, id+1, at, mcpclient.Outbound, backend.RPCRequest, "ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "kept")
	}
	resp := func(session, id int64) backend.ImportedFrame {
		return importedFrame(session, id, id-1, at.Add(time.Millisecond), mcpclient.Inbound, backend.RPCResult, "ping", `{"jsonrpc":"2.0","id":1,"result":{}}`, "kept")
	}
	for _, tt := range []struct {
		name    string
		file    []backend.ImportedFrame
		version string
		excerpt bool
		// exchanges is how many exchanges of the session history finds.
		exchanges int
	}{
		{"a whole session", []backend.ImportedFrame{versioned(req(1, 1), "2025-06-18", false), versioned(resp(1, 2), "2025-06-18", false)}, "2025-06-18", false, 1},
		{"an excerpt", []backend.ImportedFrame{versioned(resp(1, 2), "2025-11-25", true)}, "2025-11-25", true, 0},
		{"a session without a version", []backend.ImportedFrame{req(1, 1), resp(1, 2)}, "", false, 1},
		{"a session's first frame gives its version and mark", []backend.ImportedFrame{versioned(req(1, 1), "2025-06-18", true), versioned(resp(1, 2), "2025-03-26", false)},
			"2025-06-18", true, 1},
		{"two sessions of one version", []backend.ImportedFrame{versioned(req(1, 1), "2025-06-18", false), versioned(req(2, 1), "2025-06-18", false)}, "2025-06-18", true, 0},
		{"two sessions of different versions", []backend.ImportedFrame{versioned(req(1, 1), "2025-06-18", false), versioned(req(2, 1), "2025-11-25", false),
			versioned(resp(2, 2), "2025-11-25", false), versioned(req(3, 1), "2025-06-18", false)}, "", true, 1},
		{"a versioned session and one without", []backend.ImportedFrame{req(1, 1), versioned(req(2, 1), "2025-03-26", false)}, "2025-03-26", true, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			el := backend.NewExportLinter()
			for _, f := range tt.file {
				el.Lint(f)
			}
			if v, e := el.Merged(); v != tt.version || e != tt.excerpt {
				t.Errorf("ExportLinter.Merged() = %q, %t; want %q, %t", v, e, tt.version, tt.excerpt)
			}
			id, err := im.Import(ctx, "versioned.ndjson", at, fileFrames(tt.file, nil))
			if err != nil {
				t.Fatal(err)
			}
			s, err := db.GetSession(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if s.ProtocolVersion != tt.version || s.Excerpt != tt.excerpt {
				t.Errorf("GetSession: protocol version %q, excerpt %t; want %q, %t", s.ProtocolVersion, s.Excerpt, tt.version, tt.excerpt)
			}
			listed, err := db.ListSessions(ctx, 0, id+1, 1)
			if err != nil || len(listed) != 1 || listed[0].ProtocolVersion != tt.version || listed[0].Excerpt != tt.excerpt {
				t.Errorf("ListSessions: %+v (%v)", listed, err)
			}
			found, err := db.SearchHistory(ctx, backend.HistoryQuery{Server: "kept"}, 0, 100)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, e := range found {
				if e.Session.ID != id {
					continue
				}
				n++
				if e.Session.ProtocolVersion != tt.version || e.Session.Excerpt != tt.excerpt {
					t.Errorf("SearchHistory: the session is %+v", e.Session)
				}
			}
			if n != tt.exchanges {
				t.Errorf("SearchHistory: %d exchanges of the session, want %d", n, tt.exchanges)
			}
		})
	}
	t.Run("a recorded session", func(t *testing.T) {
		id, err := db.CreateSession(ctx, backend.Session{ServerName: "rec", Transport: backend.TransportStdio, Status: backend.SessionOpen, StartedAt: at})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.MarkSessionOpen(ctx, backend.Session{ID: id, Era: backend.EraLegacy, ProtocolVersion: "2025-06-18"}); err != nil {
			t.Fatal(err)
		}
		if s, err := db.GetSession(ctx, id); err != nil || s.ProtocolVersion != "2025-06-18" || s.Excerpt {
			t.Errorf("GetSession: %+v (%v), want version 2025-06-18 and no excerpt", s, err)
		}
	})
}
