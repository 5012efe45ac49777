package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcp-playground/playground/backend/audit"
)

// The audit log (migration 0013). Rows are only inserted: triggers refuse
// every UPDATE and DELETE of audit_events.

type auditRow struct {
	ID        int64         `db:"id"`
	At        int64         `db:"at"`
	ActorID   sql.NullInt64 `db:"actor_id"`
	ActorName string        `db:"actor_name"`
	Via       string        `db:"via"`
	Client    string        `db:"client"`
	Action    string        `db:"action"`
	Target    string        `db:"target"`
	Details   string        `db:"details"`
	Outcome   string        `db:"outcome"`
}

func (r auditRow) event() audit.Event {
	var actor int64
	if r.ActorID.Valid {
		actor = r.ActorID.Int64
	}
	return audit.Event{ID: r.ID, At: fromUnixNano(r.At), ActorID: actor, ActorName: r.ActorName, Via: r.Via,
		Client: r.Client, Action: r.Action, Target: r.Target, Details: json.RawMessage(r.Details), Outcome: r.Outcome}
}

// AppendAuditEvent implements audit.Store.
func (d *DB) AppendAuditEvent(ctx context.Context, e audit.Event) (audit.Event, error) {
	res, err := d.db.ExecContext(ctx, auditInsert, auditArgs(e)...)
	if err == nil {
		e.ID, err = res.LastInsertId()
	}
	if err != nil {
		return audit.Event{}, fmt.Errorf("store: append audit event: %w", err)
	}
	return e, nil
}

// AppendAuditEvents implements audit.Store: the events go in, in
// order, in one transaction, through one prepared statement.
func (d *DB) AppendAuditEvents(ctx context.Context, events []audit.Event) error {
	tx, err := d.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: append audit events: %w", err)
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, auditInsert)
	if err != nil {
		return fmt.Errorf("store: append audit events: %w", err)
	}
	defer st.Close()
	for _, e := range events {
		if _, err := st.ExecContext(ctx, auditArgs(e)...); err != nil {
			return fmt.Errorf("store: append audit event: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: append audit events: %w", err)
	}
	return nil
}

// auditInsert inserts an event, with the values auditArgs lists.
const auditInsert = `INSERT INTO audit_events (at, actor_id, actor_name, via, client, action, target, details, outcome)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`

func auditArgs(e audit.Event) []any {
	details := string(e.Details)
	if details == "" {
		details = "{}"
	}
	actor := sql.NullInt64{Int64: e.ActorID, Valid: e.ActorID != 0}
	return []any{unixNano(e.At), actor, e.ActorName, e.Via, e.Client, e.Action, e.Target, details, e.Outcome}
}

// ListAuditEvents implements audit.Store.
func (d *DB) ListAuditEvents(ctx context.Context, f audit.Filter) ([]audit.Event, error) {
	var where []string
	var args []any
	if f.Before > 0 {
		where, args = append(where, "id < ?"), append(args, f.Before)
	}
	if f.Actor != "" {
		where, args = append(where, "actor_name = ? COLLATE NOCASE"), append(args, f.Actor)
	}
	if f.Action != "" {
		where, args = append(where, "substr(action, 1, length(?)) = ?"), append(args, f.Action, f.Action)
	}
	if f.Text != "" {
		like := "%" + escapeLike(f.Text) + "%"
		where = append(where, `(actor_name LIKE ? ESCAPE '\' OR client LIKE ? ESCAPE '\' OR action LIKE ? ESCAPE '\'
			OR target LIKE ? ESCAPE '\' OR details LIKE ? ESCAPE '\' OR outcome LIKE ? ESCAPE '\')`)
		args = append(args, like, like, like, like, like, like)
	}
	if !f.Since.IsZero() {
		where, args = append(where, "at >= ?"), append(args, unixNano(f.Since))
	}
	if !f.Until.IsZero() {
		where, args = append(where, "at < ?"), append(args, unixNano(f.Until))
	}
	q := `SELECT id, at, actor_id, actor_name, via, client, action, target, details, outcome FROM audit_events`
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	limit := f.Limit
	if limit <= 0 {
		limit = audit.PageSize
	}
	q += " ORDER BY id DESC LIMIT ?"
	args = append(args, limit)
	var rows []auditRow
	if err := d.db.SelectContext(ctx, &rows, q, args...); err != nil {
		return nil, fmt.Errorf("store: list audit events: %w", err)
	}
	events := make([]audit.Event, len(rows))
	for i, r := range rows {
		events[i] = r.event()
	}
	return events, nil
}

// escapeLike escapes s for a LIKE pattern with ESCAPE '\'.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

var _ audit.Store = (*DB)(nil)
