package accounts_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
	"github.com/mcp-playground/playground/backend/store"
)

const accountPassword = "correct horse battery"

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// accountsEnv is the accounts Service on a temp-file store with a fake clock.
type accountsEnv struct {
	accounts *accounts.Service
	clock    *fakeClock
	dbPath   string
}

func mustAccounts(tb testing.TB) accountsEnv {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "playground.db")
	db, err := store.Open(testContext(tb), path)
	if err != nil {
		tb.Fatalf("store.Open: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	clock := &fakeClock{now: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	a, err := accounts.New(db, accounts.WithPasswordCost(bcrypt.MinCost), accounts.WithClock(clock.Now))
	if err != nil {
		tb.Fatal(err)
	}
	return accountsEnv{accounts: a, clock: clock, dbPath: path}
}

// mustUser adds an account called name with accountPassword.
func (e accountsEnv) mustUser(tb testing.TB, name string, role backend.Role) backend.User {
	tb.Helper()
	u, err := e.accounts.AddUser(context.Background(), name, accountPassword, role)
	if err != nil {
		tb.Fatalf("AddUser(%s): %v", name, err)
	}
	return u
}

// mustSignIn signs name in with accountPassword from a fresh address.
func (e accountsEnv) mustSignIn(tb testing.TB, name string) (accounts.Principal, string) {
	tb.Helper()
	p, token, err := e.accounts.SignIn(context.Background(), name, accountPassword, "test browser", "192.0.2.1")
	if err != nil {
		tb.Fatalf("SignIn(%s): %v", name, err)
	}
	return p, token
}

func wantCode(tb testing.TB, what string, err error, code backend.ErrorCode) {
	tb.Helper()
	if got := backend.ErrorCodeOf(err); got != code {
		tb.Fatalf("%s: got %v (code %q), want code %q", what, err, got, code)
	}
}

func wantField(tb testing.TB, what string, err error, field string) {
	tb.Helper()
	var e *backend.Error
	if !errors.As(err, &e) || e.Fields[field] == "" {
		tb.Fatalf("%s: got %v, want a message at field %q", what, err, field)
	}
}

func TestSignIn(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	u := e.mustUser(t, "ada", backend.RoleEditor)

	p, token, err := e.accounts.SignIn(ctx, "ada", accountPassword, "test", "192.0.2.1")
	if err != nil || token == "" || p.User.ID != u.ID || p.Role != backend.RoleEditor || p.SessionID == 0 {
		t.Fatalf("right password: %+v %q %v", p, token, err)
	}
	if got, err := e.accounts.Authenticate(ctx, token); err != nil || got.User.ID != u.ID || got.SessionID != p.SessionID {
		t.Fatalf("Authenticate(new session) = %+v, %v", got, err)
	}
	if _, token2, _ := e.accounts.SignIn(ctx, "ADA", accountPassword, "test", "192.0.2.1"); token2 == "" || token2 == token {
		t.Errorf("signing in again (name in capitals) gave token %q, want a new one", token2)
	}

	_, _, wrong := e.accounts.SignIn(ctx, "ada", "not the password", "test", "192.0.2.1")
	_, _, unknown := e.accounts.SignIn(ctx, "nobody", accountPassword, "test", "192.0.2.1")
	wantCode(t, "wrong password", wrong, backend.EUnauthenticated)
	wantCode(t, "unknown name", unknown, backend.EUnauthenticated)
	if wrong.Error() != unknown.Error() {
		t.Errorf("a wrong password says %q but an unknown name %q: they must say the same", wrong, unknown)
	}
}

func TestDisabledAccount(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	admin := e.mustUser(t, "root", backend.RoleAdmin)
	ada := e.mustUser(t, "ada", backend.RoleEditor)
	_, token := e.mustSignIn(t, "ada")
	byAdmin := accounts.Principal{User: admin, Role: admin.Role}

	if _, err := e.accounts.UpdateUser(ctx, byAdmin, ada.ID, backend.RoleEditor, true); err != nil {
		t.Fatal(err)
	}
	_, err := e.accounts.Authenticate(ctx, token)
	wantCode(t, "the session of a disabled account", err, backend.EUnauthenticated)
	if sessions, err := e.accounts.ListSessions(ctx, ada.ID); err != nil || len(sessions) != 0 {
		t.Errorf("sessions of a disabled account: %v, %v; want none", sessions, err)
	}
	_, _, err = e.accounts.SignIn(ctx, "ada", accountPassword, "test", "192.0.2.1")
	wantCode(t, "signing in to a disabled account", err, backend.EUnauthenticated)

	if _, err := e.accounts.UpdateUser(ctx, byAdmin, ada.ID, backend.RoleEditor, false); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(time.Hour) // past the throttle of the refused attempt
	e.mustSignIn(t, "ada")
}

func TestSignInThrottle(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	e.mustUser(t, "ada", backend.RoleEditor)
	signIn := func(password, addr string) error {
		_, _, err := e.accounts.SignIn(ctx, "ada", password, "test", addr)
		return err
	}

	for i := range 5 {
		wantCode(t, fmt.Sprintf("failure %d", i+1), signIn("wrong password", "192.0.2.1"), backend.EUnauthenticated)
	}
	// Another address does not help: the name is throttled.
	err := signIn(accountPassword, "192.0.2.2")
	wantCode(t, "the 6th attempt, right password", err, backend.ETooManyAttempts)
	if !strings.Contains(backend.ErrorMessageOf(err), "1s") {
		t.Errorf("first wait: %q, want 1s", backend.ErrorMessageOf(err))
	}

	// Each further failure doubles the wait.
	e.clock.Advance(time.Second)
	wantCode(t, "after the first wait", signIn("wrong password", "192.0.2.1"), backend.EUnauthenticated)
	e.clock.Advance(time.Second)
	err = signIn(accountPassword, "192.0.2.1")
	wantCode(t, "one second into the second wait", err, backend.ETooManyAttempts)
	if !strings.Contains(backend.ErrorMessageOf(err), "1s") {
		t.Errorf("rest of the second wait: %q, want 1s (of 2s)", backend.ErrorMessageOf(err))
	}
	e.clock.Advance(time.Second)
	wantCode(t, "after the second wait", signIn("wrong password", "192.0.2.1"), backend.EUnauthenticated)
	err = signIn(accountPassword, "192.0.2.1")
	if !strings.Contains(backend.ErrorMessageOf(err), "4s") {
		t.Errorf("third wait: %v, want 4s", err)
	}

	// Once the window has passed, the right password works.
	e.clock.Advance(15 * time.Minute)
	if err := signIn(accountPassword, "192.0.2.1"); err != nil {
		t.Fatalf("after the window: %v", err)
	}
	// A success forgets the name's failures.
	for range 4 {
		signIn("wrong password", "192.0.2.3")
	}
	if err := signIn(accountPassword, "192.0.2.3"); err != nil {
		t.Fatalf("after 4 failures: %v", err)
	}
}

func TestSignInThrottlePerAddress(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	e.mustUser(t, "ada", backend.RoleEditor)
	const addr = "198.51.100.7"
	for i := range 20 {
		_, _, err := e.accounts.SignIn(ctx, fmt.Sprintf("guess%d", i), "wrong password", "test", addr)
		wantCode(t, fmt.Sprintf("failure %d from one address", i+1), err, backend.EUnauthenticated)
	}
	_, _, err := e.accounts.SignIn(ctx, "ada", accountPassword, "test", addr)
	wantCode(t, "a 21st attempt from the address", err, backend.ETooManyAttempts)
	if _, _, err := e.accounts.SignIn(ctx, "ada", accountPassword, "test", "198.51.100.8"); err != nil {
		t.Errorf("another address: %v", err)
	}
	e.clock.Advance(15 * time.Minute)
	if _, _, err := e.accounts.SignIn(ctx, "ada", accountPassword, "test", addr); err != nil {
		t.Errorf("the address after the window: %v", err)
	}
}

// TestSignInThrottlePerIPv6Block counts the addresses of one IPv6 /64 as
// one client: a host has billions of them.
func TestSignInThrottlePerIPv6Block(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	e.mustUser(t, "ada", backend.RoleEditor)
	for i := range 20 {
		_, _, err := e.accounts.SignIn(ctx, fmt.Sprintf("guess%d", i), "wrong password", "test", fmt.Sprintf("2001:db8:1:2::%x", i+1))
		wantCode(t, fmt.Sprintf("failure %d from the block", i+1), err, backend.EUnauthenticated)
	}
	_, _, err := e.accounts.SignIn(ctx, "ada", accountPassword, "test", "2001:db8:1:2:ffff::1")
	wantCode(t, "another address of the block", err, backend.ETooManyAttempts)
	if _, _, err := e.accounts.SignIn(ctx, "ada", accountPassword, "test", "2001:db8:1:3::1"); err != nil {
		t.Errorf("the next block: %v", err)
	}
}

func TestSessionLifetime(t *testing.T) {
	ctx := context.Background()
	t.Run("idle", func(t *testing.T) {
		e := mustAccounts(t)
		e.mustUser(t, "ada", backend.RoleViewer)
		_, token := e.mustSignIn(t, "ada")
		e.clock.Advance(accounts.SessionIdle - time.Minute)
		if _, err := e.accounts.Authenticate(ctx, token); err != nil {
			t.Fatalf("just before the idle timeout: %v", err)
		}
		// That request counts: the idle timeout starts again.
		e.clock.Advance(accounts.SessionIdle - time.Minute)
		if _, err := e.accounts.Authenticate(ctx, token); err != nil {
			t.Fatalf("used within the idle timeout: %v", err)
		}
		e.clock.Advance(accounts.SessionIdle)
		_, err := e.accounts.Authenticate(ctx, token)
		wantCode(t, "idle too long", err, backend.EUnauthenticated)
	})
	t.Run("max age", func(t *testing.T) {
		e := mustAccounts(t)
		e.mustUser(t, "ada", backend.RoleViewer)
		_, token := e.mustSignIn(t, "ada")
		step := accounts.SessionIdle / 2
		var age time.Duration
		for ; age+step < accounts.SessionMaxAge; age += step {
			e.clock.Advance(step)
			if _, err := e.accounts.Authenticate(ctx, token); err != nil {
				t.Fatalf("used every %s, at %s: %v", step, age+step, err)
			}
		}
		e.clock.Advance(accounts.SessionMaxAge - age)
		_, err := e.accounts.Authenticate(ctx, token)
		wantCode(t, "past the maximum age", err, backend.EUnauthenticated)
	})
}

func TestSignOut(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	e.mustUser(t, "ada", backend.RoleViewer)
	p, token := e.mustSignIn(t, "ada")
	_, other := e.mustSignIn(t, "ada")
	if err := e.accounts.SignOut(ctx, p.SessionID); err != nil {
		t.Fatal(err)
	}
	_, err := e.accounts.Authenticate(ctx, token)
	wantCode(t, "a signed-out session", err, backend.EUnauthenticated)
	if _, err := e.accounts.Authenticate(ctx, other); err != nil {
		t.Errorf("the other browser: %v", err)
	}
}

func TestChangePassword(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	e.mustUser(t, "ada", backend.RoleViewer)
	p, this := e.mustSignIn(t, "ada")
	_, other := e.mustSignIn(t, "ada")
	const next = "a new passphrase"

	err := e.accounts.ChangePassword(ctx, p, "not my password", next)
	wantCode(t, "wrong current password", err, backend.EInvalid)
	wantField(t, "wrong current password", err, "current")
	err = e.accounts.ChangePassword(ctx, p, accountPassword, "short")
	wantField(t, "a short new password", err, "password")

	if err := e.accounts.ChangePassword(ctx, p, accountPassword, next); err != nil {
		t.Fatal(err)
	}
	if _, err := e.accounts.Authenticate(ctx, this); err != nil {
		t.Errorf("this browser after the change: %v", err)
	}
	_, err = e.accounts.Authenticate(ctx, other)
	wantCode(t, "another browser after the change", err, backend.EUnauthenticated)
	if _, _, err := e.accounts.SignIn(ctx, "ada", next, "test", "192.0.2.1"); err != nil {
		t.Errorf("the new password: %v", err)
	}
	_, _, err = e.accounts.SignIn(ctx, "ada", accountPassword, "test", "192.0.2.1")
	wantCode(t, "the old password", err, backend.EUnauthenticated)
}

func TestResetPassword(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	ada := e.mustUser(t, "ada", backend.RoleViewer)
	_, one := e.mustSignIn(t, "ada")
	_, two := e.mustSignIn(t, "ada")
	if err := e.accounts.ResetPassword(ctx, ada.ID, "set by an admin"); err != nil {
		t.Fatal(err)
	}
	for _, token := range []string{one, two} {
		_, err := e.accounts.Authenticate(ctx, token)
		wantCode(t, "a session after a reset", err, backend.EUnauthenticated)
	}
	if _, _, err := e.accounts.SignIn(ctx, "ada", "set by an admin", "test", "192.0.2.1"); err != nil {
		t.Errorf("the password set: %v", err)
	}
}

func TestSetUp(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	token, err := e.accounts.SetupToken(ctx)
	if err != nil || token == "" {
		t.Fatalf("SetupToken = %q, %v", token, err)
	}
	if again, _ := e.accounts.SetupToken(ctx); again != token {
		t.Errorf("the setup token changed before use: %q, then %q", token, again)
	}

	_, _, err = e.accounts.SetUp(ctx, "wrong"+token, "root", accountPassword, "test")
	wantCode(t, "a wrong setup token", err, backend.EUnauthenticated)
	_, _, err = e.accounts.SetUp(ctx, token, "root", "short", "test")
	wantField(t, "a short password", err, "password")

	p, session, err := e.accounts.SetUp(ctx, token, "root", accountPassword, "test")
	if err != nil || p.Role != backend.RoleAdmin {
		t.Fatalf("SetUp = %+v, %v", p, err)
	}
	if got, err := e.accounts.Authenticate(ctx, session); err != nil || got.User.Name != "root" {
		t.Errorf("the setup's session: %+v, %v", got, err)
	}
	_, _, err = e.accounts.SetUp(ctx, token, "root2", accountPassword, "test")
	wantCode(t, "the setup token a second time", err, backend.EUnauthenticated)
	if again, err := e.accounts.SetupToken(ctx); again != "" || err != nil {
		t.Errorf("SetupToken once an account exists = %q, %v; want none", again, err)
	}
	if e.accounts.ValidSetupToken(ctx, "") {
		t.Error("the empty token is valid once an account exists")
	}
}

func TestSetUpAfterAnAccountExists(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	token, _ := e.accounts.SetupToken(ctx)
	e.mustUser(t, "made-by-the-cli", backend.RoleAdmin) // playground user add, meanwhile
	_, _, err := e.accounts.SetUp(ctx, token, "root", accountPassword, "test")
	wantCode(t, "SetUp once an account exists", err, backend.EUnauthenticated)
}

func TestSetUpConcurrently(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	token, _ := e.accounts.SetupToken(ctx)
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, _, errs[i] = e.accounts.SetUp(ctx, token, fmt.Sprintf("admin%d", i), accountPassword, "test")
		})
	}
	wg.Wait()
	var ok int
	for i, err := range errs {
		switch backend.ErrorCodeOf(err) {
		case "":
			ok++
		case backend.EConflict, backend.EUnauthenticated:
		default:
			t.Errorf("SetUp %d: %v", i, err)
		}
	}
	users, err := e.accounts.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ok != 1 || len(users) != 1 || users[0].Role != backend.RoleAdmin {
		t.Fatalf("%d concurrent SetUps: %d succeeded, accounts %+v; want exactly one admin", n, ok, users)
	}
}

func TestAddUserValidation(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	e.mustUser(t, "Ada", backend.RoleEditor)
	tests := []struct {
		name, user, password string
		role                 backend.Role
		code                 backend.ErrorCode
		field                string
	}{
		{"empty name", "  ", accountPassword, backend.RoleViewer, backend.EInvalid, "name"},
		{"space in name", "ada lovelace", accountPassword, backend.RoleViewer, backend.EInvalid, "name"},
		{"markup in name", "<script>", accountPassword, backend.RoleViewer, backend.EInvalid, "name"},
		{"name too long", strings.Repeat("a", 65), accountPassword, backend.RoleViewer, backend.EInvalid, "name"},
		{"unknown role", "bob", accountPassword, "owner", backend.EInvalid, "role"},
		{"password of 9", "bob", "123456789", backend.RoleViewer, backend.EInvalid, "password"},
		{"password of 73 bytes", "bob", strings.Repeat("p", 73), backend.RoleViewer, backend.EInvalid, "password"},
		{"password of 9 runes in 18 bytes", "bob", strings.Repeat("é", 9), backend.RoleViewer, backend.EInvalid, "password"},
		{"password of 37 runes in 74 bytes", "bob", strings.Repeat("é", 37), backend.RoleViewer, backend.EInvalid, "password"},
		{"taken name in other case", "ADA", accountPassword, backend.RoleViewer, backend.EConflict, "name"},
		{"taken name", "Ada", accountPassword, backend.RoleViewer, backend.EConflict, "name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.accounts.AddUser(ctx, tt.user, tt.password, tt.role)
			wantCode(t, "AddUser", err, tt.code)
			wantField(t, "AddUser", err, tt.field)
		})
	}
	for _, ok := range []struct{ user, password string }{
		{"grace.hopper-1@example", "1234567890"},
		{"Zoë", strings.Repeat("p", 72)},
	} {
		if _, err := e.accounts.AddUser(ctx, ok.user, ok.password, backend.RoleViewer); err != nil {
			t.Errorf("AddUser(%q, %d bytes): %v", ok.user, len(ok.password), err)
		}
		if _, _, err := e.accounts.SignIn(ctx, ok.user, ok.password, "test", "192.0.2.9"); err != nil {
			t.Errorf("SignIn(%q): %v", ok.user, err)
		}
	}
}

func TestUpdateUser(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	admin := e.mustUser(t, "root", backend.RoleAdmin)
	editor := e.mustUser(t, "ada", backend.RoleEditor)
	byAdmin := accounts.Principal{User: admin, Role: admin.Role}

	_, err := e.accounts.UpdateUser(ctx, accounts.Principal{User: editor, Role: editor.Role}, admin.ID, backend.RoleViewer, false)
	wantCode(t, "an editor changing an account", err, backend.EForbidden)
	// An admin's token of a lower role is no admin.
	_, err = e.accounts.UpdateUser(ctx, accounts.Principal{User: admin, Role: backend.RoleEditor, TokenID: 1}, editor.ID, backend.RoleViewer, false)
	wantCode(t, "an admin's editor token changing an account", err, backend.EForbidden)

	_, err = e.accounts.UpdateUser(ctx, byAdmin, admin.ID, backend.RoleEditor, false)
	wantCode(t, "an admin demoting themselves", err, backend.EConflict)
	_, err = e.accounts.UpdateUser(ctx, byAdmin, admin.ID, backend.RoleAdmin, true)
	wantCode(t, "an admin disabling themselves", err, backend.EConflict)
	_, err = e.accounts.UpdateUser(ctx, byAdmin, editor.ID, "owner", false)
	wantField(t, "an unknown role", err, "role")
	_, err = e.accounts.UpdateUser(ctx, byAdmin, 9999, backend.RoleViewer, false)
	wantCode(t, "an unknown account", err, backend.ENotFound)

	u, err := e.accounts.UpdateUser(ctx, byAdmin, editor.ID, backend.RoleViewer, false)
	if err != nil || u.Role != backend.RoleViewer {
		t.Fatalf("demoting ada: %+v, %v", u, err)
	}
	if got, _ := e.accounts.UserByName(ctx, "ada"); got.Role != backend.RoleViewer {
		t.Errorf("ada after the change: %+v", got)
	}
}

func TestAPITokens(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	admin := e.mustUser(t, "root", backend.RoleAdmin)
	editor := e.mustUser(t, "ada", backend.RoleEditor)
	byAdmin := accounts.Principal{User: admin, Role: admin.Role}
	asEditor := accounts.Principal{User: editor, Role: editor.Role}

	_, _, err := e.accounts.CreateToken(ctx, asEditor, "too much", backend.RoleAdmin, 0)
	wantField(t, "a token above its owner", err, "role")
	// What a request may do bounds the token it makes: an admin's viewer
	// token cannot make an admin token.
	_, _, err = e.accounts.CreateToken(ctx, accounts.Principal{User: admin, Role: backend.RoleViewer, TokenID: 1}, "escalate", backend.RoleAdmin, 0)
	wantField(t, "a token above the request's role", err, "role")
	_, _, err = e.accounts.CreateToken(ctx, asEditor, "  ", backend.RoleViewer, 0)
	wantField(t, "a token without a name", err, "name")
	_, _, err = e.accounts.CreateToken(ctx, asEditor, "ci\x1b]0;owned\x07", backend.RoleViewer, 0)
	wantField(t, "a token named with control characters", err, "name")

	tok, secret, err := e.accounts.CreateToken(ctx, asEditor, "ci", backend.RoleEditor, 0)
	if err != nil || !strings.HasPrefix(secret, accounts.APITokenPrefix) || !strings.HasPrefix(secret, tok.Prefix) {
		t.Fatalf("CreateToken = %+v, %q, %v", tok, secret, err)
	}
	p, err := e.accounts.AuthenticateToken(ctx, secret)
	if err != nil || p.User.ID != editor.ID || p.Role != backend.RoleEditor || p.TokenID != tok.ID || p.SessionID != 0 {
		t.Fatalf("AuthenticateToken = %+v, %v", p, err)
	}
	listed, _ := e.accounts.ListTokens(ctx, editor.ID)
	if len(listed) != 1 || listed[0].Name != "ci" || listed[0].LastUsed.IsZero() {
		t.Errorf("ListTokens = %+v, want ci, used", listed)
	}

	// The owner demoted: the token can do what the owner can.
	if _, err := e.accounts.UpdateUser(ctx, byAdmin, editor.ID, backend.RoleViewer, false); err != nil {
		t.Fatal(err)
	}
	if p, err := e.accounts.AuthenticateToken(ctx, secret); err != nil || p.Role != backend.RoleViewer {
		t.Errorf("the editor token of a demoted owner: %+v, %v; want viewer", p, err)
	}
	// An admin's viewer token is a viewer.
	_, viewerOfAdmin, _ := e.accounts.CreateToken(ctx, byAdmin, "read only", backend.RoleViewer, 0)
	if p, err := e.accounts.AuthenticateToken(ctx, viewerOfAdmin); err != nil || p.Role != backend.RoleViewer {
		t.Errorf("an admin's viewer token: %+v, %v", p, err)
	}

	// The owner disabled: refused; enabled again: back.
	if _, err := e.accounts.UpdateUser(ctx, byAdmin, editor.ID, backend.RoleEditor, true); err != nil {
		t.Fatal(err)
	}
	_, err = e.accounts.AuthenticateToken(ctx, secret)
	wantCode(t, "the token of a disabled owner", err, backend.EUnauthenticated)
	if _, err := e.accounts.UpdateUser(ctx, byAdmin, editor.ID, backend.RoleEditor, false); err != nil {
		t.Fatal(err)
	}
	if _, err := e.accounts.AuthenticateToken(ctx, secret); err != nil {
		t.Errorf("the token once its owner is enabled again: %v", err)
	}

	// Revoked: refused at once; only its owner can revoke it.
	wantCode(t, "revoking someone else's token", e.accounts.RevokeToken(ctx, admin.ID, tok.ID), backend.ENotFound)
	if err := e.accounts.RevokeToken(ctx, editor.ID, tok.ID); err != nil {
		t.Fatal(err)
	}
	_, err = e.accounts.AuthenticateToken(ctx, secret)
	wantCode(t, "a revoked token", err, backend.EUnauthenticated)

	// Expired.
	_, expiring, _ := e.accounts.CreateToken(ctx, asEditor, "a day", backend.RoleViewer, 24*time.Hour)
	if _, err := e.accounts.AuthenticateToken(ctx, expiring); err != nil {
		t.Fatalf("a token within its day: %v", err)
	}
	e.clock.Advance(24 * time.Hour)
	_, err = e.accounts.AuthenticateToken(ctx, expiring)
	wantCode(t, "an expired token", err, backend.EUnauthenticated)

	for _, bad := range []string{"", "pgp_", secret[:len(secret)-1], strings.TrimPrefix(secret, accounts.APITokenPrefix)} {
		_, err := e.accounts.AuthenticateToken(ctx, bad)
		wantCode(t, fmt.Sprintf("token %q", bad), err, backend.EUnauthenticated)
	}
	// A session token is no API token, and the other way round.
	_, session := e.mustSignIn(t, "ada")
	_, err = e.accounts.AuthenticateToken(ctx, session)
	wantCode(t, "a session token as API token", err, backend.EUnauthenticated)
	_, err = e.accounts.Authenticate(ctx, viewerOfAdmin)
	wantCode(t, "an API token as session token", err, backend.EUnauthenticated)
}

// TestTokensStoredHashed searches the bytes of the database and its WAL
// for the secrets Accounts handed out.
func TestTokensStoredHashed(t *testing.T) {
	e := mustAccounts(t)
	ctx := context.Background()
	e.mustUser(t, "ada", backend.RoleEditor)
	p, session := e.mustSignIn(t, "ada")
	_, apiToken, err := e.accounts.CreateToken(ctx, p, "ci", backend.RoleEditor, 0)
	if err != nil {
		t.Fatal(err)
	}
	setup := mustAccounts(t)
	setupToken, _ := setup.accounts.SetupToken(ctx)
	_, setupSession, err := setup.accounts.SetUp(ctx, setupToken, "root", accountPassword, "test")
	if err != nil {
		t.Fatal(err)
	}
	secrets := map[string]string{"session token": session, "API token": apiToken, "password": accountPassword,
		"setup token": setupToken, "setup session": setupSession}
	var searched int
	for _, path := range []string{e.dbPath, e.dbPath + "-wal", setup.dbPath, setup.dbPath + "-wal"} {
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		searched += len(b)
		for what, secret := range secrets {
			if bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds the %s in plain text", filepath.Base(path), what)
			}
		}
	}
	if searched == 0 {
		t.Fatal("no database bytes to search")
	}
}

func testContext(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	tb.Cleanup(cancel)
	return ctx
}
