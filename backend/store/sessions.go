package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcp-playground/playground/backend"
)

type sessionRow struct {
	ID              int64         `db:"id"`
	ServerID        sql.NullInt64 `db:"server_id"`
	ServerName      string        `db:"server_name"`
	Transport       string        `db:"transport"`
	Status          string        `db:"status"`
	CloseReason     string        `db:"close_reason"`
	Era             string        `db:"era"`
	ProtocolVersion string        `db:"protocol_version"`
	PeerName        string        `db:"peer_name"`
	PeerVersion     string        `db:"peer_version"`
	StartedAt       int64         `db:"started_at"`
	EndedAt         sql.NullInt64 `db:"ended_at"`
	ImportedFrom    string        `db:"imported_from"`
	ImportedAt      sql.NullInt64 `db:"imported_at"`
	Excerpt         bool          `db:"excerpt"`
}

func (r sessionRow) session() backend.Session {
	s := backend.Session{
		ID: r.ID, ServerID: r.ServerID.Int64, ServerName: r.ServerName, Transport: backend.Transport(r.Transport),
		Status: backend.SessionStatus(r.Status), CloseReason: r.CloseReason, Era: backend.Era(r.Era), ProtocolVersion: r.ProtocolVersion,
		PeerName: r.PeerName, PeerVersion: r.PeerVersion, StartedAt: fromUnixNano(r.StartedAt), ImportedFrom: r.ImportedFrom,
		Excerpt: r.Excerpt,
	}
	if r.EndedAt.Valid {
		s.EndedAt = fromUnixNano(r.EndedAt.Int64)
	}
	if r.ImportedAt.Valid {
		s.ImportedAt = fromUnixNano(r.ImportedAt.Int64)
	}
	return s
}

// CreateSession implements backend.SessionStore.
func (d *DB) CreateSession(ctx context.Context, s backend.Session) (int64, error) {
	res, err := d.db.ExecContext(ctx, `INSERT INTO sessions (server_id, server_name, transport, status, started_at) VALUES (?, ?, ?, ?, ?)`,
		sql.NullInt64{Int64: s.ServerID, Valid: s.ServerID != 0}, s.ServerName, string(s.Transport), string(s.Status), unixNano(s.StartedAt))
	if err != nil {
		return 0, fmt.Errorf("store: create session: %w", err)
	}
	return res.LastInsertId()
}

// MarkSessionOpen implements backend.SessionStore.
func (d *DB) MarkSessionOpen(ctx context.Context, s backend.Session) error {
	res, err := d.db.ExecContext(ctx, `UPDATE sessions SET status = 'open', era = ?, protocol_version = ?, peer_name = ?, peer_version = ? WHERE id = ?`,
		string(s.Era), s.ProtocolVersion, s.PeerName, s.PeerVersion, s.ID)
	if err != nil {
		return fmt.Errorf("store: open session %d: %w", s.ID, err)
	}
	return mustAffect(res, "Session %d does not exist.", s.ID)
}

// EndSession implements backend.SessionStore.
func (d *DB) EndSession(ctx context.Context, id int64, status backend.SessionStatus, reason string, at time.Time) error {
	res, err := d.db.ExecContext(ctx, `UPDATE sessions SET status = ?, close_reason = ?, ended_at = ? WHERE id = ?`,
		string(status), reason, unixNano(at), id)
	if err != nil {
		return fmt.Errorf("store: end session %d: %w", id, err)
	}
	return mustAffect(res, "Session %d does not exist.", id)
}

// GetSession implements backend.SessionStore.
func (d *DB) GetSession(ctx context.Context, id int64) (backend.Session, error) {
	var r sessionRow
	err := d.db.GetContext(ctx, &r, `SELECT * FROM sessions WHERE id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return backend.Session{}, backend.Errorf(backend.ENotFound, "Session %d does not exist.", id)
	}
	if err != nil {
		return backend.Session{}, fmt.Errorf("store: get session %d: %w", id, err)
	}
	return r.session(), nil
}

// ListSessions implements backend.SessionStore.
func (d *DB) ListSessions(ctx context.Context, serverID, beforeID int64, limit int) ([]backend.Session, error) {
	var rows []sessionRow
	err := d.db.SelectContext(ctx, &rows, `SELECT * FROM sessions WHERE (?1 = 0 OR server_id = ?1) AND (?2 = 0 OR id < ?2) ORDER BY id DESC LIMIT ?3`,
		serverID, beforeID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: list sessions: %w", err)
	}
	out := make([]backend.Session, len(rows))
	for i, r := range rows {
		out[i] = r.session()
	}
	return out, nil
}

// EndLiveSessions implements backend.SessionStore.
func (d *DB) EndLiveSessions(ctx context.Context, reason string, at time.Time) (int64, error) {
	res, err := d.db.ExecContext(ctx, `UPDATE sessions SET status = 'closed', close_reason = ?, ended_at = ? WHERE status IN ('connecting', 'open')`,
		reason, unixNano(at))
	if err != nil {
		return 0, fmt.Errorf("store: end live sessions: %w", err)
	}
	return res.RowsAffected()
}

// SaveDiagnosis implements backend.SessionStore.
func (d *DB) SaveDiagnosis(ctx context.Context, id int64, diagnosis backend.Diagnosis) error {
	b, err := json.Marshal(diagnosis)
	if err != nil {
		return fmt.Errorf("store: diagnosis of session %d: %w", id, err)
	}
	if _, err := d.db.ExecContext(ctx, `INSERT INTO session_diagnoses (session_id, diagnosis) VALUES (?, ?)
		ON CONFLICT (session_id) DO UPDATE SET diagnosis = excluded.diagnosis`, id, string(b)); err != nil {
		return fmt.Errorf("store: save the diagnosis of session %d: %w", id, err)
	}
	return nil
}

// Diagnosis implements backend.SessionStore.
func (d *DB) Diagnosis(ctx context.Context, id int64) (backend.Diagnosis, bool, error) {
	var text string
	err := d.db.GetContext(ctx, &text, `SELECT diagnosis FROM session_diagnoses WHERE session_id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return backend.Diagnosis{}, false, nil
	}
	if err != nil {
		return backend.Diagnosis{}, false, fmt.Errorf("store: the diagnosis of session %d: %w", id, err)
	}
	var diagnosis backend.Diagnosis
	if err := json.Unmarshal([]byte(text), &diagnosis); err != nil {
		return backend.Diagnosis{}, false, fmt.Errorf("store: the diagnosis of session %d: %w", id, err)
	}
	return diagnosis, true, nil
}
