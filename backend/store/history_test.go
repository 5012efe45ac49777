package store

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/mcpclient/lint"
)

// historyFixture is an exchange to store: its request and response bodies.
type historyFixture struct {
	session           int64
	method, req, resp string
	rpcType           backend.RPCType // of the response
	toolError         bool            // the response is a tool's failure
	latency           time.Duration
	at                time.Time
	// reqLint and respLint are the request's and response's findings.
	reqLint, respLint []lint.Finding
}

// mustStoreExchanges stores each fixture as a request frame and a response
// frame linked by an exchange, in order, and returns the exchange ids.
func mustStoreExchanges(tb testing.TB, d *DB, fixtures ...historyFixture) []int64 {
	tb.Helper()
	ctx := testContext(tb)
	next, err := d.MaxFrameID(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	var frames []backend.Frame
	var exchanges []backend.Exchange
	var ids []int64
	for i, f := range fixtures {
		rq := backend.Frame{ID: next + 1, SessionID: f.session, Time: f.at, Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage,
			RPCType: backend.RPCRequest, RPCID: fmt.Sprint(i), Method: f.method, Body: []byte(f.req), Findings: f.reqLint}
		rs := backend.Frame{ID: next + 2, SessionID: f.session, Time: f.at.Add(f.latency), Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage,
			RPCType: f.rpcType, RPCID: fmt.Sprint(i), Method: f.method, Body: []byte(f.resp), ToolError: f.toolError, Findings: f.respLint}
		next += 2
		frames = append(frames, rq, rs)
		exchanges = append(exchanges, backend.Exchange{RequestFrameID: rq.ID, ResponseFrameID: rs.ID, SessionID: f.session, Method: f.method, LatencyNS: f.latency.Nanoseconds()})
		ids = append(ids, rq.ID)
	}
	if err := d.InsertFrames(ctx, frames, exchanges); err != nil {
		tb.Fatal(err)
	}
	return ids
}

func toolCall(session int64, name, arg, resultText string, isError bool, latency time.Duration, at time.Time) historyFixture {
	return historyFixture{session: session, method: "tools/call", rpcType: backend.RPCResult, toolError: isError, latency: latency, at: at,
		req:  fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":{"text":%q}}}`, name, arg),
		resp: fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":%q}],"isError":%t}}`, resultText, isError)}
}

func TestSearchHistory(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	demo := MustCreateSession(t, d, 0, "demo")
	other := MustCreateSession(t, d, 0, "Other")
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	ids := mustStoreExchanges(t, d,
		toolCall(demo, "echo", "hello", "echo: sunny weather", false, 10*time.Millisecond, t0),
		toolCall(demo, "echo", "rain", "it rains today", true, 700*time.Millisecond, t0.Add(time.Hour)),
		historyFixture{session: other, method: "resources/read", rpcType: backend.RPCResult, latency: 2 * time.Millisecond, at: t0.Add(2 * time.Hour),
			req:  `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"demo://weather/today"}}`,
			resp: `{"jsonrpc":"2.0","id":2,"result":{"contents":[{"uri":"demo://weather/today","text":"cloudy weather"}]}}`},
		historyFixture{session: other, method: "prompts/get", rpcType: backend.RPCError, latency: time.Second, at: t0.Add(3 * time.Hour),
			req:  `{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"greet"}}`,
			resp: `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"unknown prompt"}}`},
	)
	tests := []struct {
		name  string
		query string
		want  []int64 // newest first
	}{
		{"everything", "", []int64{ids[3], ids[2], ids[1], ids[0]}},
		{"word in a result", "weather", []int64{ids[2], ids[0]}},
		{"word in params", "rain", []int64{ids[1]}},
		{"words all needed", "sunny weather", []int64{ids[0]}},
		{"case-insensitive", "SUNNY", []int64{ids[0]}},
		{"phrase", `"cloudy weather"`, []int64{ids[2]}},
		{"phrase in another order", `"weather cloudy"`, nil},
		{"server, any case", "server:other", []int64{ids[3], ids[2]}},
		{"method", "method:tools/call", []int64{ids[1], ids[0]}},
		{"tool name", "name:echo", []int64{ids[1], ids[0]}},
		{"resource uri", "name:demo://weather/today", []int64{ids[2]}},
		{"prompt name", "name:greet", []int64{ids[3]}},
		{"ok", "status:ok", []int64{ids[2], ids[0]}},
		{"isError", "status:iserror", []int64{ids[1]}},
		{"rpc error", "status:rpc-error", []int64{ids[3]}},
		{"any failure", "status:error", []int64{ids[3], ids[1]}},
		{"error code", "code:-32602", []int64{ids[3]}},
		{"other error code", "code:-32601", nil},
		{"slow", "latency:>500ms", []int64{ids[3], ids[1]}},
		{"fast", "latency:<100ms", []int64{ids[2], ids[0]}},
		{"latency range", "latency:500ms..900ms", []int64{ids[1]}},
		{"after", "after:2026-11-30T13:30", []int64{ids[3], ids[2]}},
		{"before", "before:2026-11-30T13:30", []int64{ids[1], ids[0]}},
		{"filters and text", "method:tools/call status:error rain", []int64{ids[1]}},
		{"no match", "nowhere", nil},
		{"FTS5 syntax is text", `"AND" OR* (x`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := backend.ParseHistoryQuery(tt.query, t0)
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.SearchHistory(ctx, q, 0, 10)
			if err != nil {
				t.Fatal(err)
			}
			if gotIDs := exchangeIDs(got); !slices.Equal(gotIDs, tt.want) {
				t.Errorf("SearchHistory(%q) = %v, want %v", tt.query, gotIDs, tt.want)
			}
		})
	}

	t.Run("entry", func(t *testing.T) {
		got, err := d.SearchHistory(ctx, backend.HistoryQuery{Item: "greet"}, 0, 10)
		if err != nil || len(got) != 1 {
			t.Fatalf("SearchHistory = %v, %v", got, err)
		}
		e := got[0]
		if e.Session.ServerName != "Other" || e.Item() != "greet" || e.Outcome() != backend.OutcomeRPCError || e.LatencyNS != time.Second.Nanoseconds() {
			t.Errorf("entry = %+v", e)
		}
		if code, ok := e.ErrorCode(); !ok || code != -32602 {
			t.Errorf("ErrorCode() = %d, %t", code, ok)
		}
	})
}

func TestSearchHistoryPages(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	s := MustCreateSession(t, d, 0, "demo")
	var fixtures []historyFixture
	for i := range 7 {
		fixtures = append(fixtures, toolCall(s, "echo", fmt.Sprint("word ", i), "paged", false, time.Millisecond, time.Now()))
	}
	ids := mustStoreExchanges(t, d, fixtures...)
	for _, q := range []backend.HistoryQuery{{}, {Text: []string{"paged"}}} {
		var seen []int64
		before := int64(0)
		for range 4 {
			page, err := d.SearchHistory(ctx, q, before, 3)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			seen = append(seen, exchangeIDs(page)...)
			before = page[len(page)-1].ExchangeID()
		}
		want := slices.Clone(ids)
		slices.Reverse(want)
		if !slices.Equal(seen, want) {
			t.Errorf("pages of %+v = %v, want %v", q, seen, want)
		}
	}
}

func TestGetExchange(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	s := MustCreateSession(t, d, 0, "demo")
	ids := mustStoreExchanges(t, d, toolCall(s, "echo", "hi", "echo: hi", false, time.Millisecond, time.Now()))
	e, err := d.GetExchange(ctx, s, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if e.Item() != "echo" || e.Response.ID != ids[0]+1 || e.Session.ID != s {
		t.Errorf("GetExchange = %+v", e)
	}
	if _, err := d.GetExchange(ctx, s+1, ids[0]); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("GetExchange of another session: %v, want not found", err)
	}
	if _, err := d.GetExchange(ctx, s, ids[0]+1); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("GetExchange of a response frame: %v, want not found", err)
	}
}

// TestHistoryIndexFollowsDeletes checks that a deleted session's exchanges
// leave the index.
func TestHistoryIndexFollowsDeletes(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	s := MustCreateSession(t, d, 0, "demo")
	mustStoreExchanges(t, d, toolCall(s, "echo", "gone", "gone", false, time.Millisecond, time.Now()))
	if err := d.indexAllHistory(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.db.ExecContext(ctx, `DELETE FROM sessions WHERE id = ?`, s); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := d.db.GetContext(ctx, &n, `SELECT COUNT(*) FROM exchanges_fts WHERE exchanges_fts MATCH 'gone'`); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("%d index rows left after the delete", n)
	}
}

// TestHistoryMigrationIndexesOlderExchanges applies migration 0006 to a
// database whose exchanges were recorded before it.
func TestHistoryMigrationIndexesOlderExchanges(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	d, err := Open(testContext(t), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t)
	s := MustCreateSession(t, d, 0, "demo")
	// Undo 0006 as if the database predated it, then record.
	for _, stmt := range []string{`DROP TRIGGER exchanges_fts_queue`, `DROP TRIGGER exchanges_fts_delete`, `DROP TABLE exchanges_fts`, `DROP TABLE exchanges_fts_pending`,
		`DELETE FROM migrations WHERE name = '0006_history_search.sql'`} {
		if _, err := d.db.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	ids := mustStoreExchanges(t, d, toolCall(s, "echo", "old", "recorded before search", false, time.Millisecond, time.Now()))
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d = MustOpenPath(t, path)
	got, err := d.SearchHistory(ctx, backend.HistoryQuery{Text: []string{"before search"}}, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(exchangeIDs(got), ids) {
		t.Errorf("after the migration, search = %v, want %v", exchangeIDs(got), ids)
	}
}

// TestHistoryIndexedInBackground checks that recorded exchanges reach the
// index without a search asking.
func TestHistoryIndexedInBackground(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	s := MustCreateSession(t, d, 0, "demo")
	mustStoreExchanges(t, d, toolCall(s, "echo", "x", "y", false, time.Millisecond, time.Now()))
	deadline := time.Now().Add(10 * time.Second)
	for {
		var indexed, pending int
		if err := d.db.GetContext(ctx, &indexed, `SELECT COUNT(*) FROM exchanges_fts WHERE exchanges_fts MATCH 'echo'`); err != nil {
			t.Fatal(err)
		}
		if err := d.db.GetContext(ctx, &pending, `SELECT COUNT(*) FROM exchanges_fts_pending`); err != nil {
			t.Fatal(err)
		}
		if indexed == 1 && pending == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 10s: %d indexed, %d pending", indexed, pending)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestIndexHistoryInBatches checks that IndexHistory takes the queue a
// batch at a time, oldest first.
func TestIndexHistoryInBatches(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	d.indexer.stop() // this test indexes by hand
	s := MustCreateSession(t, d, 0, "demo")
	mustStoreExchanges(t, d,
		toolCall(s, "echo", "a", "first", false, time.Millisecond, time.Now()),
		toolCall(s, "echo", "b", "second", false, time.Millisecond, time.Now()),
		toolCall(s, "echo", "c", "third", false, time.Millisecond, time.Now()))
	for _, want := range []int{2, 1, 0} {
		if n, err := d.IndexHistory(ctx, 2); err != nil || n != want {
			t.Fatalf("IndexHistory = %d, %v; want %d", n, err, want)
		}
	}
	var n int
	if err := d.db.GetContext(ctx, &n, `SELECT COUNT(*) FROM exchanges_fts WHERE exchanges_fts MATCH 'first OR second OR third'`); err != nil || n != 3 {
		t.Errorf("%d indexed (%v), want 3", n, err)
	}
}

func exchangeIDs(entries []backend.HistoryEntry) []int64 {
	var out []int64
	for _, e := range entries {
		out = append(out, e.ExchangeID())
	}
	return out
}

// TestSearchHistoryLint finds exchanges by their request's or response's
// lint findings: any, by severity, by code, with text and other filters,
// page by page; an exchange flagged on both frames is listed once, a
// request answered in a later commit is found, and a request never
// answered (no exchange) is not.
func TestSearchHistoryLint(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	s := MustCreateSession(t, d, 0, "demo")
	t0 := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	finding := func(code string, sev lint.Severity) []lint.Finding {
		return []lint.Finding{{Code: code, Severity: sev, Pointer: "/x", Message: "m"}}
	}
	flagged := func(fx historyFixture, req, resp []lint.Finding) historyFixture {
		fx.reqLint, fx.respLint = req, resp
		return fx
	}
	ids := mustStoreExchanges(t, d,
		flagged(toolCall(s, "echo", "a", "one", false, time.Millisecond, t0), finding("jsonrpc.version", lint.SevError), nil),
		flagged(toolCall(s, "echo", "rain", "two", false, time.Millisecond, t0), nil, finding("jsonrpc.reserved-code", lint.SevWarning)),
		toolCall(s, "echo", "rain", "three", false, time.Millisecond, t0),
		flagged(toolCall(s, "add", "b", "four", true, time.Millisecond, t0), finding("mcp.schema", lint.SevError), finding("mcp.content-type", lint.SevError)),
	)
	// A flagged request answered in a later commit, and one never answered.
	next, err := d.MaxFrameID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	late, lost := next+1, next+2
	request := func(id int64) backend.Frame {
		return backend.Frame{ID: id, SessionID: s, Time: t0, Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, RPCType: backend.RPCRequest,
			RPCID: fmt.Sprint(id), Method: "ping", Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`), Findings: finding("jsonrpc.params-type", lint.SevError)}
	}
	if err := d.InsertFrames(ctx, []backend.Frame{request(late), request(lost)}, nil); err != nil {
		t.Fatal(err)
	}
	answer := backend.Frame{ID: next + 3, SessionID: s, Time: t0, Direction: mcpclient.Inbound, Kind: mcpclient.KindMessage, RPCType: backend.RPCResult,
		Method: "ping", Body: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)}
	if err := d.InsertFrames(ctx, []backend.Frame{answer}, []backend.Exchange{{RequestFrameID: late, ResponseFrameID: answer.ID, SessionID: s, Method: "ping"}}); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		query string
		want  []int64
	}{
		{"lint:any", []int64{late, ids[3], ids[1], ids[0]}},
		{"lint:error", []int64{late, ids[3], ids[0]}},
		{"lint:warning", []int64{ids[1]}},
		{"lint:info", nil},
		{"lint:jsonrpc.reserved-code", []int64{ids[1]}},
		{"lint:mcp.content-type", []int64{ids[3]}},
		{"lint:any rain", []int64{ids[1]}},
		{"lint:error status:iserror", []int64{ids[3]}},
		{"lint:any name:echo", []int64{ids[1], ids[0]}},
		{"lint:jsonrpc.id-type", nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			q, err := backend.ParseHistoryQuery(tt.query, t0)
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.SearchHistory(ctx, q, 0, 10)
			if err != nil {
				t.Fatal(err)
			}
			if gotIDs := exchangeIDs(got); !slices.Equal(gotIDs, tt.want) {
				t.Errorf("SearchHistory(%q) = %v, want %v", tt.query, gotIDs, tt.want)
			}
		})
	}
	t.Run("pages", func(t *testing.T) {
		var all []int64
		for before := int64(0); ; {
			page, err := d.SearchHistory(ctx, backend.HistoryQuery{Lint: backend.LintAny}, before, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			all = append(all, exchangeIDs(page)...)
			before = page[len(page)-1].ExchangeID()
		}
		if want := []int64{late, ids[3], ids[1], ids[0]}; !slices.Equal(all, want) {
			t.Errorf("pages of lint:any: %v, want %v", all, want)
		}
	})
	if got, err := d.SearchHistory(ctx, backend.HistoryQuery{Lint: backend.LintAny}, 0, 10); err == nil && len(got) > 0 {
		if r := got[1].Response; len(r.Findings) != 1 || r.Findings[0].Code != "mcp.content-type" {
			t.Errorf("an entry's response carries findings %+v", r.Findings)
		}
	}
}
