package accounts

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// WebSession is one browser's signed-in session.
type WebSession struct {
	ID       int64
	UserID   int64
	Client   string // the browser's User-Agent and address at sign-in
	Created  time.Time
	LastSeen time.Time
	Expires  time.Time
}

// Session lifetimes: a browser session ends after SessionIdle without a
// request, and SessionMaxAge after sign-in at the latest. Its last request
// time is written at most every sessionTouchEvery.
const (
	SessionIdle       = 3 * 24 * time.Hour
	SessionMaxAge     = 30 * 24 * time.Hour
	sessionTouchEvery = time.Minute
	// MaxListedSessions bounds the browser sessions an account page lists.
	MaxListedSessions = 100
)

// startSession opens a new browser session for u and returns its cookie
// token. Each sign-in makes a new one (the token is never reused).
func (a *Service) startSession(ctx context.Context, u backend.User, client string) (Principal, string, error) {
	token := rand.Text()
	now := a.now()
	if len(client) > 200 {
		client = client[:200]
	}
	ws, err := a.store.CreateWebSession(ctx, WebSession{UserID: u.ID, Client: client, Created: now, LastSeen: now, Expires: now.Add(SessionMaxAge)}, hashToken(token))
	if err != nil {
		return Principal{}, "", err
	}
	return Principal{User: u, Role: u.Role, SessionID: ws.ID}, token, nil
}

// live reports whether the session has neither expired nor been idle for
// SessionIdle at now.
func (ws WebSession) live(now time.Time) bool {
	return now.Before(ws.Expires) && now.Sub(ws.LastSeen) < SessionIdle
}

func (ws WebSession) cacheID() int64              { return ws.ID }
func (ws WebSession) usableAt(now time.Time) bool { return ws.live(now) }

// Authenticate returns who the browser session with the cookie token
// belongs to, or EUnauthenticated when it is unknown, ended, idle too long
// or its account is disabled. A session it accepted is remembered with
// its owner (credentialCache), so that a browser's next requests do not
// read the store: SignOut, SignOutEverywhere, a password change or reset
// and UpdateUser make the next request read it again, and a change made
// by another process is seen within credentialCacheFor.
func (a *Service) Authenticate(ctx context.Context, token string) (Principal, error) {
	gone := backend.Errorf(backend.EUnauthenticated, "Your session has ended: sign in again.")
	if token == "" {
		return Principal{}, gone
	}
	now := a.now()
	key := tokenKey(token)
	e, gen, ok := a.sessions.lookup(key, now)
	if !ok {
		ws, u, err := a.store.WebSessionByHash(ctx, key[:])
		if backend.ErrorCodeOf(err) == backend.ENotFound {
			return Principal{}, gone
		} else if err != nil {
			return Principal{}, err
		}
		e = cached[WebSession]{cred: ws, owner: u, read: now}
		a.sessions.fill(key, e, gen)
	}
	if !e.cred.live(now) || e.owner.Disabled {
		return Principal{}, gone
	}
	if now.Sub(e.cred.LastSeen) >= sessionTouchEvery {
		if err := a.store.TouchWebSession(ctx, e.cred.ID, now); err != nil {
			return Principal{}, err
		}
		a.sessions.update(key, func(ws *WebSession) { ws.LastSeen = now })
	}
	return Principal{User: e.owner, Role: e.owner.Role, SessionID: e.cred.ID}, nil
}

// SignOut ends the browser session id.
func (a *Service) SignOut(ctx context.Context, id int64) error {
	if err := a.store.DeleteWebSession(ctx, id); err != nil {
		return err
	}
	a.sessions.forgetID(id)
	return nil
}

// SignOutEverywhere ends every browser session of the person but the one
// keep (0: all).
func (a *Service) SignOutEverywhere(ctx context.Context, userID, keep int64) error {
	return a.endSessionsOf(ctx, userID, keep)
}

// endSessionsOf ends every browser session of the user but keep (0: all),
// in the store and then in the cache.
func (a *Service) endSessionsOf(ctx context.Context, userID, keep int64) error {
	if err := a.store.DeleteWebSessionsOf(ctx, userID, keep); err != nil {
		return err
	}
	a.sessions.forgetOwner(userID)
	return nil
}

// ListSessions returns the person's browser sessions that have not ended.
func (a *Service) ListSessions(ctx context.Context, userID int64) ([]WebSession, error) {
	all, err := a.store.ListWebSessions(ctx, userID)
	if err != nil {
		return nil, err
	}
	now := a.now()
	live := all[:0]
	for _, ws := range all {
		if ws.live(now) {
			live = append(live, ws)
		}
	}
	return live, nil
}

// sameSecret compares two secrets in constant time.
func sameSecret(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
