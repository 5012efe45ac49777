package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend/oauth"
)

// sealOptional seals text, leaving "" as "".
func (d *DB) sealOptional(text string) (string, error) {
	if text == "" {
		return "", nil
	}
	return d.seal([]byte(text))
}

// openOptional opens text made by sealOptional.
func (d *DB) openOptional(text string) (string, error) {
	if text == "" {
		return "", nil
	}
	plain, err := d.open(text)
	return string(plain), err
}

// OAuthSettings implements oauth.Store.
func (d *DB) OAuthSettings(ctx context.Context, serverID int64) (oauth.Settings, error) {
	var r struct {
		GrantType    string `db:"grant_type"`
		ClientAuth   string `db:"client_auth"`
		ClientID     string `db:"client_id"`
		ClientSecret string `db:"client_secret"`
		PrivateKey   string `db:"private_key"`
		KeyID        string `db:"key_id"`
		DPoP         bool   `db:"dpop"`
		Scopes       string `db:"scopes"`
		Issuer       string `db:"issuer"`
	}
	err := d.db.GetContext(ctx, &r, `SELECT grant_type, client_auth, client_id, client_secret, private_key, key_id, dpop, scopes, issuer
		FROM server_oauth WHERE server_id = ?`, serverID)
	if errors.Is(err, sql.ErrNoRows) {
		return oauth.Settings{}, nil
	}
	if err != nil {
		return oauth.Settings{}, fmt.Errorf("store: OAuth settings of server %d: %w", serverID, err)
	}
	secret, err := d.openOptional(r.ClientSecret)
	if err != nil {
		return oauth.Settings{}, fmt.Errorf("store: OAuth settings of server %d: %w", serverID, err)
	}
	key, err := d.openOptional(r.PrivateKey)
	if err != nil {
		return oauth.Settings{}, fmt.Errorf("store: OAuth settings of server %d: %w", serverID, err)
	}
	s := oauth.Settings{GrantType: oauth.GrantType(r.GrantType), ClientID: r.ClientID, ClientSecret: secret,
		PrivateKeyPEM: key, KeyID: r.KeyID, DPoP: r.DPoP, Scopes: strings.Fields(r.Scopes), Issuer: r.Issuer}
	if s.Machine() {
		s.ClientAuth = oauth.ClientAuth(r.ClientAuth)
	}
	return s, nil
}

// SaveOAuthSettings implements oauth.Store.
func (d *DB) SaveOAuthSettings(ctx context.Context, serverID int64, s oauth.Settings) error {
	secret, err := d.sealOptional(s.ClientSecret)
	if err != nil {
		return err
	}
	key, err := d.sealOptional(s.PrivateKeyPEM)
	if err != nil {
		return err
	}
	auth := s.ClientAuth
	if auth == "" {
		auth = oauth.ClientSecretBasic
	}
	_, err = d.db.ExecContext(ctx, `INSERT INTO server_oauth (server_id, grant_type, client_auth, client_id, client_secret, private_key, key_id, dpop, scopes, issuer, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (server_id) DO UPDATE SET grant_type = excluded.grant_type, client_auth = excluded.client_auth,
		client_id = excluded.client_id, client_secret = excluded.client_secret, private_key = excluded.private_key,
		key_id = excluded.key_id, dpop = excluded.dpop, scopes = excluded.scopes, issuer = excluded.issuer, updated_at = excluded.updated_at`,
		serverID, string(s.Grant()), string(auth), s.ClientID, secret, key, s.KeyID, s.DPoP, strings.Join(s.Scopes, " "), s.Issuer, unixNano(time.Now()))
	if err != nil {
		return fmt.Errorf("store: save OAuth settings of server %d: %w", serverID, err)
	}
	return nil
}

// PinOAuthIssuer implements oauth.Store.
func (d *DB) PinOAuthIssuer(ctx context.Context, serverID int64, issuer string) error {
	if _, err := d.db.ExecContext(ctx, `UPDATE server_oauth SET issuer = ? WHERE server_id = ? AND issuer = ''`, issuer, serverID); err != nil {
		return fmt.Errorf("store: pin the OAuth issuer of server %d: %w", serverID, err)
	}
	return nil
}

// OAuthClient returns the client registered with issuer for redirectURI;
// false when there is none.
func (d *DB) OAuthClient(ctx context.Context, issuer, redirectURI string) (oauth.Client, bool, error) {
	var r struct {
		ClientID     string `db:"client_id"`
		ClientSecret string `db:"client_secret"`
		Method       string `db:"method"`
		CreatedAt    int64  `db:"created_at"`
	}
	err := d.db.GetContext(ctx, &r, `SELECT client_id, client_secret, method, created_at FROM oauth_clients WHERE issuer = ? AND redirect_uri = ?`, issuer, redirectURI)
	if errors.Is(err, sql.ErrNoRows) {
		return oauth.Client{}, false, nil
	}
	if err != nil {
		return oauth.Client{}, false, fmt.Errorf("store: OAuth client: %w", err)
	}
	secret, err := d.openOptional(r.ClientSecret)
	if err != nil {
		return oauth.Client{}, false, fmt.Errorf("store: OAuth client: %w", err)
	}
	return oauth.Client{Issuer: issuer, RedirectURI: redirectURI, ClientID: r.ClientID, ClientSecret: secret,
		Method: oauth.ClientMethod(r.Method), CreatedAt: fromUnixNano(r.CreatedAt)}, true, nil
}

// SaveOAuthClient implements oauth.Store.
func (d *DB) SaveOAuthClient(ctx context.Context, c oauth.Client) error {
	secret, err := d.sealOptional(c.ClientSecret)
	if err != nil {
		return err
	}
	_, err = d.db.ExecContext(ctx, `INSERT INTO oauth_clients (issuer, redirect_uri, client_id, client_secret, method, created_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (issuer, redirect_uri) DO UPDATE SET client_id = excluded.client_id, client_secret = excluded.client_secret,
		method = excluded.method, created_at = excluded.created_at`,
		c.Issuer, c.RedirectURI, c.ClientID, secret, string(c.Method), unixNano(time.Now()))
	if err != nil {
		return fmt.Errorf("store: save OAuth client: %w", err)
	}
	return nil
}

type grantRow struct {
	ServerID   int64  `db:"server_id"`
	UserID     int64  `db:"user_id"`
	UserName   string `db:"user_name"`
	Issuer     string `db:"issuer"`
	ClientID   string `db:"client_id"`
	Scopes     string `db:"scopes"`
	Token      string `db:"token"`
	ExpiresAt  int64  `db:"expires_at"`
	HasRefresh bool   `db:"has_refresh"`
	Shared     bool   `db:"shared"`
	UpdatedAt  int64  `db:"updated_at"`
}

const grantColumns = `g.server_id, g.user_id, u.name AS user_name, g.issuer, g.client_id, g.scopes, g.token, g.expires_at,
	g.has_refresh, g.shared, g.updated_at FROM oauth_grants g JOIN users u ON u.id = g.user_id`

func (d *DB) grant(r grantRow) (oauth.Grant, []byte, error) {
	g := oauth.Grant{ServerID: r.ServerID, UserID: r.UserID, UserName: r.UserName, Issuer: r.Issuer, ClientID: r.ClientID,
		HasRefresh: r.HasRefresh, Shared: r.Shared, UpdatedAt: fromUnixNano(r.UpdatedAt)}
	if r.ExpiresAt != 0 {
		g.ExpiresAt = fromUnixNano(r.ExpiresAt)
	}
	if err := json.Unmarshal([]byte(r.Scopes), &g.Scopes); err != nil {
		return g, nil, fmt.Errorf("store: OAuth grant scopes: %w", err)
	}
	token, err := d.open(r.Token)
	if err != nil {
		return g, nil, fmt.Errorf("store: OAuth grant of server %d: %w", r.ServerID, err)
	}
	return g, token, nil
}

// SaveOAuthGrant implements oauth.Store.
func (d *DB) SaveOAuthGrant(ctx context.Context, g oauth.Grant, token []byte) error {
	sealed, err := d.seal(token)
	if err != nil {
		return err
	}
	scopes, err := json.Marshal(append([]string{}, g.Scopes...))
	if err != nil {
		return err
	}
	var expires int64
	if !g.ExpiresAt.IsZero() {
		expires = unixNano(g.ExpiresAt)
	}
	now := unixNano(time.Now())
	_, err = d.db.ExecContext(ctx, `INSERT INTO oauth_grants (server_id, user_id, issuer, client_id, scopes, token, expires_at, has_refresh, shared, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
		ON CONFLICT (server_id, user_id) DO UPDATE SET issuer = excluded.issuer, client_id = excluded.client_id, scopes = excluded.scopes,
		token = excluded.token, expires_at = excluded.expires_at, has_refresh = excluded.has_refresh, updated_at = excluded.updated_at`,
		g.ServerID, g.UserID, g.Issuer, g.ClientID, string(scopes), sealed, expires, g.HasRefresh, now, now)
	if err != nil {
		return fmt.Errorf("store: save OAuth grant: %w", err)
	}
	return nil
}

// OAuthGrant implements oauth.Store.
func (d *DB) OAuthGrant(ctx context.Context, serverID, userID int64) (oauth.Grant, []byte, bool, error) {
	return d.oneGrant(ctx, `SELECT `+grantColumns+` WHERE g.server_id = ? AND g.user_id = ?`, serverID, userID)
}

// SharedOAuthGrant implements oauth.Store.
func (d *DB) SharedOAuthGrant(ctx context.Context, serverID int64) (oauth.Grant, []byte, bool, error) {
	return d.oneGrant(ctx, `SELECT `+grantColumns+` WHERE g.server_id = ? AND g.shared ORDER BY g.updated_at DESC LIMIT 1`, serverID)
}

func (d *DB) oneGrant(ctx context.Context, query string, args ...any) (oauth.Grant, []byte, bool, error) {
	var r grantRow
	err := d.db.GetContext(ctx, &r, query, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return oauth.Grant{}, nil, false, nil
	}
	if err != nil {
		return oauth.Grant{}, nil, false, fmt.Errorf("store: OAuth grant: %w", err)
	}
	g, token, err := d.grant(r)
	return g, token, err == nil, err
}

// OAuthGrants implements oauth.Store.
func (d *DB) OAuthGrants(ctx context.Context, serverID int64) ([]oauth.Grant, error) {
	var rows []grantRow
	if err := d.db.SelectContext(ctx, &rows, `SELECT `+grantColumns+` WHERE g.server_id = ? ORDER BY g.updated_at DESC`, serverID); err != nil {
		return nil, fmt.Errorf("store: OAuth grants: %w", err)
	}
	out := make([]oauth.Grant, 0, len(rows))
	for _, r := range rows {
		g, _, err := d.grant(r)
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// DeleteOAuthGrant implements oauth.Store.
func (d *DB) DeleteOAuthGrant(ctx context.Context, serverID, userID int64) error {
	if _, err := d.db.ExecContext(ctx, `DELETE FROM oauth_grants WHERE server_id = ? AND user_id = ?`, serverID, userID); err != nil {
		return fmt.Errorf("store: delete OAuth grant: %w", err)
	}
	return nil
}

// ShareOAuthGrant implements oauth.Store.
func (d *DB) ShareOAuthGrant(ctx context.Context, serverID, userID int64, shared bool) error {
	res, err := d.db.ExecContext(ctx, `UPDATE oauth_grants SET shared = ? WHERE server_id = ? AND user_id = ?`, shared, serverID, userID)
	if err != nil {
		return fmt.Errorf("store: share OAuth grant: %w", err)
	}
	return mustAffect(res, "You have no sign-in to server %d to share.", serverID)
}
