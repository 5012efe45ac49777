package accounts_test

import (
	"context"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
	"github.com/mcp-playground/playground/backend/store"
)

// sessionCacheEnv is tokenCacheEnv with the editor signed in twice, in
// two browsers.
type sessionCacheEnv struct {
	tokenCacheEnv
	first, second       accounts.Principal
	firstKey, secondKey string // the cookies' tokens
}

func mustSessionCacheEnv(t *testing.T) sessionCacheEnv {
	t.Helper()
	e := sessionCacheEnv{tokenCacheEnv: mustTokenCacheEnv(t, 0)}
	var err error
	if e.first, e.firstKey, err = e.accounts.SignIn(context.Background(), "ada", accountPassword, "first browser", "192.0.2.1"); err != nil {
		t.Fatal(err)
	}
	if e.second, e.secondKey, err = e.accounts.SignIn(context.Background(), "ada", accountPassword, "second browser", "192.0.2.2"); err != nil {
		t.Fatal(err)
	}
	return e
}

// mustAccept authenticates the cookie token, wanting the editor's session
// want with role.
func (e sessionCacheEnv) mustAccept(t *testing.T, what, token string, want accounts.Principal, role backend.Role) {
	t.Helper()
	p, err := e.accounts.Authenticate(context.Background(), token)
	if err != nil || p.User.ID != e.editor.ID || p.Role != role || p.SessionID != want.SessionID {
		t.Fatalf("%s: Authenticate = %+v, %v; want the editor's session %d as %s", what, p, err, want.SessionID, role)
	}
}

func (e sessionCacheEnv) mustRefuse(t *testing.T, what, token string) {
	t.Helper()
	_, err := e.accounts.Authenticate(context.Background(), token)
	wantCode(t, what, err, backend.EUnauthenticated)
}

func (e sessionCacheEnv) admin() accounts.Principal {
	return accounts.Principal{User: e.tokenCacheEnv.admin, Role: backend.RoleAdmin}
}

// TestSessionCacheReadsOnce: a browser's page loads read its session from
// the store once, not once per request; its last request time is still
// written once a minute.
func TestSessionCacheReadsOnce(t *testing.T) {
	e := mustSessionCacheEnv(t)
	for range 50 {
		e.mustAccept(t, "a page load", e.firstKey, e.first, backend.RoleEditor)
		e.clock.Advance(100 * time.Millisecond)
	}
	if n := e.store.sessionReads.Load(); n != 1 {
		t.Errorf("50 page loads within 5 s read the session %d times, want 1", n)
	}
	// An unknown cookie is read each time: it is never remembered.
	for range 2 {
		_, err := e.accounts.Authenticate(context.Background(), "unknown")
		wantCode(t, "an unknown cookie", err, backend.EUnauthenticated)
	}
	if n := e.store.sessionReads.Load(); n != 3 {
		t.Errorf("an unknown cookie twice: %d reads in all, want 3", n)
	}

	// Past a minute, the request is written as the session's last one,
	// and a session seen in memory is refused after SessionIdle without a
	// request, as one read from the store is.
	e.clock.Advance(2 * time.Second)
	e.mustAccept(t, "a page load 7 s on", e.firstKey, e.first, backend.RoleEditor)
	e.clock.Advance(time.Minute)
	e.mustAccept(t, "a page load a minute on", e.firstKey, e.first, backend.RoleEditor)
	sessions, err := e.accounts.ListSessions(context.Background(), e.editor.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, ws := range sessions {
		if ws.ID == e.first.SessionID && !ws.LastSeen.Equal(e.clock.Now()) {
			t.Errorf("the session was last seen at %v in the store, want %v", ws.LastSeen, e.clock.Now())
		}
	}
}

// TestSessionCacheForgets: what ends a browser session or changes its
// account takes effect on the very next request, though the session was
// just accepted (and remembered).
func TestSessionCacheForgets(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		change func(t *testing.T, e sessionCacheEnv)
		check  func(t *testing.T, e sessionCacheEnv)
	}{
		{"signed out", func(t *testing.T, e sessionCacheEnv) {
			if err := e.accounts.SignOut(ctx, e.first.SessionID); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, e sessionCacheEnv) {
			e.mustRefuse(t, "the session signed out", e.firstKey)
			e.mustAccept(t, "the other browser", e.secondKey, e.second, backend.RoleEditor)
		}},
		{"signed out everywhere else", func(t *testing.T, e sessionCacheEnv) {
			if err := e.accounts.SignOutEverywhere(ctx, e.editor.ID, e.first.SessionID); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, e sessionCacheEnv) {
			e.mustAccept(t, "the session kept", e.firstKey, e.first, backend.RoleEditor)
			e.mustRefuse(t, "the other browser", e.secondKey)
		}},
		{"password changed", func(t *testing.T, e sessionCacheEnv) {
			if err := e.accounts.ChangePassword(ctx, e.first, accountPassword, "a new long passphrase"); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, e sessionCacheEnv) {
			e.mustAccept(t, "the session that changed it", e.firstKey, e.first, backend.RoleEditor)
			e.mustRefuse(t, "the other browser", e.secondKey)
		}},
		{"password reset", func(t *testing.T, e sessionCacheEnv) {
			if err := e.accounts.ResetPassword(ctx, e.editor.ID, "a new long passphrase"); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, e sessionCacheEnv) {
			e.mustRefuse(t, "the first browser", e.firstKey)
			e.mustRefuse(t, "the second browser", e.secondKey)
		}},
		{"account disabled", func(t *testing.T, e sessionCacheEnv) {
			if _, err := e.accounts.UpdateUser(ctx, e.admin(), e.editor.ID, backend.RoleEditor, true); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, e sessionCacheEnv) {
			e.mustRefuse(t, "the first browser", e.firstKey)
			e.mustRefuse(t, "the second browser", e.secondKey)
		}},
		{"role changed", func(t *testing.T, e sessionCacheEnv) {
			if _, err := e.accounts.UpdateUser(ctx, e.admin(), e.editor.ID, backend.RoleViewer, false); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, e sessionCacheEnv) {
			e.mustAccept(t, "the first browser", e.firstKey, e.first, backend.RoleViewer)
			e.mustAccept(t, "the second browser", e.secondKey, e.second, backend.RoleViewer)
		}},
		{"signed out by another process on the same database", func(t *testing.T, e sessionCacheEnv) {
			db, err := store.Open(ctx, e.dbPath)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			other, err := accounts.New(db)
			if err != nil {
				t.Fatal(err)
			}
			if err := other.SignOut(ctx, e.first.SessionID); err != nil {
				t.Fatal(err)
			}
			e.clock.Advance(9 * time.Second)
			e.mustAccept(t, "9 s later, from memory", e.firstKey, e.first, backend.RoleEditor)
			e.clock.Advance(time.Second) // credentialCacheFor
		}, func(t *testing.T, e sessionCacheEnv) {
			e.mustRefuse(t, "a session signed out elsewhere, 10 s later", e.firstKey)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustSessionCacheEnv(t)
			for _, what := range []string{"before", "before, from memory"} {
				e.mustAccept(t, what, e.firstKey, e.first, backend.RoleEditor)
				e.mustAccept(t, what, e.secondKey, e.second, backend.RoleEditor)
			}
			if n := e.store.sessionReads.Load(); n != 2 {
				t.Fatalf("two browsers, twice each: %d session reads, want 2", n)
			}
			tt.change(t, e)
			tt.check(t, e)
		})
	}
}

// TestSessionCacheReadDuringSignOut: a request that read its session
// before it was signed out, and returns after, leaves nothing behind that
// accepts the cookie.
func TestSessionCacheReadDuringSignOut(t *testing.T) {
	e := mustSessionCacheEnv(t)
	e.store.read, e.store.paused = make(chan struct{}), make(chan struct{})
	accepted := make(chan error)
	go func() {
		_, err := e.accounts.Authenticate(context.Background(), e.firstKey)
		accepted <- err
	}()
	<-e.store.read // it has read the session, still live
	if err := e.accounts.SignOut(context.Background(), e.first.SessionID); err != nil {
		t.Fatal(err)
	}
	e.store.read = nil
	close(e.store.paused)
	if err := <-accepted; err != nil {
		t.Fatalf("the request that read the session before the sign-out: %v", err)
	}
	e.mustRefuse(t, "the next request after the sign-out", e.firstKey)
}
