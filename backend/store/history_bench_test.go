package store

// BenchmarkHistorySearch measures the first page of history searches over
// a database of many recorded frames (PLAYGROUND_BENCH_HISTORY_FRAMES,
// default one million: a quarter of them requests, a quarter their
// responses, half notifications, as benchfig.SessionFrame makes them; one
// response in a hundred says "isError": true and has a protocol-lint
// warning, one request in a thousand a lint error). It reports its figures
// like BenchmarkRecording and never fails because one misses its target.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/benchfig"
	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/mcpclient/lint"
)

func BenchmarkHistorySearch(b *testing.B) {
	total := 1_000_000
	if s := os.Getenv("PLAYGROUND_BENCH_HISTORY_FRAMES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 400 {
			b.Fatalf("PLAYGROUND_BENCH_HISTORY_FRAMES=%q: want a number of frames, at least 400", s)
		}
		total = n
	}
	ctx := context.Background()
	d, err := Open(ctx, filepath.Join(b.TempDir(), "history.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	fillHistory(b, d, total)
	rare := strconv.Itoa(total / 2) // "frame N" of one request (benchfig.SessionFrame)
	for _, s := range []struct {
		name, query string
		exactly     int // results the first page holds; 0: one or more
	}{
		{"rare word", rare, 1},
		{"common word", "lorem", 0},
		{"phrase", `"dolor sit amet"`, 0},
		{"common word, isError", "lorem status:iserror", 0},
		{"filters alone", "method:tools/call name:search status:iserror latency:>1ms", 0},
		{"lint, any finding", "lint:any", 0},
		{"lint, errors (1 request in 1000)", "lint:error", 0},
		{"lint, a code", "lint:jsonrpc.version", 0},
		{"lint and a word", "lorem lint:warning", 0},
	} {
		b.Run(s.name, func(b *testing.B) {
			q, err := backend.ParseHistoryQuery(s.query, time.Now())
			if err != nil {
				b.Fatal(err)
			}
			var times []time.Duration
			for b.Loop() {
				start := time.Now()
				page, err := d.SearchHistory(ctx, q, 0, 51)
				times = append(times, time.Since(start))
				if err != nil || len(page) == 0 || s.exactly > 0 && len(page) != s.exactly {
					b.Fatalf("search %q: %d results, %v", s.query, len(page), err)
				}
				for _, e := range page {
					if why := benchMismatch(q, e); why != "" {
						b.Fatalf("search %q found exchange %d, which %s", s.query, e.ExchangeID(), why)
					}
				}
			}
			benchfig.Report(b, "p50-ms", benchfig.Figure{Item: 8, Figure: fmt.Sprintf("history search, first page: %s (%s)", s.name, s.query),
				Value: float64(benchfig.Percentile(times, 50).Microseconds()) / 1000, Unit: "ms", Cmp: "<=", Target: 100,
				Samples: float64(len(times)), Note: fmt.Sprintf("%d frames", total)})
		})
	}
}

// fillHistory records total frames (a multiple of 4) into one session, in
// the recorder's largest batches, and indexes them all.
func fillHistory(b *testing.B, d *DB, total int) {
	b.Helper()
	ctx := context.Background()
	sid, err := d.CreateSession(ctx, backend.Session{ServerName: "bench", Transport: backend.TransportStdio, Status: backend.SessionOpen, StartedAt: time.Now()})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	t0 := time.Now().Add(-time.Duration(total) * time.Millisecond)
	const batch = 1024
	var frames []backend.Frame
	var exchanges []backend.Exchange
	for seq := range total - total%4 {
		f := benchfig.SessionFrame(seq)
		toolError := seq%4 == 3 && seq%400 == 3
		if toolError {
			f.Body = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"result %d: lorem ipsum failed"}],"isError":true}}`, seq/4, seq)
		}
		rpcType := backend.RPCNotification
		switch seq % 4 {
		case 0:
			rpcType = backend.RPCRequest
		case 3:
			rpcType = backend.RPCResult
		}
		id := int64(seq + 1)
		frames = append(frames, backend.Frame{ID: id, SessionID: sid, Time: t0.Add(time.Duration(seq) * time.Millisecond), Direction: f.Direction,
			Kind: mcpclient.KindMessage, RPCType: rpcType, Method: "tools/call", Body: f.Body, ToolError: toolError, // as the recorder classifies it
			Findings: benchFindings(seq, toolError)})
		if seq%4 == 3 {
			exchanges = append(exchanges, backend.Exchange{RequestFrameID: id - 3, ResponseFrameID: id, SessionID: sid, Method: "tools/call", LatencyNS: 3 * time.Millisecond.Nanoseconds()})
		}
		if len(frames) == batch {
			if err := d.InsertFrames(ctx, frames, exchanges); err != nil {
				b.Fatal(err)
			}
			frames, exchanges = frames[:0], exchanges[:0]
		}
	}
	if err := d.InsertFrames(ctx, frames, exchanges); err != nil {
		b.Fatal(err)
	}
	recorded := time.Since(start)
	if err := d.indexAllHistory(ctx); err != nil {
		b.Fatal(err)
	}
	b.Logf("%d frames recorded in %v, then indexed in %v", total, recorded.Round(time.Millisecond), (time.Since(start) - recorded).Round(time.Millisecond))
}

// benchFindings are the lint findings of frame seq of fillHistory: a
// warning on a tool error, an error on one request in a thousand.
func benchFindings(seq int, toolError bool) []lint.Finding {
	switch {
	case toolError:
		return []lint.Finding{{Code: "mcp.schema", Severity: lint.SevWarning, Pointer: "/result", Message: "m"}}
	case seq%4000 == 0:
		return []lint.Finding{{Code: "jsonrpc.version", Severity: lint.SevError, Pointer: "/jsonrpc", Message: "m"}}
	}
	return nil
}

// benchMismatch says how e fails the query q of BenchmarkHistorySearch
// (which uses its text, method, item, outcome and least latency), or "".
// Text is looked for case-insensitively in either body.
func benchMismatch(q backend.HistoryQuery, e backend.HistoryEntry) string {
	bodies := bytes.ToLower(append(append([]byte{}, e.Request.Body...), e.Response.Body...))
	for _, t := range q.Text {
		if !bytes.Contains(bodies, bytes.ToLower([]byte(t))) {
			return fmt.Sprintf("does not hold %q", t)
		}
	}
	switch {
	case q.Method != "" && e.Request.Method != q.Method:
		return "has the method " + e.Request.Method
	case q.Item != "" && !bytes.Contains(e.Request.Body, []byte(`"name":"`+q.Item+`"`)):
		return "names no " + q.Item
	case q.Outcome != "" && e.Outcome() != q.Outcome:
		return "ended " + string(e.Outcome())
	case e.LatencyNS < q.MinLatency.Nanoseconds():
		return fmt.Sprintf("took %d ns", e.LatencyNS)
	case q.Lint != "" && !slices.ContainsFunc(append(e.Request.Findings, e.Response.Findings...), func(f lint.Finding) bool {
		return q.Lint == backend.LintAny || string(f.Severity) == q.Lint || f.Code == q.Lint
	}):
		return "has no finding for lint:" + q.Lint
	}
	return ""
}
