package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcp-playground/playground/backend"
)

type lastCallRow struct {
	ServerID        int64         `db:"server_id"`
	Kind            string        `db:"kind"`
	Name            string        `db:"name"`
	Arguments       string        `db:"arguments"`
	SessionID       sql.NullInt64 `db:"session_id"`
	ResponseFrameID sql.NullInt64 `db:"response_frame_id"`
	Outcome         string        `db:"outcome"`
	Summary         string        `db:"summary"`
	CalledAt        int64         `db:"called_at"`
}

// PutLastCall implements backend.LastCallStore.
func (d *DB) PutLastCall(ctx context.Context, c backend.LastCall) error {
	_, err := d.db.ExecContext(ctx, `
	INSERT INTO last_calls (server_id, kind, name, arguments, session_id, response_frame_id, outcome, summary, called_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (server_id, kind, name) DO UPDATE SET
		arguments = excluded.arguments, session_id = excluded.session_id, response_frame_id = excluded.response_frame_id,
		outcome = excluded.outcome, summary = excluded.summary, called_at = excluded.called_at`,
		c.ServerID, string(c.Kind), c.Name, string(c.Arguments),
		sql.NullInt64{Int64: c.SessionID, Valid: c.SessionID != 0},
		sql.NullInt64{Int64: c.ResponseFrameID, Valid: c.ResponseFrameID != 0},
		string(c.Outcome), c.Summary, unixNano(c.Time))
	if err != nil {
		return fmt.Errorf("store: put last call of %s %q: %w", c.Kind, c.Name, err)
	}
	return nil
}

// LastCall implements backend.LastCallStore.
func (d *DB) LastCall(ctx context.Context, serverID int64, kind backend.ItemKind, name string) (backend.LastCall, bool, error) {
	var r lastCallRow
	err := d.db.GetContext(ctx, &r, `
	SELECT server_id, kind, name, arguments, session_id, response_frame_id, outcome, summary, called_at
	FROM last_calls WHERE server_id = ? AND kind = ? AND name = ?`, serverID, string(kind), name)
	if errors.Is(err, sql.ErrNoRows) {
		return backend.LastCall{}, false, nil
	}
	if err != nil {
		return backend.LastCall{}, false, fmt.Errorf("store: last call of %s %q: %w", kind, name, err)
	}
	return backend.LastCall{
		ServerID: r.ServerID, Kind: backend.ItemKind(r.Kind), Name: r.Name, Arguments: json.RawMessage(r.Arguments),
		SessionID: r.SessionID.Int64, ResponseFrameID: r.ResponseFrameID.Int64,
		Outcome: backend.CallOutcome(r.Outcome), Summary: r.Summary, Time: fromUnixNano(r.CalledAt),
	}, true, nil
}
