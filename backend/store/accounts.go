package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
)

// Users, browser sessions and API tokens (migration 0012). Session and API
// tokens are stored only as their SHA-256.

type userRow struct {
	ID              int64         `db:"id"`
	Name            string        `db:"name"`
	PasswordHash    string        `db:"password_hash"`
	Role            string        `db:"role"`
	CreatedAt       int64         `db:"created_at"`
	PasswordChanged int64         `db:"password_changed_at"`
	DisabledAt      sql.NullInt64 `db:"disabled_at"`
}

func (r userRow) user() backend.User {
	return backend.User{ID: r.ID, Name: r.Name, Role: backend.Role(r.Role), Created: fromUnixNano(r.CreatedAt),
		PasswordChanged: fromUnixNano(r.PasswordChanged), Disabled: r.DisabledAt.Valid}
}

const userColumns = `SELECT id, name, password_hash, role, created_at, password_changed_at, disabled_at FROM users`

// nullTime stores the zero time as NULL.
func nullTime(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: unixNano(t), Valid: true}
}

func fromNullTime(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return fromUnixNano(n.Int64)
}

// CountUsers implements accounts.Store.
func (d *DB) CountUsers(ctx context.Context) (int, error) {
	var n int
	if err := d.db.GetContext(ctx, &n, `SELECT count(*) FROM users`); err != nil {
		return 0, fmt.Errorf("store: count users: %w", err)
	}
	return n, nil
}

// CreateUser implements accounts.Store.
func (d *DB) CreateUser(ctx context.Context, u backend.User, passwordHash string, onlyFirst bool) (backend.User, error) {
	q := `INSERT INTO users (name, password_hash, role, created_at, password_changed_at) SELECT ?, ?, ?, ?, ?`
	if onlyFirst {
		q += ` WHERE NOT EXISTS (SELECT 1 FROM users)`
	}
	res, err := d.db.ExecContext(ctx, q, u.Name, passwordHash, string(u.Role), unixNano(u.Created), unixNano(u.PasswordChanged))
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE constraint failed: users.name") {
			return backend.User{}, &backend.Error{Code: backend.EConflict, Message: "An account called " + u.Name + " exists already.",
				Fields: map[string]string{"name": "This name is taken."}}
		}
		return backend.User{}, fmt.Errorf("store: create user: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return backend.User{}, backend.Errorf(backend.EConflict, "The first account exists already: sign in.")
	}
	u.ID, _ = res.LastInsertId()
	return u, nil
}

// UserByName implements accounts.Store.
func (d *DB) UserByName(ctx context.Context, name string) (backend.User, string, error) {
	var r userRow
	err := d.db.GetContext(ctx, &r, userColumns+` WHERE name = ?`, name)
	if errors.Is(err, sql.ErrNoRows) {
		return backend.User{}, "", backend.Errorf(backend.ENotFound, "No account is called %s.", name)
	} else if err != nil {
		return backend.User{}, "", fmt.Errorf("store: user %q: %w", name, err)
	}
	return r.user(), r.PasswordHash, nil
}

// GetUser implements accounts.Store.
func (d *DB) GetUser(ctx context.Context, id int64) (backend.User, error) {
	var r userRow
	err := d.db.GetContext(ctx, &r, userColumns+` WHERE id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return backend.User{}, backend.Errorf(backend.ENotFound, "Account %d does not exist.", id)
	} else if err != nil {
		return backend.User{}, fmt.Errorf("store: user %d: %w", id, err)
	}
	return r.user(), nil
}

// ListUsers implements accounts.Store.
func (d *DB) ListUsers(ctx context.Context) ([]backend.User, error) {
	var rows []userRow
	if err := d.db.SelectContext(ctx, &rows, userColumns+` ORDER BY name`); err != nil {
		return nil, fmt.Errorf("store: users: %w", err)
	}
	out := make([]backend.User, len(rows))
	for i, r := range rows {
		out[i] = r.user()
	}
	return out, nil
}

// UpdateUser implements accounts.Store. A disabled user keeps the
// time they were first disabled. It refuses (EConflict) to leave no
// enabled admin: the check and the change are one statement, so two
// admins demoting each other at once cannot both succeed.
func (d *DB) UpdateUser(ctx context.Context, u backend.User) error {
	disabled := sql.NullInt64{}
	if u.Disabled {
		disabled = sql.NullInt64{Int64: unixNano(time.Now()), Valid: true}
	}
	stillAdmin := u.Role == backend.RoleAdmin && !u.Disabled
	res, err := d.db.ExecContext(ctx, `UPDATE users SET role = ?, disabled_at = CASE WHEN ? IS NULL THEN NULL ELSE coalesce(disabled_at, ?) END
	WHERE id = ? AND (? OR EXISTS (SELECT 1 FROM users WHERE role = 'admin' AND disabled_at IS NULL AND id != ?))`,
		string(u.Role), disabled, disabled, u.ID, stillAdmin, u.ID)
	if err != nil {
		return fmt.Errorf("store: update user %d: %w", u.ID, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("store: %w", err)
	} else if n == 1 {
		return nil
	}
	if _, err := d.GetUser(ctx, u.ID); err != nil {
		return err
	}
	return backend.Errorf(backend.EConflict, "%s is the last enabled admin: make someone else an admin first.", u.Name)
}

// SetPasswordHash implements accounts.Store.
func (d *DB) SetPasswordHash(ctx context.Context, userID int64, hash string, at time.Time) error {
	res, err := d.db.ExecContext(ctx, `UPDATE users SET password_hash = ?, password_changed_at = ? WHERE id = ?`, hash, unixNano(at), userID)
	if err != nil {
		return fmt.Errorf("store: set password of user %d: %w", userID, err)
	}
	return oneRow(res, "Account %d does not exist.", userID)
}

// oneRow returns ENotFound with the message when res changed no row.
func oneRow(res sql.Result, format string, args ...any) error {
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("store: %w", err)
	} else if n == 0 {
		return backend.Errorf(backend.ENotFound, format, args...)
	}
	return nil
}

type webSessionRow struct {
	ID         int64  `db:"id"`
	UserID     int64  `db:"user_id"`
	Client     string `db:"client"`
	CreatedAt  int64  `db:"created_at"`
	LastSeenAt int64  `db:"last_seen_at"`
	ExpiresAt  int64  `db:"expires_at"`
}

func (r webSessionRow) session() accounts.WebSession {
	return accounts.WebSession{ID: r.ID, UserID: r.UserID, Client: r.Client, Created: fromUnixNano(r.CreatedAt),
		LastSeen: fromUnixNano(r.LastSeenAt), Expires: fromUnixNano(r.ExpiresAt)}
}

const webSessionColumns = `SELECT id, user_id, client, created_at, last_seen_at, expires_at FROM web_sessions`

// CreateWebSession implements accounts.Store. It also drops the
// sessions that have passed their expiry, so that the table does not grow
// with every sign-in.
func (d *DB) CreateWebSession(ctx context.Context, ws accounts.WebSession, tokenHash []byte) (accounts.WebSession, error) {
	if _, err := d.db.ExecContext(ctx, `DELETE FROM web_sessions WHERE expires_at <= ?`, unixNano(ws.Created)); err != nil {
		return accounts.WebSession{}, fmt.Errorf("store: drop ended sessions: %w", err)
	}
	res, err := d.db.ExecContext(ctx, `INSERT INTO web_sessions (token_hash, user_id, client, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
		tokenHash, ws.UserID, ws.Client, unixNano(ws.Created), unixNano(ws.LastSeen), unixNano(ws.Expires))
	if err != nil {
		return accounts.WebSession{}, fmt.Errorf("store: create session: %w", err)
	}
	ws.ID, _ = res.LastInsertId()
	return ws, nil
}

// ownerColumns are the columns of a session's or token's user, as the
// field "u" of a row (one read authenticates a request).
const ownerColumns = `u.id AS "u.id", u.name AS "u.name", u.password_hash AS "u.password_hash", u.role AS "u.role",
	u.created_at AS "u.created_at", u.password_changed_at AS "u.password_changed_at", u.disabled_at AS "u.disabled_at"`

// WebSessionByHash implements accounts.Store.
func (d *DB) WebSessionByHash(ctx context.Context, tokenHash []byte) (accounts.WebSession, backend.User, error) {
	var r struct {
		webSessionRow
		Owner userRow `db:"u"`
	}
	err := d.db.GetContext(ctx, &r, `SELECT s.id, s.user_id, s.client, s.created_at, s.last_seen_at, s.expires_at, `+ownerColumns+`
	FROM web_sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`, tokenHash)
	if errors.Is(err, sql.ErrNoRows) {
		return accounts.WebSession{}, backend.User{}, backend.Errorf(backend.ENotFound, "No such session.")
	} else if err != nil {
		return accounts.WebSession{}, backend.User{}, fmt.Errorf("store: session: %w", err)
	}
	return r.session(), r.Owner.user(), nil
}

// TouchWebSession implements accounts.Store.
func (d *DB) TouchWebSession(ctx context.Context, id int64, seen time.Time) error {
	if _, err := d.db.ExecContext(ctx, `UPDATE web_sessions SET last_seen_at = ? WHERE id = ?`, unixNano(seen), id); err != nil {
		return fmt.Errorf("store: touch session %d: %w", id, err)
	}
	return nil
}

// DeleteWebSession implements accounts.Store.
func (d *DB) DeleteWebSession(ctx context.Context, id int64) error {
	if _, err := d.db.ExecContext(ctx, `DELETE FROM web_sessions WHERE id = ?`, id); err != nil {
		return fmt.Errorf("store: delete session %d: %w", id, err)
	}
	return nil
}

// DeleteWebSessionsOf implements accounts.Store.
func (d *DB) DeleteWebSessionsOf(ctx context.Context, userID, keep int64) error {
	if _, err := d.db.ExecContext(ctx, `DELETE FROM web_sessions WHERE user_id = ? AND id != ?`, userID, keep); err != nil {
		return fmt.Errorf("store: delete sessions of user %d: %w", userID, err)
	}
	return nil
}

// ListWebSessions implements accounts.Store.
func (d *DB) ListWebSessions(ctx context.Context, userID int64) ([]accounts.WebSession, error) {
	var rows []webSessionRow
	if err := d.db.SelectContext(ctx, &rows, webSessionColumns+` WHERE user_id = ? ORDER BY last_seen_at DESC LIMIT ?`, userID, accounts.MaxListedSessions); err != nil {
		return nil, fmt.Errorf("store: sessions of user %d: %w", userID, err)
	}
	out := make([]accounts.WebSession, len(rows))
	for i, r := range rows {
		out[i] = r.session()
	}
	return out, nil
}

type apiTokenRow struct {
	ID         int64         `db:"id"`
	UserID     int64         `db:"user_id"`
	Name       string        `db:"name"`
	Prefix     string        `db:"prefix"`
	Role       string        `db:"role"`
	CreatedAt  int64         `db:"created_at"`
	ExpiresAt  sql.NullInt64 `db:"expires_at"`
	LastUsedAt sql.NullInt64 `db:"last_used_at"`
	RevokedAt  sql.NullInt64 `db:"revoked_at"`
}

func (r apiTokenRow) token() accounts.APIToken {
	return accounts.APIToken{ID: r.ID, UserID: r.UserID, Name: r.Name, Prefix: r.Prefix, Role: backend.Role(r.Role),
		Created: fromUnixNano(r.CreatedAt), Expires: fromNullTime(r.ExpiresAt), LastUsed: fromNullTime(r.LastUsedAt), Revoked: fromNullTime(r.RevokedAt)}
}

const apiTokenColumns = `SELECT id, user_id, name, prefix, role, created_at, expires_at, last_used_at, revoked_at FROM api_tokens`

// CreateAPIToken implements accounts.Store.
func (d *DB) CreateAPIToken(ctx context.Context, t accounts.APIToken, tokenHash []byte) (accounts.APIToken, error) {
	res, err := d.db.ExecContext(ctx, `INSERT INTO api_tokens (user_id, name, token_hash, prefix, role, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		t.UserID, t.Name, tokenHash, t.Prefix, string(t.Role), unixNano(t.Created), nullTime(t.Expires))
	if err != nil {
		return accounts.APIToken{}, fmt.Errorf("store: create API token: %w", err)
	}
	t.ID, _ = res.LastInsertId()
	return t, nil
}

// APITokenByHash implements accounts.Store.
func (d *DB) APITokenByHash(ctx context.Context, tokenHash []byte) (accounts.APIToken, backend.User, error) {
	var r struct {
		apiTokenRow
		Owner userRow `db:"u"`
	}
	err := d.db.GetContext(ctx, &r, `SELECT t.id, t.user_id, t.name, t.prefix, t.role, t.created_at, t.expires_at, t.last_used_at, t.revoked_at, `+ownerColumns+`
	FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?`, tokenHash)
	if errors.Is(err, sql.ErrNoRows) {
		return accounts.APIToken{}, backend.User{}, backend.Errorf(backend.ENotFound, "No such API token.")
	} else if err != nil {
		return accounts.APIToken{}, backend.User{}, fmt.Errorf("store: API token: %w", err)
	}
	return r.token(), r.Owner.user(), nil
}

// ListAPITokens implements accounts.Store.
func (d *DB) ListAPITokens(ctx context.Context, userID int64) ([]accounts.APIToken, error) {
	var rows []apiTokenRow
	if err := d.db.SelectContext(ctx, &rows, apiTokenColumns+` WHERE user_id = ? ORDER BY created_at DESC, id DESC`, userID); err != nil {
		return nil, fmt.Errorf("store: API tokens of user %d: %w", userID, err)
	}
	out := make([]accounts.APIToken, len(rows))
	for i, r := range rows {
		out[i] = r.token()
	}
	return out, nil
}

// RevokeAPIToken implements accounts.Store.
func (d *DB) RevokeAPIToken(ctx context.Context, userID, id int64, at time.Time) error {
	res, err := d.db.ExecContext(ctx, `UPDATE api_tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? AND user_id = ?`, unixNano(at), id, userID)
	if err != nil {
		return fmt.Errorf("store: revoke API token %d: %w", id, err)
	}
	return oneRow(res, "You have no API token %d.", id)
}

// TouchAPIToken implements accounts.Store.
func (d *DB) TouchAPIToken(ctx context.Context, id int64, at time.Time) error {
	if _, err := d.db.ExecContext(ctx, `UPDATE api_tokens SET last_used_at = ? WHERE id = ?`, unixNano(at), id); err != nil {
		return fmt.Errorf("store: touch API token %d: %w", id, err)
	}
	return nil
}

var _ accounts.Store = (*DB)(nil)
