package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// MoveServer implements backend.ServerStore: UpdateServer, and in the same
// transaction the server's OAuth grants deleted and the client secret and
// private key of its OAuth settings cleared with the issuer they were
// pinned to (the client ID stays).
func (d *DB) MoveServer(ctx context.Context, s backend.Server) (backend.DroppedOAuth, error) {
	var dropped backend.DroppedOAuth
	tx, err := d.db.BeginTxx(ctx, nil)
	if err != nil {
		return dropped, fmt.Errorf("store: move server %d: %w", s.ID, err)
	}
	defer tx.Rollback()
	if err := d.updateServer(ctx, tx, s); err != nil {
		return dropped, err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM oauth_grants WHERE server_id = ?`, s.ID)
	if err != nil {
		return dropped, fmt.Errorf("store: move server %d: %w", s.ID, err)
	}
	grants, err := res.RowsAffected()
	if err != nil {
		return dropped, fmt.Errorf("store: move server %d: %w", s.ID, err)
	}
	dropped.Grants = int(grants)
	err = tx.QueryRowxContext(ctx, `SELECT client_secret != '', private_key != '' FROM server_oauth WHERE server_id = ?`, s.ID).
		Scan(&dropped.ClientSecret, &dropped.PrivateKey)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return dropped, fmt.Errorf("store: move server %d: %w", s.ID, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE server_oauth SET client_secret = '', private_key = '', key_id = '', issuer = '', updated_at = ?
		WHERE server_id = ?`, unixNano(time.Now()), s.ID); err != nil {
		return dropped, fmt.Errorf("store: move server %d: %w", s.ID, err)
	}
	if err := tx.Commit(); err != nil {
		return backend.DroppedOAuth{}, fmt.Errorf("store: move server %d: %w", s.ID, err)
	}
	return dropped, nil
}
