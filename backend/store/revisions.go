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

type revisionRow struct {
	ID        int64         `db:"id"`
	ServerID  int64         `db:"server_id"`
	Number    int64         `db:"number"`
	SessionID sql.NullInt64 `db:"session_id"`
	Hash      string        `db:"hash"`
	Listing   string        `db:"listing"`
	TakenAt   int64         `db:"taken_at"`
}

func (r revisionRow) revision() (backend.Revision, error) {
	rev := backend.Revision{ID: r.ID, ServerID: r.ServerID, Number: r.Number, SessionID: r.SessionID.Int64,
		Hash: r.Hash, TakenAt: fromUnixNano(r.TakenAt)}
	if err := json.Unmarshal([]byte(r.Listing), &rev.Listing); err != nil {
		return backend.Revision{}, fmt.Errorf("store: revision %d of server %d: %w", r.Number, r.ServerID, err)
	}
	return rev, nil
}

const revisionColumns = `id, server_id, number, session_id, hash, listing, taken_at`

// AddRevision implements backend.RevisionStore.
func (d *DB) AddRevision(ctx context.Context, serverID, sessionID int64, body []byte, hash string, at time.Time) (backend.Revision, bool, error) {
	tx, err := d.db.BeginTxx(ctx, nil)
	if err != nil {
		return backend.Revision{}, false, fmt.Errorf("store: add revision: %w", err)
	}
	defer tx.Rollback()
	var latest revisionRow
	err = tx.GetContext(ctx, &latest, `SELECT `+revisionColumns+` FROM interface_revisions WHERE server_id = ? ORDER BY number DESC LIMIT 1`, serverID)
	switch {
	case err == nil && latest.Hash == hash:
		rev, err := latest.revision()
		return rev, false, err
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return backend.Revision{}, false, fmt.Errorf("store: add revision: %w", err)
	}
	row := revisionRow{ServerID: serverID, Number: latest.Number + 1, SessionID: sql.NullInt64{Int64: sessionID, Valid: sessionID != 0},
		Hash: hash, Listing: string(body), TakenAt: unixNano(at)}
	res, err := tx.ExecContext(ctx, `INSERT INTO interface_revisions (server_id, number, session_id, hash, listing, taken_at) VALUES (?, ?, ?, ?, ?, ?)`,
		row.ServerID, row.Number, row.SessionID, row.Hash, row.Listing, row.TakenAt)
	if err != nil {
		return backend.Revision{}, false, fmt.Errorf("store: add revision: %w", err)
	}
	if row.ID, err = res.LastInsertId(); err != nil {
		return backend.Revision{}, false, fmt.Errorf("store: add revision: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return backend.Revision{}, false, fmt.Errorf("store: add revision: %w", err)
	}
	rev, err := row.revision()
	return rev, err == nil, err
}

// Revisions implements backend.RevisionStore.
func (d *DB) Revisions(ctx context.Context, serverID, before int64, limit int) ([]backend.Revision, error) {
	if before <= 0 {
		before = 1 << 62
	}
	var rows []revisionRow
	if err := d.db.SelectContext(ctx, &rows, `SELECT `+revisionColumns+` FROM interface_revisions
	WHERE server_id = ? AND number < ? ORDER BY number DESC LIMIT ?`, serverID, before, limit); err != nil {
		return nil, fmt.Errorf("store: revisions of server %d: %w", serverID, err)
	}
	out := make([]backend.Revision, 0, len(rows))
	for _, r := range rows {
		rev, err := r.revision()
		if err != nil {
			return nil, err
		}
		out = append(out, rev)
	}
	return out, nil
}
