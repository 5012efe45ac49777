package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

type frameRow struct {
	ID        int64          `db:"id"`
	SessionID int64          `db:"session_id"`
	Time      int64          `db:"time"`
	Direction string         `db:"direction"`
	Kind      string         `db:"kind"`
	RPCType   string         `db:"rpc_type"`
	RPCID     sql.NullString `db:"rpc_id"`
	Method    string         `db:"method"`
	Body      []byte         `db:"body"`
	BodySize  int            `db:"body_size"`
	HTTP      sql.NullString `db:"http"`
	PairID    sql.NullInt64  `db:"pair_id"`
	LatencyNS sql.NullInt64  `db:"latency_ns"`
	IsError   bool           `db:"is_error"`
	IDClash   string         `db:"id_clash"`
	ClashWith sql.NullInt64  `db:"id_clash_frame"`
	Findings  string         `db:"findings"`
}

// MaxFrameID implements backend.FrameStore.
func (d *DB) MaxFrameID(ctx context.Context) (int64, error) {
	var id sql.NullInt64
	if err := d.db.GetContext(ctx, &id, `SELECT MAX(id) FROM frames`); err != nil {
		return 0, fmt.Errorf("store: max frame id: %w", err)
	}
	return id.Int64, nil
}

// frameStatements are InsertFrames' statements, prepared once: SQLite
// compiles a statement on every prepare, which would otherwise cost each
// small batch as much as its inserts.
type frameStatements struct {
	mu    sync.Mutex
	stmts *insertStatements
}

// insertStatements insert a frame, a large frame's whole body (see
// backend.MaxBodyPreview and migration 0002) and an exchange.
type insertStatements struct {
	frame, body, exchange, finding *sql.Stmt
}

const (
	insertFrameSQL    = `INSERT INTO frames (id, session_id, time, direction, kind, rpc_type, rpc_id, method, body, body_size, http, is_error, id_clash, id_clash_frame) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	insertBodySQL     = `INSERT INTO frame_bodies (frame_id, body) VALUES (?, ?)`
	insertExchangeSQL = `INSERT INTO exchanges (request_frame_id, response_frame_id, session_id, method, latency_ns) VALUES (?, ?, ?, ?, ?)`
	insertFindingSQL  = `INSERT INTO frame_findings (frame_id, session_id, exchange_id, time, code, severity, pointer, message, spec) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
)

// get returns the prepared statements, preparing them on first use (and
// again after a failed attempt).
func (s *frameStatements) get(ctx context.Context, db *sqlx.DB) (*insertStatements, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stmts != nil {
		return s.stmts, nil
	}
	var st insertStatements
	for _, p := range []struct {
		stmt **sql.Stmt
		sql  string
	}{{&st.frame, insertFrameSQL}, {&st.body, insertBodySQL}, {&st.exchange, insertExchangeSQL}, {&st.finding, insertFindingSQL}} {
		var err error
		if *p.stmt, err = db.PrepareContext(ctx, p.sql); err != nil {
			st.close()
			return nil, err
		}
	}
	s.stmts = &st
	return s.stmts, nil
}

func (s *frameStatements) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stmts != nil {
		s.stmts.close()
		s.stmts = nil
	}
}

func (st *insertStatements) close() {
	for _, s := range []*sql.Stmt{st.frame, st.body, st.exchange, st.finding} {
		if s != nil {
			s.Close()
		}
	}
}

// InsertFrames implements backend.FrameStore. A body longer than
// backend.MaxBodyPreview is stored whole in frame_bodies and its first
// bytes in frames.
func (d *DB) InsertFrames(ctx context.Context, frames []backend.Frame, exchanges []backend.Exchange) error {
	tx, err := d.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: insert frames: %w", err)
	}
	defer tx.Rollback()
	if err := d.insertFrames(ctx, tx, frames, exchanges); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit frames: %w", err)
	}
	d.lastInsert.Store(time.Now().UnixNano())
	return nil
}

// insertFrames is InsertFrames within tx.
func (d *DB) insertFrames(ctx context.Context, tx *sqlx.Tx, frames []backend.Frame, exchanges []backend.Exchange) error {
	st, err := d.stmts.get(ctx, d.db)
	if err != nil {
		return fmt.Errorf("store: insert frames: %w", err)
	}
	fstmt := tx.StmtContext(ctx, st.frame)
	defer fstmt.Close()
	var bstmt, lstmt *sql.Stmt
	var answers map[int64]int64 // of exchanges, once a frame has findings
	for _, f := range frames {
		httpJSON, err := d.encodeHTTP(f.HTTP, f.Shown)
		if err != nil {
			return fmt.Errorf("store: frame %d http info: %w", f.ID, err)
		}
		body := f.Body
		if body == nil {
			body = []byte{}
		}
		head := body[:min(len(body), backend.MaxBodyPreview)]
		if _, err := fstmt.ExecContext(ctx, f.ID, f.SessionID, unixNano(f.Time), string(f.Direction), string(f.Kind), string(f.RPCType),
			sql.NullString{String: f.RPCID, Valid: f.RPCID != ""}, f.Method, head, len(body), httpJSON,
			f.ToolError, string(f.Clash), sql.NullInt64{Int64: f.ClashFrameID, Valid: f.ClashFrameID != 0}); err != nil {
			return fmt.Errorf("store: insert frame %d: %w", f.ID, err)
		}
		if len(head) < len(body) {
			if bstmt == nil {
				bstmt = tx.StmtContext(ctx, st.body)
				defer bstmt.Close()
			}
			if _, err := bstmt.ExecContext(ctx, f.ID, body); err != nil {
				return fmt.Errorf("store: insert body of frame %d: %w", f.ID, err)
			}
		}
		if len(f.Findings) > 0 && lstmt == nil {
			lstmt = tx.StmtContext(ctx, st.finding)
			defer lstmt.Close()
			answers = answersOf(exchanges)
		}
		exchange := exchangeOf(f, answers)
		for _, l := range f.Findings {
			if _, err := lstmt.ExecContext(ctx, f.ID, f.SessionID, exchange, unixNano(f.Time), l.Code, string(l.Severity), l.Pointer, l.Message, l.Spec); err != nil {
				return fmt.Errorf("store: insert finding of frame %d: %w", f.ID, err)
			}
		}
	}
	if len(exchanges) > 0 {
		estmt := tx.StmtContext(ctx, st.exchange)
		defer estmt.Close()
		for _, e := range exchanges {
			if _, err := estmt.ExecContext(ctx, e.RequestFrameID, e.ResponseFrameID, e.SessionID, e.Method, e.LatencyNS); err != nil {
				return fmt.Errorf("store: insert exchange %d: %w", e.RequestFrameID, err)
			}
		}
	}
	return nil
}

// exchangeOf is the exchange_id of a finding of f (see migration 0023):
// f's own id for a request, the request's for a response that answers
// holds, NULL otherwise.
func exchangeOf(f backend.Frame, answers map[int64]int64) sql.NullInt64 {
	if f.RPCType == backend.RPCRequest {
		return sql.NullInt64{Int64: f.ID, Valid: true}
	}
	request, ok := answers[f.ID]
	return sql.NullInt64{Int64: request, Valid: ok}
}

// answersOf maps the response frames of exchanges to their requests'.
func answersOf(exchanges []backend.Exchange) map[int64]int64 {
	m := make(map[int64]int64, len(exchanges))
	for _, e := range exchanges {
		m[e.ResponseFrameID] = e.RequestFrameID
	}
	return m
}

// frameColumns selects a frame with its pair link, its lint findings (see
// findingsColumn), its body's whole length and its body: the first ?1
// bytes when ?1 > 0, which frames.body holds up to backend.MaxBodyPreview,
// else the whole body, from frame_bodies when it is longer. Callers add
// WHERE, ORDER BY and LIMIT.
const frameColumns = `
	SELECT f.id, f.session_id, f.time, f.direction, f.kind, f.rpc_type, f.rpc_id, f.method, f.http, f.body_size,
		f.is_error, f.id_clash, f.id_clash_frame, ` + findingsColumn + ` AS findings,
		CASE
			WHEN ?1 > 0 THEN substr(f.body, 1, ?1)
			WHEN f.body_size > length(f.body) THEN (SELECT b.body FROM frame_bodies b WHERE b.frame_id = f.id)
			ELSE f.body
		END AS body,
		COALESCE(rq.response_frame_id, rs.request_frame_id) AS pair_id, COALESCE(rq.latency_ns, rs.latency_ns) AS latency_ns
	FROM frames f
	LEFT JOIN exchanges rq ON rq.request_frame_id = f.id
	LEFT JOIN exchanges rs ON rs.response_frame_id = f.id`

// frameFilterSQL is backend.FrameFilter.Matches as SQL, on parameters
// ?6 Errors, ?7 NoNotifications, ?8 Direction, ?9 Text and ?10 Findings.
// frames.body holds a body's first backend.MaxBodyPreview bytes, as
// Matches reads.
const frameFilterSQL = `
	AND (NOT ?6 OR f.rpc_type = 'error' OR f.kind = 'parse-error' OR f.is_error)
	AND (NOT ?7 OR f.rpc_type <> 'notification')
	AND (?8 = '' OR f.direction = ?8)
	AND (?9 = '' OR instr(f.method, ?9) > 0 OR instr(f.body, CAST(?9 AS BLOB)) > 0)
	AND (NOT ?10 OR EXISTS (SELECT 1 FROM frame_findings ff WHERE ff.frame_id = f.id))`

// ListFrames implements backend.FrameStore. Rows are read one at a time,
// so a byte budget stops reading at the frame that reaches it.
func (d *DB) ListFrames(ctx context.Context, q backend.FrameQuery) ([]backend.Frame, error) {
	query := frameColumns + ` WHERE f.session_id = ?2 AND f.id > ?3 AND (?4 = 0 OR f.id < ?4)` + frameFilterSQL + ` ORDER BY f.id`
	if q.Newest {
		query += ` DESC`
	}
	query += ` LIMIT ?5`
	limit := q.Limit
	if limit <= 0 {
		limit = -1
	}
	fl := q.Filter
	rows, err := d.db.QueryxContext(ctx, query, q.BodyPreview, q.SessionID, q.AfterID, q.BeforeID, limit,
		fl.Errors, fl.NoNotifications, string(fl.Direction), fl.Text, fl.Findings)
	if err != nil {
		return nil, fmt.Errorf("store: list frames of session %d: %w", q.SessionID, err)
	}
	defer rows.Close()
	var out []backend.Frame
	bodyBytes := 0
	for rows.Next() {
		var r frameRow
		if err := rows.StructScan(&r); err != nil {
			return nil, fmt.Errorf("store: list frames of session %d: %w", q.SessionID, err)
		}
		f, err := d.frameOf(r)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
		if bodyBytes += len(f.Body); q.MaxBodyBytes > 0 && bodyBytes >= q.MaxBodyBytes {
			break
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list frames of session %d: %w", q.SessionID, err)
	}
	if q.Newest {
		slices.Reverse(out)
	}
	return out, nil
}

// GetFrame implements backend.FrameStore.
func (d *DB) GetFrame(ctx context.Context, id int64) (backend.Frame, error) {
	var r frameRow
	err := d.db.GetContext(ctx, &r, frameColumns+` WHERE f.id = ?2`, 0, id)
	if errors.Is(err, sql.ErrNoRows) {
		return backend.Frame{}, backend.Errorf(backend.ENotFound, "Frame %d does not exist.", id)
	}
	if err != nil {
		return backend.Frame{}, fmt.Errorf("store: get frame %d: %w", id, err)
	}
	return d.frameOf(r)
}

// RevealFrameHTTP implements backend.FrameStore.
func (d *DB) RevealFrameHTTP(ctx context.Context, id int64) (*mcpclient.HTTPInfo, error) {
	var col sql.NullString
	err := d.db.GetContext(ctx, &col, `SELECT http FROM frames WHERE id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, backend.Errorf(backend.ENotFound, "Frame %d does not exist.", id)
	}
	if err != nil {
		return nil, fmt.Errorf("store: reveal frame %d: %w", id, err)
	}
	info, err := d.openHTTP(col)
	if err != nil {
		return nil, fmt.Errorf("store: frame %d http info: %w", id, err)
	}
	return info, nil
}

// FrameHTTPSecrets implements backend.FrameStore.
func (d *DB) FrameHTTPSecrets(ctx context.Context, id int64) (backend.HTTPSecrets, error) {
	var col sql.NullString
	err := d.db.GetContext(ctx, &col, `SELECT http FROM frames WHERE id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return backend.HTTPSecrets{}, backend.Errorf(backend.ENotFound, "Frame %d does not exist.", id)
	}
	if err != nil {
		return backend.HTTPSecrets{}, fmt.Errorf("store: secrets of frame %d: %w", id, err)
	}
	st, err := decodeStoredHTTP(col)
	if st == nil || err != nil {
		return backend.HTTPSecrets{}, err
	}
	if st.Secrets != nil {
		return *st.Secrets, nil
	}
	shown, err := d.showHTTP(col)
	if err != nil {
		return backend.HTTPSecrets{}, fmt.Errorf("store: frame %d http info: %w", id, err)
	}
	return olderFrameSecrets(st, shown), nil
}

// olderFrameSecrets guesses the secrets of a frame stored before
// encodeHTTP noted them, from shown, its HTTP info as people see it: its
// URL when one is sealed, and every header shown redacted, since the
// redacted copy does not tell a sealed value from one never recorded.
func olderFrameSecrets(st *storedHTTP, shown *mcpclient.HTTPInfo) backend.HTTPSecrets {
	var s backend.HTTPSecrets
	if st.SealedURL != "" {
		s.Sealed = append(s.Sealed, backend.SecretPlace{Where: "URL", Name: "url"})
	}
	redacted := backend.SecretsOfHTTP(&mcpclient.HTTPInfo{Header: shown.Header})
	s.Sealed = append(s.Sealed, redacted.NotRecorded...)
	return s
}

// CountFrames implements backend.FrameStore.
func (d *DB) CountFrames(ctx context.Context, sessionID int64) (int, error) {
	var n int
	if err := d.db.GetContext(ctx, &n, `SELECT COUNT(*) FROM frames WHERE session_id = ?`, sessionID); err != nil {
		return 0, fmt.Errorf("store: count frames of session %d: %w", sessionID, err)
	}
	return n, nil
}

// frameOf decodes a frame row with its HTTP info as people are shown it
// (showHTTP): nothing is decrypted.
func (d *DB) frameOf(r frameRow) (backend.Frame, error) {
	f := backend.Frame{
		ID: r.ID, SessionID: r.SessionID, Time: fromUnixNano(r.Time), Direction: mcpclient.Direction(r.Direction),
		Kind: mcpclient.FrameKind(r.Kind), RPCType: backend.RPCType(r.RPCType), RPCID: r.RPCID.String, Method: r.Method,
		Body: r.Body, BodySize: r.BodySize, PairID: r.PairID.Int64, LatencyNS: r.LatencyNS.Int64,
		ToolError: r.IsError, Clash: backend.IDClash(r.IDClash), ClashFrameID: r.ClashWith.Int64,
	}
	var err error
	if f.HTTP, err = d.showHTTP(r.HTTP); err != nil {
		return backend.Frame{}, fmt.Errorf("store: frame %d http info: %w", r.ID, err)
	}
	if f.Findings, err = findingsOf(r.Findings); err != nil {
		return backend.Frame{}, fmt.Errorf("store: frame %d findings: %w", r.ID, err)
	}
	return f, nil
}

// storedHTTP is the http column: the HTTPInfo as people are shown it
// (backend.RedactHTTP), and beside it, sealed, what it hides: the whole
// header when one of its values is hidden (request headers carry the
// server's credentials), and the whole URL when it holds secrets; and in the clear
// which places are sealed and which were never recorded
// (backend.SecretsOfHTTP), names only. Rows written before the redacted
// header was kept beside the sealed one have no Header; rows written
// before the places were noted have no Secrets.
type storedHTTP struct {
	mcpclient.HTTPInfo
	SealedHeader string               `json:"sealedHeader,omitempty"`
	SealedURL    string               `json:"sealedURL,omitempty"`
	Secrets      *backend.HTTPSecrets `json:"secrets,omitempty"`
}

// encodeHTTP makes the http column of info, a recorded exchange, whose
// ShownHTTP is shown, or worked out here when shown is nil.
func (d *DB) encodeHTTP(info *mcpclient.HTTPInfo, shown *backend.ShownHTTP) (sql.NullString, error) {
	if info == nil {
		return sql.NullString{}, nil
	}
	if shown == nil {
		shown = backend.ShowHTTP(info)
	}
	secrets := shown.Secrets
	st := storedHTTP{HTTPInfo: *shown.Info, Secrets: &secrets}
	if st.URL != info.URL {
		var err error
		if st.SealedURL, err = d.seal([]byte(info.URL)); err != nil {
			return sql.NullString{}, err
		}
	}
	if sealsHeader(secrets) {
		plain, err := json.Marshal(info.Header)
		if err != nil {
			return sql.NullString{}, err
		}
		if st.SealedHeader, err = d.seal(plain); err != nil {
			return sql.NullString{}, err
		}
	}
	b, err := json.Marshal(st)
	if err != nil {
		return sql.NullString{}, err
	}
	return sql.NullString{String: string(b), Valid: true}, nil
}

// sealsHeader reports whether a recorded header holds a value that people
// are shown redacted, and so must be kept sealed: a header that hides
// nothing is the same as its redacted copy, and sealing it would keep
// nothing more.
func sealsHeader(s backend.HTTPSecrets) bool {
	return slices.ContainsFunc(s.Sealed, func(p backend.SecretPlace) bool { return p.Where == "header" })
}

// showHTTP decodes the http column as people are shown it, redacted,
// without decrypting anything; only a row written before the redacted
// header was kept has its sealed header opened, to be redacted here.
func (d *DB) showHTTP(col sql.NullString) (*mcpclient.HTTPInfo, error) {
	st, err := decodeStoredHTTP(col)
	if st == nil || err != nil {
		return nil, err
	}
	info := st.HTTPInfo
	if info.Header == nil && st.SealedHeader != "" {
		if info.Header, err = d.openHeader(st.SealedHeader); err != nil {
			return nil, err
		}
		info.Header = backend.RedactHeader(info.Header)
	}
	return &info, nil
}

// openHTTP decodes the http column as it was recorded, secrets included.
func (d *DB) openHTTP(col sql.NullString) (*mcpclient.HTTPInfo, error) {
	st, err := decodeStoredHTTP(col)
	if st == nil || err != nil {
		return nil, err
	}
	info := st.HTTPInfo
	if st.SealedURL != "" {
		plain, err := d.open(st.SealedURL)
		if err != nil {
			return nil, err
		}
		info.URL = string(plain)
	}
	if st.SealedHeader != "" {
		if info.Header, err = d.openHeader(st.SealedHeader); err != nil {
			return nil, err
		}
	}
	return &info, nil
}

// decodeStoredHTTP parses the http column; NULL is nil.
func decodeStoredHTTP(col sql.NullString) (*storedHTTP, error) {
	if !col.Valid {
		return nil, nil
	}
	var st storedHTTP
	if err := json.Unmarshal([]byte(col.String), &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// openHeader decrypts a header sealed by encodeHTTP.
func (d *DB) openHeader(sealed string) (http.Header, error) {
	plain, err := d.open(sealed)
	if err != nil {
		return nil, err
	}
	var h http.Header
	if err := json.Unmarshal(plain, &h); err != nil {
		return nil, err
	}
	return h, nil
}
