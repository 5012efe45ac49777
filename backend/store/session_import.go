package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/mcp-playground/playground/backend"
)

// ImportSession implements backend.SessionImportStore.
func (d *DB) ImportSession(ctx context.Context, s backend.Session, fill func(sessionID int64, w backend.ImportWriter) (backend.ImportedSession, error)) (int64, error) {
	tx, err := d.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("store: import session: %w", err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO sessions (server_id, server_name, transport, status, close_reason, started_at, ended_at, imported_from, imported_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		sql.NullInt64{Int64: s.ServerID, Valid: s.ServerID != 0}, s.ServerName, string(s.Transport), string(s.Status), s.CloseReason,
		unixNano(s.StartedAt), unixNano(s.StartedAt), s.ImportedFrom, unixNano(s.ImportedAt))
	if err != nil {
		return 0, fmt.Errorf("store: import session: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("store: import session: %w", err)
	}
	got, err := fill(id, importWriter{d: d, tx: tx})
	if err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE sessions SET server_name = ?1, protocol_version = ?3, excerpt = ?4,
		started_at = coalesce((SELECT MIN(time) FROM frames WHERE session_id = ?2), started_at),
		ended_at = coalesce((SELECT MAX(time) FROM frames WHERE session_id = ?2), ended_at)
	WHERE id = ?2`, got.ServerName, id, got.ProtocolVersion, got.Excerpt); err != nil {
		return 0, fmt.Errorf("store: import session %d: %w", id, err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("store: commit imported session: %w", err)
	}
	return id, nil
}

// importWriter writes an imported session's frames in its transaction.
type importWriter struct {
	d  *DB
	tx *sqlx.Tx
}

func (w importWriter) InsertFrames(ctx context.Context, frames []backend.Frame, exchanges []backend.Exchange) error {
	return w.d.insertFrames(ctx, w.tx, frames, exchanges)
}
