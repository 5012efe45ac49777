package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sync"

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
	HTTP      sql.NullString `db:"http"`
	PairID    sql.NullInt64  `db:"pair_id"`
	LatencyNS sql.NullInt64  `db:"latency_ns"`
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
	mu       sync.Mutex
	frame    *sql.Stmt
	exchange *sql.Stmt
}

const (
	insertFrameSQL    = `INSERT INTO frames (id, session_id, time, direction, kind, rpc_type, rpc_id, method, body, http) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	insertExchangeSQL = `INSERT INTO exchanges (request_frame_id, response_frame_id, session_id, method, latency_ns) VALUES (?, ?, ?, ?, ?)`
)

// get returns the prepared statements, preparing them on first use (and
// again after a failed attempt).
func (s *frameStatements) get(ctx context.Context, db *sqlx.DB) (frame, exchange *sql.Stmt, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.frame == nil {
		if s.frame, err = db.PrepareContext(ctx, insertFrameSQL); err != nil {
			return nil, nil, err
		}
	}
	if s.exchange == nil {
		if s.exchange, err = db.PrepareContext(ctx, insertExchangeSQL); err != nil {
			return nil, nil, err
		}
	}
	return s.frame, s.exchange, nil
}

func (s *frameStatements) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range []*sql.Stmt{s.frame, s.exchange} {
		if st != nil {
			st.Close()
		}
	}
	s.frame, s.exchange = nil, nil
}

// InsertFrames implements backend.FrameStore.
func (d *DB) InsertFrames(ctx context.Context, frames []backend.Frame, exchanges []backend.Exchange) error {
	frameStmt, exchangeStmt, err := d.stmts.get(ctx, d.db)
	if err != nil {
		return fmt.Errorf("store: insert frames: %w", err)
	}
	tx, err := d.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: insert frames: %w", err)
	}
	defer tx.Rollback()
	fstmt := tx.StmtContext(ctx, frameStmt)
	defer fstmt.Close()
	for _, f := range frames {
		httpJSON, err := d.encodeHTTP(f.HTTP)
		if err != nil {
			return fmt.Errorf("store: frame %d http info: %w", f.ID, err)
		}
		body := f.Body
		if body == nil {
			body = []byte{}
		}
		if _, err := fstmt.ExecContext(ctx, f.ID, f.SessionID, unixNano(f.Time), string(f.Direction), string(f.Kind), string(f.RPCType),
			sql.NullString{String: f.RPCID, Valid: f.RPCID != ""}, f.Method, body, httpJSON); err != nil {
			return fmt.Errorf("store: insert frame %d: %w", f.ID, err)
		}
	}
	if len(exchanges) > 0 {
		estmt := tx.StmtContext(ctx, exchangeStmt)
		defer estmt.Close()
		for _, e := range exchanges {
			if _, err := estmt.ExecContext(ctx, e.RequestFrameID, e.ResponseFrameID, e.SessionID, e.Method, e.LatencyNS); err != nil {
				return fmt.Errorf("store: insert exchange %d: %w", e.RequestFrameID, err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit frames: %w", err)
	}
	return nil
}

// frameSelect reads frames with their pair links; callers add WHERE,
// ORDER BY and LIMIT.
const frameSelect = `
	SELECT f.*, COALESCE(rq.response_frame_id, rs.request_frame_id) AS pair_id, COALESCE(rq.latency_ns, rs.latency_ns) AS latency_ns
	FROM frames f
	LEFT JOIN exchanges rq ON rq.request_frame_id = f.id
	LEFT JOIN exchanges rs ON rs.response_frame_id = f.id`

// ListFrames implements backend.FrameStore.
func (d *DB) ListFrames(ctx context.Context, sessionID, afterID int64, limit int) ([]backend.Frame, error) {
	if limit <= 0 {
		limit = -1
	}
	return d.queryFrames(ctx, sessionID, frameSelect+` WHERE f.session_id = ? AND f.id > ? ORDER BY f.id LIMIT ?`, sessionID, afterID, limit)
}

// ListLastFrames implements backend.FrameStore.
func (d *DB) ListLastFrames(ctx context.Context, sessionID int64, limit int) ([]backend.Frame, error) {
	return d.queryFrames(ctx, sessionID, `SELECT * FROM (`+frameSelect+` WHERE f.session_id = ? ORDER BY f.id DESC LIMIT ?) ORDER BY id`, sessionID, limit)
}

// queryFrames runs a frameSelect query and decodes its rows.
func (d *DB) queryFrames(ctx context.Context, sessionID int64, query string, args ...any) ([]backend.Frame, error) {
	var rows []frameRow
	if err := d.db.SelectContext(ctx, &rows, query, args...); err != nil {
		return nil, fmt.Errorf("store: list frames of session %d: %w", sessionID, err)
	}
	out := make([]backend.Frame, len(rows))
	for i, r := range rows {
		f := backend.Frame{
			ID: r.ID, SessionID: r.SessionID, Time: fromUnixNano(r.Time), Direction: mcpclient.Direction(r.Direction),
			Kind: mcpclient.FrameKind(r.Kind), RPCType: backend.RPCType(r.RPCType), RPCID: r.RPCID.String, Method: r.Method,
			Body: r.Body, PairID: r.PairID.Int64, LatencyNS: r.LatencyNS.Int64,
		}
		var err error
		if f.HTTP, err = d.decodeHTTP(r.HTTP); err != nil {
			return nil, fmt.Errorf("store: frame %d http info: %w", r.ID, err)
		}
		out[i] = f
	}
	return out, nil
}

// storedHTTP is the http column: the HTTPInfo with its headers sealed,
// since request headers carry the server's credentials.
type storedHTTP struct {
	mcpclient.HTTPInfo        // Header is always nil here
	SealedHeader       string `json:"sealedHeader,omitempty"`
}

func (d *DB) encodeHTTP(info *mcpclient.HTTPInfo) (sql.NullString, error) {
	if info == nil {
		return sql.NullString{}, nil
	}
	st := storedHTTP{HTTPInfo: *info}
	st.Header = nil
	if len(info.Header) > 0 {
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

func (d *DB) decodeHTTP(col sql.NullString) (*mcpclient.HTTPInfo, error) {
	if !col.Valid {
		return nil, nil
	}
	var st storedHTTP
	if err := json.Unmarshal([]byte(col.String), &st); err != nil {
		return nil, err
	}
	info := st.HTTPInfo
	if st.SealedHeader != "" {
		plain, err := d.open(st.SealedHeader)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(plain, &info.Header); err != nil {
			return nil, err
		}
	}
	return &info, nil
}
