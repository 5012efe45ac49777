package accounts_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
	"github.com/mcp-playground/playground/backend/store"
)

// countingStore is the SQLite store, counting the reads by hash of API
// tokens (reads) and of browser sessions (sessionReads); a read waits,
// once it has its answer, for paused to be closed (if read is set).
type countingStore struct {
	*store.DB
	reads        atomic.Int64
	sessionReads atomic.Int64
	read         chan struct{} // if not nil, told when a read has its answer
	paused       chan struct{}
}

func (s *countingStore) APITokenByHash(ctx context.Context, hash []byte) (accounts.APIToken, backend.User, error) {
	t, u, err := s.DB.APITokenByHash(ctx, hash)
	s.reads.Add(1)
	s.pause()
	return t, u, err
}

func (s *countingStore) WebSessionByHash(ctx context.Context, hash []byte) (accounts.WebSession, backend.User, error) {
	ws, u, err := s.DB.WebSessionByHash(ctx, hash)
	s.sessionReads.Add(1)
	s.pause()
	return ws, u, err
}

func (s *countingStore) pause() {
	if s.read != nil {
		s.read <- struct{}{}
		<-s.paused
	}
}

// tokenCacheEnv is the accounts Service over a countingStore of a temp-file database,
// with a fake clock, an admin and an editor who has a token.
type tokenCacheEnv struct {
	accounts      *accounts.Service
	store         *countingStore
	clock         *fakeClock
	dbPath        string
	admin, editor backend.User
	token         accounts.APIToken
	secret        string
}

func mustTokenCacheEnv(t *testing.T, ttl time.Duration) tokenCacheEnv {
	t.Helper()
	path := filepath.Join(t.TempDir(), "playground.db")
	db, err := store.Open(testContext(t), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	e := tokenCacheEnv{store: &countingStore{DB: db}, clock: &fakeClock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}, dbPath: path}
	if e.accounts, err = accounts.New(e.store, accounts.WithPasswordCost(bcrypt.MinCost), accounts.WithClock(e.clock.Now)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if e.admin, err = e.accounts.AddUser(ctx, "root", accountPassword, backend.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if e.editor, err = e.accounts.AddUser(ctx, "ada", accountPassword, backend.RoleEditor); err != nil {
		t.Fatal(err)
	}
	if e.token, e.secret, err = e.accounts.CreateToken(ctx, accounts.Principal{User: e.editor, Role: e.editor.Role}, "ci", backend.RoleEditor, ttl); err != nil {
		t.Fatal(err)
	}
	return e
}

// mustAccept authenticates the token, wanting the editor with role.
func (e tokenCacheEnv) mustAccept(t *testing.T, what string, role backend.Role) {
	t.Helper()
	p, err := e.accounts.AuthenticateToken(context.Background(), e.secret)
	if err != nil || p.User.ID != e.editor.ID || p.Role != role || p.TokenID != e.token.ID {
		t.Fatalf("%s: AuthenticateToken = %+v, %v; want the editor's token as %s", what, p, err, role)
	}
}

func (e tokenCacheEnv) mustRefuse(t *testing.T, what string) {
	t.Helper()
	_, err := e.accounts.AuthenticateToken(context.Background(), e.secret)
	wantCode(t, what, err, backend.EUnauthenticated)
}

// TestTokenCacheReadsOnce: a script's calls read its token from the store
// once, not once per call.
func TestTokenCacheReadsOnce(t *testing.T) {
	e := mustTokenCacheEnv(t, 0)
	for range 50 {
		e.mustAccept(t, "a call", backend.RoleEditor)
		e.clock.Advance(100 * time.Millisecond)
	}
	if n := e.store.reads.Load(); n != 1 {
		t.Errorf("50 calls within 5 s read the token %d times, want 1", n)
	}
	// An unknown token is read each time: it is never remembered.
	for range 2 {
		_, err := e.accounts.AuthenticateToken(context.Background(), accounts.APITokenPrefix+"unknown")
		wantCode(t, "an unknown token", err, backend.EUnauthenticated)
	}
	if n := e.store.reads.Load(); n != 3 {
		t.Errorf("an unknown token twice: %d reads in all, want 3", n)
	}
}

// TestTokenCacheForgets: what changes a token's answer takes effect on the
// very next call, though the token was just accepted (and remembered).
func TestTokenCacheForgets(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		ttl    time.Duration
		change func(t *testing.T, e tokenCacheEnv)
		check  func(t *testing.T, e tokenCacheEnv)
	}{
		{"revoked", 0, func(t *testing.T, e tokenCacheEnv) {
			if err := e.accounts.RevokeToken(ctx, e.editor.ID, e.token.ID); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, e tokenCacheEnv) { e.mustRefuse(t, "a revoked token") }},
		{"owner disabled (an account is never deleted: disabling removes it)", 0, func(t *testing.T, e tokenCacheEnv) {
			if _, err := e.accounts.UpdateUser(ctx, accounts.Principal{User: e.admin, Role: e.admin.Role}, e.editor.ID, backend.RoleEditor, true); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, e tokenCacheEnv) { e.mustRefuse(t, "the token of a disabled owner") }},
		{"owner demoted", 0, func(t *testing.T, e tokenCacheEnv) {
			if _, err := e.accounts.UpdateUser(ctx, accounts.Principal{User: e.admin, Role: e.admin.Role}, e.editor.ID, backend.RoleViewer, false); err != nil {
				t.Fatal(err)
			}
		}, func(t *testing.T, e tokenCacheEnv) {
			e.mustAccept(t, "the token of a demoted owner", backend.RoleViewer)
		}},
		{"expired", 5 * time.Second, func(t *testing.T, e tokenCacheEnv) {
			e.clock.Advance(5 * time.Second)
		}, func(t *testing.T, e tokenCacheEnv) {
			e.mustRefuse(t, "an expired token")
			if n := e.store.reads.Load(); n != 1 {
				t.Errorf("the token was read %d times, want once: expiry is checked on the remembered token", n)
			}
		}},
		{"revoked by another process on the same database", 0, func(t *testing.T, e tokenCacheEnv) {
			db, err := store.Open(ctx, e.dbPath)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			other, err := accounts.New(db)
			if err != nil {
				t.Fatal(err)
			}
			if err := other.RevokeToken(ctx, e.editor.ID, e.token.ID); err != nil {
				t.Fatal(err)
			}
			e.clock.Advance(10 * time.Second) // credentialCacheFor
		}, func(t *testing.T, e tokenCacheEnv) { e.mustRefuse(t, "a token revoked elsewhere, 10 s later") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustTokenCacheEnv(t, tt.ttl)
			e.mustAccept(t, "before", backend.RoleEditor)
			e.mustAccept(t, "before, from memory", backend.RoleEditor)
			tt.change(t, e)
			tt.check(t, e)
		})
	}
}

// TestTokenCacheReadDuringRevoke: a call that read the token before it was
// revoked, and returns after, leaves nothing behind that accepts it.
func TestTokenCacheReadDuringRevoke(t *testing.T) {
	e := mustTokenCacheEnv(t, 0)
	e.store.read, e.store.paused = make(chan struct{}), make(chan struct{})
	accepted := make(chan error)
	go func() {
		_, err := e.accounts.AuthenticateToken(context.Background(), e.secret)
		accepted <- err
	}()
	<-e.store.read // it has read the token, still active
	if err := e.accounts.RevokeToken(context.Background(), e.editor.ID, e.token.ID); err != nil {
		t.Fatal(err)
	}
	e.store.read = nil
	close(e.store.paused)
	if err := <-accepted; err != nil {
		t.Fatalf("the call that read the token before it was revoked: %v", err)
	}
	e.mustRefuse(t, "the next call after the revoke")
}
