package accounts

import (
	"crypto/rand"
	"fmt"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/mcp-playground/playground/backend"
)

// Password rules. bcrypt reads at most 72 bytes, so longer passwords are
// refused rather than silently cut.
const (
	minPasswordRunes = 10
	maxPasswordBytes = 72
)

// checkPassword returns why password may not be used, or nil.
func checkPassword(password string) error {
	switch {
	case utf8.RuneCountInString(password) < minPasswordRunes:
		return backend.InvalidField("password", "Use at least 10 characters.")
	case len(password) > maxPasswordBytes:
		return backend.InvalidField("password", "Use at most 72 bytes (a passphrase of a few words is plenty).")
	}
	return nil
}

// passwordHasher hashes and checks passwords with bcrypt.
type passwordHasher struct {
	cost int
	// dummy is a hash at cost of a password nobody knows, made the first
	// time a sign-in names no account (not at start: a hash takes long).
	dummyOnce *sync.Once
	dummy     *string
}

func newPasswordHasher(cost int) (passwordHasher, error) {
	if cost < bcrypt.MinCost || cost > bcrypt.MaxCost {
		return passwordHasher{}, fmt.Errorf("backend: bcrypt cost %d is outside %d..%d", cost, bcrypt.MinCost, bcrypt.MaxCost)
	}
	return passwordHasher{cost: cost, dummyOnce: new(sync.Once), dummy: new(string)}, nil
}

func (h passwordHasher) hash(password string) (string, error) {
	b, err := bcrypt.GenerateFromPassword([]byte(password), h.cost)
	return string(b), err
}

// matches reports whether password is the one hash was made from. An
// empty hash matches nothing but costs as much time as a real one, so that
// sign-in answers as slowly for an unknown name as for a wrong password.
func (h passwordHasher) matches(hash, password string) bool {
	if hash == "" {
		h.dummyOnce.Do(func() {
			b, _ := bcrypt.GenerateFromPassword([]byte(rand.Text()), h.cost)
			*h.dummy = string(b)
		})
		bcrypt.CompareHashAndPassword([]byte(*h.dummy), []byte(password))
		return false
	}
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil
}
