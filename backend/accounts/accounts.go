// Package accounts signs people in and keeps their accounts: passwords,
// browser sessions, personal API tokens and the throttle on failed
// sign-ins. The person (backend.User) and their role (backend.Role) are
// backend's types, since OAuth flows, presence and access checks name
// them too.
package accounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/mcp-playground/playground/backend"
)

// Principal is who a request comes from: a person signed in through a
// browser session or one of their API tokens.
type Principal struct {
	User backend.User
	// Role is what this request may do: the person's role, or for a
	// token the lower of the token's and the person's.
	Role      backend.Role
	SessionID int64 // the browser session, or 0
	TokenID   int64 // the API token, or 0
}

// Store keeps users, browser sessions and API tokens. Tokens of
// sessions and API tokens are stored only as their SHA-256.
type Store interface {
	CountUsers(ctx context.Context) (int, error)
	// CreateUser adds u with its password hash; when onlyFirst is set it
	// adds nothing and returns EConflict if any user exists. A taken name
	// is EConflict too.
	CreateUser(ctx context.Context, u backend.User, passwordHash string, onlyFirst bool) (backend.User, error)
	// UserByName returns the user and their password hash, or ENotFound.
	UserByName(ctx context.Context, name string) (backend.User, string, error)
	GetUser(ctx context.Context, id int64) (backend.User, error)
	ListUsers(ctx context.Context) ([]backend.User, error)
	// UpdateUser stores u's role and disabled state.
	UpdateUser(ctx context.Context, u backend.User) error
	SetPasswordHash(ctx context.Context, userID int64, hash string, at time.Time) error

	CreateWebSession(ctx context.Context, ws WebSession, tokenHash []byte) (WebSession, error)
	// WebSessionByHash returns the session whose token has the hash, and
	// its user, or ENotFound.
	WebSessionByHash(ctx context.Context, tokenHash []byte) (WebSession, backend.User, error)
	TouchWebSession(ctx context.Context, id int64, seen time.Time) error
	DeleteWebSession(ctx context.Context, id int64) error
	// DeleteWebSessionsOf ends every session of the user but keep (0: all).
	DeleteWebSessionsOf(ctx context.Context, userID, keep int64) error
	// ListWebSessions returns the user's latest sessions, most recently
	// seen first, at most MaxListedSessions.
	ListWebSessions(ctx context.Context, userID int64) ([]WebSession, error)

	CreateAPIToken(ctx context.Context, t APIToken, tokenHash []byte) (APIToken, error)
	// APITokenByHash returns the token with the hash, and its owner, or
	// ENotFound.
	APITokenByHash(ctx context.Context, tokenHash []byte) (APIToken, backend.User, error)
	ListAPITokens(ctx context.Context, userID int64) ([]APIToken, error)
	// RevokeAPIToken marks the user's token revoked, or returns ENotFound.
	RevokeAPIToken(ctx context.Context, userID, id int64, at time.Time) error
	TouchAPIToken(ctx context.Context, id int64, at time.Time) error
}

// Service signs people in and keeps their accounts, sessions and tokens.
type Service struct {
	store    Store
	hasher   passwordHasher
	throttle *signInThrottle
	tokens   *credentialCache[APIToken]
	sessions *credentialCache[WebSession]
	now      func() time.Time

	mu         sync.Mutex
	setupToken string // the first-admin setup link's token, "" until asked for
}

// Option tunes New.
type Option func(*options)

type options struct {
	cost int
	now  func() time.Time
}

// WithPasswordCost sets bcrypt's cost (default 12). Tests lower it.
func WithPasswordCost(cost int) Option { return func(o *options) { o.cost = cost } }

// WithClock makes the Service read the time from now.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// New returns the accounts kept in store.
func New(store Store, opts ...Option) (*Service, error) {
	o := options{cost: 12, now: time.Now}
	for _, opt := range opts {
		opt(&o)
	}
	h, err := newPasswordHasher(o.cost)
	if err != nil {
		return nil, err
	}
	return &Service{store: store, hasher: h, throttle: newSignInThrottle(o.now), tokens: newCredentialCache[APIToken](), sessions: newCredentialCache[WebSession](), now: o.now}, nil
}

// NeedsSetup reports whether no account exists yet.
func (a *Service) NeedsSetup(ctx context.Context) (bool, error) {
	n, err := a.store.CountUsers(ctx)
	return n == 0, err
}

// SetupToken returns the token of the one-time link that creates the first
// admin, made on first use and the same until it is used; "" once an
// account exists.
func (a *Service) SetupToken(ctx context.Context) (string, error) {
	if need, err := a.NeedsSetup(ctx); err != nil || !need {
		return "", err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.setupToken == "" {
		a.setupToken = rand.Text()
	}
	return a.setupToken, nil
}

// ValidSetupToken reports whether token is the setup link's, while no
// account exists.
func (a *Service) ValidSetupToken(ctx context.Context, token string) bool {
	want, err := a.SetupToken(ctx)
	return err == nil && want != "" && sameSecret(token, want)
}

// SetUp creates the first admin through the setup link's token and signs
// them in; the link works once.
func (a *Service) SetUp(ctx context.Context, token, name, password, client string) (Principal, string, error) {
	if !a.ValidSetupToken(ctx, token) {
		return Principal{}, "", backend.Errorf(backend.EUnauthenticated, "This setup link is not valid: an account exists already, or the dashboard restarted and printed a new link to its log.")
	}
	u, err := a.addUser(ctx, name, password, backend.RoleAdmin, true)
	if err != nil {
		return Principal{}, "", err
	}
	a.mu.Lock()
	a.setupToken = ""
	a.mu.Unlock()
	return a.startSession(ctx, u, client)
}

// AddUser creates an account.
func (a *Service) AddUser(ctx context.Context, name, password string, role backend.Role) (backend.User, error) {
	return a.addUser(ctx, name, password, role, false)
}

func (a *Service) addUser(ctx context.Context, name, password string, role backend.Role, onlyFirst bool) (backend.User, error) {
	name = strings.TrimSpace(name)
	if err := checkUserName(name); err != nil {
		return backend.User{}, err
	}
	if !role.Valid() {
		return backend.User{}, backend.InvalidField("role", "Choose admin, editor or viewer.")
	}
	if err := checkPassword(password); err != nil {
		return backend.User{}, err
	}
	hash, err := a.hasher.hash(password)
	if err != nil {
		return backend.User{}, err
	}
	now := a.now()
	return a.store.CreateUser(ctx, backend.User{Name: name, Role: role, Created: now, PasswordChanged: now}, hash, onlyFirst)
}

// checkUserName returns why name cannot name an account, or nil.
func checkUserName(name string) error {
	if name == "" || len(name) > 64 {
		return backend.InvalidField("name", "Give a name of 1 to 64 characters.")
	}
	for _, r := range name {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._-@", r)) {
			return backend.InvalidField("name", "Use letters, digits and . _ - @ only.")
		}
	}
	return nil
}

// SignIn checks a name and password and starts a browser session,
// returning its cookie token. Repeated failures for a name or from a
// client address are throttled (ETooManyAttempts); every failure says the
// same, whether the name exists or not.
func (a *Service) SignIn(ctx context.Context, name, password, client, addr string) (Principal, string, error) {
	name = strings.TrimSpace(name)
	if wait := a.throttle.wait(name, addr); wait > 0 {
		return Principal{}, "", backend.Errorf(backend.ETooManyAttempts, "Too many failed sign-ins: try again in %s.", roundUp(wait))
	}
	u, hash, err := a.store.UserByName(ctx, name)
	if err != nil && backend.ErrorCodeOf(err) != backend.ENotFound {
		return Principal{}, "", err
	}
	if !a.hasher.matches(hash, password) || u.Disabled {
		a.throttle.failed(name, addr)
		return Principal{}, "", backend.Errorf(backend.EUnauthenticated, "Wrong name or password, or the account is disabled.")
	}
	a.throttle.succeeded(name)
	return a.startSession(ctx, u, client)
}

// roundUp is d in whole seconds, at least one.
func roundUp(d time.Duration) time.Duration {
	return max(time.Second, (d + time.Second - 1).Truncate(time.Second))
}

// ChangePassword sets a signed-in person's new password once their current
// one is confirmed, and ends their other browser sessions.
func (a *Service) ChangePassword(ctx context.Context, p Principal, current, next string) error {
	_, hash, err := a.store.UserByName(ctx, p.User.Name)
	if err != nil {
		return err
	}
	if !a.hasher.matches(hash, current) {
		return backend.InvalidField("current", "This is not your current password.")
	}
	if err := a.setPassword(ctx, p.User.ID, next); err != nil {
		return err
	}
	return a.endSessionsOf(ctx, p.User.ID, p.SessionID)
}

// ResetPassword sets a user's password for them (an admin, or the CLI of
// someone with the database) and ends all their browser sessions.
func (a *Service) ResetPassword(ctx context.Context, userID int64, password string) error {
	if err := a.setPassword(ctx, userID, password); err != nil {
		return err
	}
	return a.endSessionsOf(ctx, userID, 0)
}

func (a *Service) setPassword(ctx context.Context, userID int64, password string) error {
	if err := checkPassword(password); err != nil {
		return err
	}
	hash, err := a.hasher.hash(password)
	if err != nil {
		return err
	}
	return a.store.SetPasswordHash(ctx, userID, hash, a.now())
}

// UserByName returns the account called name.
func (a *Service) UserByName(ctx context.Context, name string) (backend.User, error) {
	u, _, err := a.store.UserByName(ctx, strings.TrimSpace(name))
	return u, err
}

// User returns the account with the id, or ENotFound.
func (a *Service) User(ctx context.Context, id int64) (backend.User, error) {
	return a.store.GetUser(ctx, id)
}

// ListUsers returns every account.
func (a *Service) ListUsers(ctx context.Context) ([]backend.User, error) {
	return a.store.ListUsers(ctx)
}

// UpdateUser gives the account id a role and enables or disables it, as
// the admin by did. Nobody may demote or disable themselves, so that the
// last admin cannot lock everyone out. Disabling ends the account's
// browser sessions; its tokens stop working while it is disabled.
func (a *Service) UpdateUser(ctx context.Context, by Principal, id int64, role backend.Role, disabled bool) (backend.User, error) {
	if !by.Role.Allows(backend.RoleAdmin) {
		return backend.User{}, backend.Errorf(backend.EForbidden, "Only admins change accounts.")
	}
	if !role.Valid() {
		return backend.User{}, backend.InvalidField("role", "Choose admin, editor or viewer.")
	}
	u, err := a.store.GetUser(ctx, id)
	if err != nil {
		return backend.User{}, err
	}
	if id == by.User.ID && (role != u.Role || disabled) {
		return backend.User{}, backend.Errorf(backend.EConflict, "You cannot change your own role or disable yourself; another admin can.")
	}
	u.Role, u.Disabled = role, disabled
	if err := a.store.UpdateUser(ctx, u); err != nil {
		return backend.User{}, err
	}
	a.tokens.forgetOwner(id)
	a.sessions.forgetOwner(id) // their principals carry the old role
	if disabled {
		return u, a.endSessionsOf(ctx, id, 0)
	}
	return u, nil
}

// hashToken is how session and API tokens are stored: they are random
// enough that a fast hash keeps them safe.
func hashToken(token string) []byte {
	h := tokenKey(token)
	return h[:]
}

// tokenKey is hashToken as an array, to key maps with.
func tokenKey(token string) [sha256.Size]byte { return sha256.Sum256([]byte(token)) }
