package backend_test

// BenchmarkRecording measures how many frames per second the recorder
// persists, with none lost, beside a bare batched SQLite insert of the same
// rows in the same run. It reports with b.ReportMetric and, for `make
// bench`'s summary table, appends its figures with their targets to the
// file named by PLAYGROUND_BENCH_OUT (see cmd/playground/benchreport). It
// never fails because a figure misses its target.

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/benchfig"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

const (
	// benchSessions sessions record benchFramesPerSession frames each, at
	// once, as fast as the recorder takes them.
	benchSessions         = 4
	benchFramesPerSession = 60000
	// benchBareBatch is the bare insert's transaction size: the recorder's
	// largest batch.
	benchBareBatch = 1024
)

// BenchmarkRecording runs both sides for frames as stdio carries them
// and for frames with their HTTP exchange (whose headers the store
// encrypts), and then the recorder again with its protocol linter off, on
// the same frames, for the linter's cost.
func BenchmarkRecording(b *testing.B) {
	for _, transport := range []string{"stdio", "http"} {
		b.Run(transport, func(b *testing.B) {
			for b.Loop() {
				// Runs with and without the linter alternate, so that a
				// busy spell of the machine falls on both; each side's
				// median is compared.
				var linted, unlinted []float64
				for i := range lintPairs {
					linted = append(linted, benchRecording(b, transport, backend.RecorderOptions{}, i == 0))
					unlinted = append(unlinted, benchRecording(b, transport, backend.RecorderOptions{NoLint: true}, false))
				}
				l, u := median(linted), median(unlinted)
				benchfig.Report(b, "lint-ratio", benchfig.Figure{Item: 21, Figure: "recording with the linter / without it, " + transport,
					Value: l / u, Unit: "x", Cmp: ">=", Target: 0.9, Samples: lintPairs,
					Note: fmt.Sprintf("medians of %d alternated runs: %.0f against %.0f frames/s", lintPairs, l, u)})
			}
		})
	}
}

// lintPairs is how many runs with the linter and without it
// BenchmarkRecording alternates.
const lintPairs = 3

// median is the middle of xs (of an odd count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// benchRecording records the frames of benchSessions sessions at once
// with a recorder set up by o and returns its rate in frames per second.
// With report, it also reports that rate beside a bare batched insert of
// the same rows.
func benchRecording(b *testing.B, transport string, o backend.RecorderOptions, report bool) float64 {
	ctx := context.Background()
	dir := b.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "recorder.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	hub := backend.NewHub(0)
	rec, err := backend.NewRecorder(ctx, db, hub, backendtest.Logger(b), o)
	if err != nil {
		b.Fatal(err)
	}
	defer rec.Close()
	sessions := make([]int64, benchSessions)
	for i := range sessions {
		if sessions[i], err = db.CreateSession(ctx, backend.Session{ServerName: "bench", Transport: backend.TransportStdio,
			Status: backend.SessionOpen, StartedAt: time.Now()}); err != nil {
			b.Fatal(err)
		}
	}
	// A viewer of the first session, as the live page would have.
	sub := hub.Subscribe(sessions[0])
	defer sub.Close()
	go func() {
		for range sub.C {
		}
	}()

	// Build every frame first: the recorder's clock starts at the first Record.
	frames := make([][]mcpclient.Frame, benchSessions)
	for i := range frames {
		frames[i] = benchfig.Handshake()
		for seq := range benchFramesPerSession {
			frames[i] = append(frames[i], benchFrame(seq, transport))
		}
	}
	total := benchSessions * len(frames[0])

	start := time.Now()
	var wg sync.WaitGroup
	for i, id := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, f := range frames[i] {
				if err := rec.Record(id, f); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := rec.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	recorded := time.Since(start)

	raw := mustRawDB(b, filepath.Join(dir, "recorder.db"))
	var stored, exchanges int
	if err := raw.QueryRow(`SELECT COUNT(*) FROM frames`).Scan(&stored); err != nil {
		b.Fatal(err)
	}
	if err := raw.QueryRow(`SELECT COUNT(*) FROM exchanges`).Scan(&exchanges); err != nil {
		b.Fatal(err)
	}
	var findings int
	if err := raw.QueryRow(`SELECT COUNT(*) FROM frame_findings`).Scan(&findings); err != nil {
		b.Fatal(err)
	}
	if findings > 0 {
		b.Fatalf("the linter found %d things wrong with the synthetic session", findings)
	}
	recRate := float64(total) / recorded.Seconds()
	if !report {
		return recRate
	}
	rows, exRows := readRows(b, raw)
	bare := bareInsert(b, dir, sessions, rows, exRows)
	bareRate := float64(len(rows)) / bare.Seconds()
	benchfig.Report(b, "frames/s", benchfig.Figure{Item: 2, Figure: "recording: frames/s persisted, " + transport, Value: recRate, Unit: "frames/s",
		Cmp: ">=", Target: 50000, Samples: float64(total)})
	benchfig.Report(b, "lost", benchfig.Figure{Item: 2, Figure: "recording: frames lost, " + transport, Value: float64(total - stored), Unit: "frames",
		Cmp: "<=", Target: 0, Note: fmt.Sprintf("%d exchanges linked, want %d", exchanges, total/4)})
	benchfig.Report(b, "bare-frames/s", benchfig.Figure{Item: 2, Figure: "recording: bare batched INSERT, same rows, " + transport, Value: bareRate, Unit: "frames/s",
		Note: fmt.Sprintf("prepared inserts, %d rows a transaction", benchBareBatch)})
	benchfig.Report(b, "ratio", benchfig.Figure{Item: 2, Figure: "recording: recorder/bare throughput, " + transport, Value: recRate / bareRate, Unit: "x",
		Cmp: ">=", Target: 0.6})
	return recRate
}

// benchFrame is benchfig.SessionFrame, with the HTTP exchange of each
// frame when transport is "http".
func benchFrame(seq int, transport string) mcpclient.Frame {
	f := benchfig.SessionFrame(seq)
	if transport == "http" {
		info := &mcpclient.HTTPInfo{Method: http.MethodPost, URL: "http://127.0.0.1:3001/mcp", Header: http.Header{
			"Content-Type": {"application/json"}, "Mcp-Session-Id": {"4f1c0b7e"}, "Mcp-Protocol-Version": {"2025-11-25"}}}
		if f.Direction == mcpclient.Inbound {
			info.Status, info.Header = http.StatusOK, http.Header{"Content-Type": {"text/event-stream"}, "Mcp-Session-Id": {"4f1c0b7e"}}
		}
		f.HTTP = info
	}
	return f
}

// benchRow is one stored frame row, exactly as the recorder wrote it.
type benchRow struct {
	id, session, time                int64
	direction, kind, rpcType, method string
	rpcID, http                      sql.NullString
	body                             []byte
	bodySize                         int
	isError                          bool
	idClash                          string
	idClashFrame                     sql.NullInt64
}

type benchExchange struct {
	request, response, session, latency int64
	method                              string
}

func readRows(b *testing.B, raw *sql.DB) ([]benchRow, []benchExchange) {
	b.Helper()
	rs, err := raw.Query(`SELECT id, session_id, time, direction, kind, rpc_type, rpc_id, method, body, http, body_size, is_error, id_clash, id_clash_frame FROM frames ORDER BY id`)
	if err != nil {
		b.Fatal(err)
	}
	defer rs.Close()
	var rows []benchRow
	for rs.Next() {
		var r benchRow
		if err := rs.Scan(&r.id, &r.session, &r.time, &r.direction, &r.kind, &r.rpcType, &r.rpcID, &r.method, &r.body, &r.http, &r.bodySize, &r.isError, &r.idClash, &r.idClashFrame); err != nil {
			b.Fatal(err)
		}
		rows = append(rows, r)
	}
	es, err := raw.Query(`SELECT request_frame_id, response_frame_id, session_id, method, latency_ns FROM exchanges ORDER BY response_frame_id`)
	if err != nil {
		b.Fatal(err)
	}
	defer es.Close()
	var exchanges []benchExchange
	for es.Next() {
		var e benchExchange
		if err := es.Scan(&e.request, &e.response, &e.session, &e.method, &e.latency); err != nil {
			b.Fatal(err)
		}
		exchanges = append(exchanges, e)
	}
	return rows, exchanges
}

// bareInsert writes rows and exchanges into a fresh database of the same
// schema and settings with plain prepared inserts, benchBareBatch frames
// (and the exchanges they complete) a transaction, and returns how long
// that took.
func bareInsert(b *testing.B, dir string, sessions []int64, rows []benchRow, exchanges []benchExchange) time.Duration {
	b.Helper()
	ctx := context.Background()
	path := filepath.Join(dir, "bare.db")
	schema, err := store.Open(ctx, path) // the same migrations
	if err != nil {
		b.Fatal(err)
	}
	for range sessions {
		if _, err := schema.CreateSession(ctx, backend.Session{ServerName: "bench", Transport: backend.TransportStdio,
			Status: backend.SessionOpen, StartedAt: time.Now()}); err != nil {
			b.Fatal(err)
		}
	}
	schema.Close()
	raw := mustRawDB(b, path)
	insFrame, err := raw.Prepare(`INSERT INTO frames (id, session_id, time, direction, kind, rpc_type, rpc_id, method, body, http, body_size, is_error, id_clash, id_clash_frame) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		b.Fatal(err)
	}
	defer insFrame.Close()
	insExchange, err := raw.Prepare(`INSERT INTO exchanges (request_frame_id, response_frame_id, session_id, method, latency_ns) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		b.Fatal(err)
	}
	defer insExchange.Close()

	start := time.Now()
	next := 0 // the first exchange not yet written
	for lo := 0; lo < len(rows); lo += benchBareBatch {
		batch := rows[lo:min(lo+benchBareBatch, len(rows))]
		tx, err := raw.Begin()
		if err != nil {
			b.Fatal(err)
		}
		fs, es := tx.Stmt(insFrame), tx.Stmt(insExchange)
		for _, r := range batch {
			if _, err := fs.Exec(r.id, r.session, r.time, r.direction, r.kind, r.rpcType, r.rpcID, r.method, r.body, r.http, r.bodySize, r.isError, r.idClash, r.idClashFrame); err != nil {
				b.Fatal(err)
			}
		}
		last := batch[len(batch)-1].id
		for ; next < len(exchanges) && exchanges[next].response <= last; next++ {
			e := exchanges[next]
			if _, err := es.Exec(e.request, e.response, e.session, e.method, e.latency); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start)
}

// mustRawDB opens the SQLite file with database/sql and the store's
// connection settings.
func mustRawDB(b *testing.B, path string) *sql.DB {
	b.Helper()
	raw, err := sql.Open("sqlite3", store.DSN(path))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { raw.Close() })
	return raw
}
