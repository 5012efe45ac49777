package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient/lint"
)

// historyJSON is a frame body as JSON text, or NULL when it is not valid
// JSON (a body cut at backend.MaxBodyPreview), so that json_extract never
// fails on it.
const historyJSON = `(CASE WHEN json_valid(CAST(%[1]s.body AS TEXT)) THEN CAST(%[1]s.body AS TEXT) END)`

// historyToolError is backend.Frame.ToolError on the response frame rs.
const historyToolError = `rs.is_error`

// historyWhere returns q's conditions on exchanges e, request frames rq,
// response frames rs and sessions s, ANDed, with their arguments; all but
// Text and Lint, which SearchHistory leads with.
func historyWhere(q backend.HistoryQuery) (string, []any) {
	var conds []string
	var args []any
	add := func(cond string, a ...any) {
		conds = append(conds, cond)
		args = append(args, a...)
	}
	if q.Server != "" {
		add(`s.server_name = ? COLLATE NOCASE`, q.Server)
	}
	if q.Method != "" {
		add(`e.method = ?`, q.Method)
	}
	if q.Item != "" {
		add(`coalesce(json_extract(`+fmt.Sprintf(historyJSON, "rq")+`, '$.params.name'), json_extract(`+fmt.Sprintf(historyJSON, "rq")+`, '$.params.uri')) = ?`, q.Item)
	}
	switch q.Outcome {
	case backend.OutcomeOK:
		add(`rs.rpc_type = 'result' AND NOT ` + historyToolError)
	case backend.OutcomeToolError:
		add(historyToolError)
	case backend.OutcomeRPCError:
		add(`rs.rpc_type = 'error'`)
	case backend.OutcomeFailed:
		add(`(rs.rpc_type = 'error' OR ` + historyToolError + `)`)
	}
	if q.HasErrorCode {
		add(`rs.rpc_type = 'error' AND json_extract(`+fmt.Sprintf(historyJSON, "rs")+`, '$.error.code') = ?`, q.ErrorCode)
	}
	if q.MinLatency > 0 {
		add(`e.latency_ns >= ?`, q.MinLatency.Nanoseconds())
	}
	if q.MaxLatency > 0 {
		add(`e.latency_ns <= ?`, q.MaxLatency.Nanoseconds())
	}
	if !q.After.IsZero() {
		add(`rq.time >= ?`, unixNano(q.After))
	}
	if !q.Before.IsZero() {
		add(`rq.time < ?`, unixNano(q.Before))
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " AND " + strings.Join(conds, " AND "), args
}

// lintCondition is HistoryQuery.Lint's condition on findings ff besides
// their exchange, led by " AND ", and its arguments: none for any finding,
// a severity or a code.
func lintCondition(l string) (string, []any) {
	switch lint.Severity(l) {
	case backend.LintAny:
		return "", nil
	case lint.SevError, lint.SevWarning, lint.SevInfo:
		return ` AND ff.severity = ?`, []any{l}
	}
	return ` AND ff.code = ?`, []any{l}
}

// ftsMatch turns words and phrases into an FTS5 query that needs them all:
// each one a quoted string, so that no character of it is FTS5 syntax.
func ftsMatch(text []string) string {
	parts := make([]string, len(text))
	for i, t := range text {
		parts[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	return strings.Join(parts, " AND ")
}

// historyJoins joins an exchange e to its frames and session.
const historyJoins = `
	JOIN frames rq ON rq.id = e.request_frame_id
	JOIN frames rs ON rs.id = e.response_frame_id
	JOIN sessions s ON s.id = e.session_id`

type historyRow struct {
	Request   int64 `db:"request_frame_id"`
	Response  int64 `db:"response_frame_id"`
	SessionID int64 `db:"session_id"`
	LatencyNS int64 `db:"latency_ns"`
}

// SearchHistory implements backend.HistoryStore. With text, it first
// indexes the exchanges still queued for the index; then the full-text
// index leads, newest first, so a page needs only as many index rows as
// it takes to fill it after the other filters; without, with a lint
// filter, the findings do; else the exchanges.
func (d *DB) SearchHistory(ctx context.Context, q backend.HistoryQuery, beforeID int64, limit int) ([]backend.HistoryEntry, error) {
	if len(q.Text) > 0 {
		// What was recorded since the indexer last ran is found too.
		if err := d.indexAllHistory(ctx); err != nil {
			return nil, err
		}
	}
	where, args := historyWhere(q)
	const joins = historyJoins
	// A plain bound (no "0 means none") lets SQLite hand it to the index.
	below := beforeID
	if below <= 0 {
		below = math.MaxInt64
	}
	var query string
	var lead []any
	switch {
	case len(q.Text) > 0:
		if q.Lint != "" {
			cond, a := lintCondition(q.Lint)
			where += ` AND EXISTS (SELECT 1 FROM frame_findings ff WHERE ff.exchange_id = e.request_frame_id` + cond + `)`
			args = append(args, a...)
		}
		query = `SELECT e.request_frame_id, e.response_frame_id, e.session_id, e.latency_ns
	FROM exchanges_fts x JOIN exchanges e ON e.request_frame_id = x.rowid` + joins + `
	WHERE exchanges_fts MATCH ? AND x.rowid < ?` + where + ` ORDER BY x.rowid DESC LIMIT ?`
		lead = []any{ftsMatch(q.Text), below}
	case q.Lint != "":
		// The findings lead, newest exchange first: a page reads as many of
		// them as it takes to fill it, however few exchanges are flagged.
		cond, a := lintCondition(q.Lint)
		query = `SELECT e.request_frame_id, e.response_frame_id, e.session_id, e.latency_ns
	FROM frame_findings ff JOIN exchanges e ON e.request_frame_id = ff.exchange_id` + joins + `
	WHERE ff.exchange_id IS NOT NULL AND ff.exchange_id < ?` + cond + where + ` GROUP BY ff.exchange_id ORDER BY ff.exchange_id DESC LIMIT ?`
		lead = append([]any{below}, a...)
	default:
		query = `SELECT e.request_frame_id, e.response_frame_id, e.session_id, e.latency_ns
	FROM exchanges e` + joins + `
	WHERE e.request_frame_id < ?` + where + ` ORDER BY e.request_frame_id DESC LIMIT ?`
		lead = []any{below}
	}
	var rows []historyRow
	if err := d.db.SelectContext(ctx, &rows, query, append(append(lead, args...), limit)...); err != nil {
		return nil, fmt.Errorf("store: search history: %w", err)
	}
	return d.historyEntries(ctx, rows)
}

// historyEntries loads the frames (bodies cut at backend.HistoryPreview)
// and sessions of rows, in one query each.
func (d *DB) historyEntries(ctx context.Context, rows []historyRow) ([]backend.HistoryEntry, error) {
	if len(rows) == 0 {
		return nil, nil
	}
	frameIDs := make([]any, 0, 2*len(rows))
	sessionIDs := make([]any, 0, len(rows))
	for _, r := range rows {
		frameIDs = append(frameIDs, r.Request, r.Response)
		sessionIDs = append(sessionIDs, r.SessionID)
	}
	frames := make(map[int64]backend.Frame, len(frameIDs))
	var frows []frameRow
	if err := d.db.SelectContext(ctx, &frows, frameColumns+` WHERE f.id IN (`+placeholders(len(frameIDs), 2)+`)`,
		append([]any{backend.HistoryPreview}, frameIDs...)...); err != nil {
		return nil, fmt.Errorf("store: search history frames: %w", err)
	}
	for _, r := range frows {
		f, err := d.frameOf(r)
		if err != nil {
			return nil, err
		}
		frames[f.ID] = f
	}
	sessions := make(map[int64]backend.Session, len(sessionIDs))
	var srows []sessionRow
	if err := d.db.SelectContext(ctx, &srows, `SELECT * FROM sessions WHERE id IN (`+placeholders(len(sessionIDs), 1)+`)`, sessionIDs...); err != nil {
		return nil, fmt.Errorf("store: search history sessions: %w", err)
	}
	for _, r := range srows {
		sessions[r.ID] = r.session()
	}
	out := make([]backend.HistoryEntry, len(rows))
	for i, r := range rows {
		out[i] = backend.HistoryEntry{Request: frames[r.Request], Response: frames[r.Response], Session: sessions[r.SessionID], LatencyNS: r.LatencyNS}
	}
	return out, nil
}

// placeholders returns n numbered parameters starting at ?first.
func placeholders(n, first int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "?%d", first+i)
	}
	return b.String()
}

// GetExchange implements backend.HistoryStore.
func (d *DB) GetExchange(ctx context.Context, sessionID, requestID int64) (backend.HistoryEntry, error) {
	var r historyRow
	err := d.db.GetContext(ctx, &r, `SELECT request_frame_id, response_frame_id, session_id, latency_ns FROM exchanges WHERE request_frame_id = ? AND session_id = ?`,
		requestID, sessionID)
	if errors.Is(err, sql.ErrNoRows) {
		return backend.HistoryEntry{}, backend.Errorf(backend.ENotFound, "Exchange %d of session %d does not exist.", requestID, sessionID)
	}
	if err != nil {
		return backend.HistoryEntry{}, fmt.Errorf("store: get exchange %d: %w", requestID, err)
	}
	e := backend.HistoryEntry{LatencyNS: r.LatencyNS}
	if e.Request, err = d.GetFrame(ctx, r.Request); err != nil {
		return e, err
	}
	if e.Response, err = d.GetFrame(ctx, r.Response); err != nil {
		return e, err
	}
	if e.Session, err = d.GetSession(ctx, r.SessionID); err != nil {
		return e, err
	}
	return e, nil
}
