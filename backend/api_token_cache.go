package backend

import (
	"crypto/sha256"
	"sync"
	"time"
)

// tokenCacheFor is how long AuthenticateToken trusts a token and owner it
// read, unless this process changes them first (which drops them at
// once). It bounds how late a change made by another process on the same
// database (a command-line tool, a second dashboard) is seen.
const tokenCacheFor = 10 * time.Second

// tokenCache holds the API tokens that AuthenticateToken accepted, with
// their owners, by the token's hash, so that a script's calls do not each
// read them from the store. Revoking a token and changing or disabling
// its owner drop the entries they touch (forgetToken, forgetUser) after
// the store has the change, so that the next request reads it. It is safe
// for concurrent use.
type tokenCache struct {
	mu      sync.Mutex
	entries map[[sha256.Size]byte]cachedToken
	// gen counts the forget calls: a read that began before one may not
	// fill the cache with what it read.
	gen uint64
}

// cachedToken is a token and its owner as the store had them at read.
type cachedToken struct {
	token APIToken
	owner User
	read  time.Time
}

func newTokenCache() *tokenCache {
	return &tokenCache{entries: map[[sha256.Size]byte]cachedToken{}}
}

// lookup returns the entry for hash if it was read less than tokenCacheFor
// before now; otherwise it returns the generation that a fill after
// reading the store must name.
func (c *tokenCache) lookup(hash [sha256.Size]byte, now time.Time) (cachedToken, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[hash]
	if ok && now.Sub(e.read) >= 0 && now.Sub(e.read) < tokenCacheFor {
		return e, c.gen, true
	}
	delete(c.entries, hash)
	return cachedToken{}, c.gen, false
}

// fill stores e for hash unless something was forgotten since gen (what
// was read may predate that change) or e's token no longer works.
func (c *tokenCache) fill(hash [sha256.Size]byte, e cachedToken, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen == c.gen && e.token.Active(e.read) && !e.owner.Disabled {
		c.entries[hash] = e
	}
}

// touched notes that the token of hash was last used at.
func (c *tokenCache) touched(hash [sha256.Size]byte, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[hash]; ok {
		e.token.LastUsed = at
		c.entries[hash] = e
	}
}

// forgetToken drops the token id.
func (c *tokenCache) forgetToken(id int64) {
	c.forget(func(e cachedToken) bool { return e.token.ID == id })
}

// forgetUser drops every token of the user id.
func (c *tokenCache) forgetUser(id int64) {
	c.forget(func(e cachedToken) bool { return e.owner.ID == id })
}

func (c *tokenCache) forget(match func(cachedToken) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	for hash, e := range c.entries {
		if match(e) {
			delete(c.entries, hash)
		}
	}
}
