package accounts

import (
	"context"
	"crypto/rand"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// APIToken is a personal API token: scripts and the CLI send it as
// `Authorization: Bearer TOKEN`.
type APIToken struct {
	ID      int64
	UserID  int64
	Name    string
	Prefix  string       // the token's first characters, to tell tokens apart
	Role    backend.Role // at most the owner's role
	Created time.Time
	Expires time.Time // zero: never
	// LastUsed is when it was last accepted (to the minute), zero if never.
	LastUsed time.Time
	Revoked  time.Time // zero while it works
}

// APITokenPrefix starts every token, so that secret scanners and people
// can tell one apart.
const APITokenPrefix = "pgp_"

// Active reports whether the token still works at now (its owner's state
// aside).
func (t APIToken) Active(now time.Time) bool {
	return t.Revoked.IsZero() && (t.Expires.IsZero() || now.Before(t.Expires))
}

func (t APIToken) cacheID() int64              { return t.ID }
func (t APIToken) usableAt(now time.Time) bool { return t.Active(now) }

// CreateToken makes a token for the signed-in person p, named name, with a
// role no higher than p's (so a token never makes a token above its own
// role), valid for ttl (0: no expiry). The token
// itself is returned once and stored only as its hash.
func (a *Service) CreateToken(ctx context.Context, p Principal, name string, role backend.Role, ttl time.Duration) (APIToken, string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 100 {
		return APIToken{}, "", backend.InvalidField("name", "Name the token (1 to 100 characters), e.g. after the script that uses it.")
	}
	if !backend.Printable(name) {
		return APIToken{}, "", backend.InvalidField("name", backend.NotPrintable)
	}
	if !role.Valid() {
		return APIToken{}, "", backend.InvalidField("role", "Choose admin, editor or viewer.")
	}
	if !p.Role.Allows(role) {
		return APIToken{}, "", backend.InvalidField("role", "A token cannot do more than you: choose "+string(p.Role)+" or lower.")
	}
	if ttl < 0 {
		return APIToken{}, "", backend.InvalidField("expires", "Choose when the token expires.")
	}
	token := APITokenPrefix + rand.Text()
	now := a.now()
	t := APIToken{UserID: p.User.ID, Name: name, Prefix: token[:len(APITokenPrefix)+4], Role: role, Created: now}
	if ttl > 0 {
		t.Expires = now.Add(ttl)
	}
	t, err := a.store.CreateAPIToken(ctx, t, hashToken(token))
	return t, token, err
}

// AuthenticateToken returns who the bearer token belongs to, with the
// lower of the token's and the owner's role, or EUnauthenticated when it
// is unknown, revoked, expired or its owner is disabled. A token it
// accepted is remembered with its owner (credentialCache), so that a script's
// next calls do not read the store; RevokeToken and UpdateUser make the
// next call read it again.
func (a *Service) AuthenticateToken(ctx context.Context, token string) (Principal, error) {
	refused := backend.Errorf(backend.EUnauthenticated, "This API token is unknown, revoked or expired.")
	if !strings.HasPrefix(token, APITokenPrefix) {
		return Principal{}, refused
	}
	now := a.now()
	key := tokenKey(token)
	e, gen, ok := a.tokens.lookup(key, now)
	if !ok {
		t, u, err := a.store.APITokenByHash(ctx, key[:])
		if backend.ErrorCodeOf(err) == backend.ENotFound {
			return Principal{}, refused
		} else if err != nil {
			return Principal{}, err
		}
		e = cached[APIToken]{cred: t, owner: u, read: now}
		a.tokens.fill(key, e, gen)
	}
	if !e.cred.usableAt(now) || e.owner.Disabled {
		return Principal{}, refused
	}
	if now.Sub(e.cred.LastUsed) >= sessionTouchEvery {
		if err := a.store.TouchAPIToken(ctx, e.cred.ID, now); err != nil {
			return Principal{}, err
		}
		a.tokens.update(key, func(t *APIToken) { t.LastUsed = now })
	}
	return Principal{User: e.owner, Role: e.cred.Role.Lower(e.owner.Role), TokenID: e.cred.ID}, nil
}

// ListTokens returns the person's tokens, revoked and expired ones included.
func (a *Service) ListTokens(ctx context.Context, userID int64) ([]APIToken, error) {
	return a.store.ListAPITokens(ctx, userID)
}

// RevokeToken ends the person's token id at once.
func (a *Service) RevokeToken(ctx context.Context, userID, id int64) error {
	if err := a.store.RevokeAPIToken(ctx, userID, id, a.now()); err != nil {
		return err
	}
	a.tokens.forgetID(id)
	return nil
}
