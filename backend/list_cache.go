package backend

import (
	"sync"
	"sync/atomic"
)

// listCache holds a list a live session got from its server (its tools,
// its prompts) until the server says the list changed. Its zero value is
// empty. markStale may be called from any goroutine without waiting, the
// client's reader goroutine included; get serialises the listing.
type listCache[T any] struct {
	mu    sync.Mutex
	items []T         // nil until first listed
	stale atomic.Bool // set when the server says the list changed
}

// markStale makes the next get list again.
func (c *listCache[T]) markStale() { c.stale.Store(true) }

// get returns the list, calling list for it the first time, whenever
// refresh is set and after markStale; an error of list is returned and
// the list kept as it was. A nil list is kept as an empty one.
func (c *listCache[T]) get(refresh bool, list func() ([]T, error)) ([]T, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items != nil && !refresh && !c.stale.Load() {
		return c.items, nil
	}
	c.stale.Store(false)
	items, err := list()
	if err != nil {
		return nil, err
	}
	if items == nil {
		items = []T{}
	}
	c.items = items
	return c.items, nil
}
