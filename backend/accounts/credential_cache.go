package accounts

import (
	"crypto/sha256"
	"sync"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// credentialCacheFor is how long the Service trusts an API token or a browser
// session it read, with its owner, unless this process changes them first
// (which drops them at once). It bounds how late a change made by another
// process on the same database (a command-line tool, a second dashboard)
// is seen.
const credentialCacheFor = 10 * time.Second

// credential is what a credentialCache holds: an APIToken or a WebSession.
type credential interface {
	// cacheID is the credential's id in the store.
	cacheID() int64
	// usableAt reports whether the credential, on its own, still lets its
	// owner in at now (not revoked, expired or idle too long).
	usableAt(now time.Time) bool
}

// credentialCache holds the credentials that the Service accepted, with their
// owners, by the hash of their secret, so that a script's calls and a
// browser's page loads do not each read them from the store. Whatever
// ends a credential or changes or disables its owner drops the entries it
// touches (forgetID, forgetOwner) after the store has the change, so that
// the next request reads it. It is safe for concurrent use.
type credentialCache[C credential] struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]cached[C]
	// gen counts the forget calls: a read that began before one may not
	// fill the cache with what it read.
	gen uint64
}

// cached is a credential and its owner as the store had them at read.
type cached[C credential] struct {
	cred  C
	owner backend.User
	read  time.Time
}

func newCredentialCache[C credential]() *credentialCache[C] {
	return &credentialCache[C]{entries: map[[sha256.Size]byte]cached[C]{}}
}

// lookup returns the entry for hash if it was read less than
// credentialCacheFor before now; otherwise it returns the generation that
// a fill after reading the store must name.
func (c *credentialCache[C]) lookup(hash [sha256.Size]byte, now time.Time) (cached[C], uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[hash]
	if ok && now.Sub(e.read) >= 0 && now.Sub(e.read) < credentialCacheFor {
		return e, c.gen, true
	}
	delete(c.entries, hash)
	return cached[C]{}, c.gen, false
}

// fill stores e for hash unless something was forgotten since gen (what
// was read may predate that change) or e no longer lets its owner in.
func (c *credentialCache[C]) fill(hash [sha256.Size]byte, e cached[C], gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen == c.gen && e.cred.usableAt(e.read) && !e.owner.Disabled {
		c.entries[hash] = e
	}
}

// update changes the remembered credential of hash, if any, with change
// (which notes when it was last used).
func (c *credentialCache[C]) update(hash [sha256.Size]byte, change func(*C)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[hash]; ok {
		change(&e.cred)
		c.entries[hash] = e
	}
}

// forgetID drops the credential id.
func (c *credentialCache[C]) forgetID(id int64) {
	c.forget(func(e cached[C]) bool { return e.cred.cacheID() == id })
}

// forgetOwner drops every credential of the user id.
func (c *credentialCache[C]) forgetOwner(id int64) {
	c.forget(func(e cached[C]) bool { return e.owner.ID == id })
}

func (c *credentialCache[C]) forget(match func(cached[C]) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for hash, e := range c.entries {
		if match(e) {
			delete(c.entries, hash)
		}
	}
}
