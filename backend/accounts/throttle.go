package accounts

import (
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"
)

// Sign-in throttling: after signInFreeFailures failed attempts for one
// name, or signInFreeFailuresAddr from one client address, within
// signInWindow, each further attempt waits twice as long as the last, from
// one second up to signInMaxWait.
const (
	signInFreeFailures     = 5
	signInFreeFailuresAddr = 20
	signInWindow           = 15 * time.Minute
	signInMaxWait          = 15 * time.Minute
	// signInMaxTracked bounds the memory the throttle uses: beyond it,
	// counts older than the window are dropped, then the oldest.
	signInMaxTracked = 10000
)

// signInThrottle counts recent failed sign-ins per name and per address.
type signInThrottle struct {
	now func() time.Time

	mu       sync.Mutex
	failures map[string]*failureCount
}

type failureCount struct {
	n    int
	last time.Time
}

func newSignInThrottle(now func() time.Time) *signInThrottle {
	return &signInThrottle{now: now, failures: map[string]*failureCount{}}
}

func nameKey(name string) string { return "name:" + strings.ToLower(name) }

// addrKey counts an IPv6 client by its /64, the block a single host or
// network is usually given, so that stepping through its addresses gains
// an attacker nothing.
func addrKey(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return "addr:" + addr
	}
	ip = ip.WithZone("").Unmap()
	if ip.Is6() {
		block, _ := ip.Prefix(64)
		return "addr:" + block.String()
	}
	return "addr:" + ip.String()
}

// wait returns how long a sign-in for name from addr must wait, 0 if none.
func (t *signInThrottle) wait(name, addr string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	return max(t.waitFor(nameKey(name), now), t.waitFor(addrKey(addr), now))
}

// freeFailures is how many failures the key's name or address has before
// it waits.
func freeFailures(key string) int {
	if strings.HasPrefix(key, "addr:") {
		return signInFreeFailuresAddr
	}
	return signInFreeFailures
}

func (t *signInThrottle) waitFor(key string, now time.Time) time.Duration {
	f := t.failures[key]
	if f == nil || now.Sub(f.last) >= signInWindow || f.n < freeFailures(key) {
		return 0
	}
	wait := signInMaxWait
	if shift := f.n - freeFailures(key); shift < 10 {
		wait = min(signInMaxWait, time.Second<<shift)
	}
	return max(0, f.last.Add(wait).Sub(now))
}

// failed counts a failed sign-in for name from addr.
func (t *signInThrottle) failed(name, addr string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	if len(t.failures)+2 > signInMaxTracked { // room for the two counts below
		t.prune(now)
	}
	for _, key := range []string{nameKey(name), addrKey(addr)} {
		f := t.failures[key]
		if f == nil || now.Sub(f.last) >= signInWindow {
			f = &failureCount{}
			t.failures[key] = f
		}
		f.n++
		f.last = now
	}
}

// succeeded forgets name's failures (its address's stay counted).
func (t *signInThrottle) succeeded(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.failures, nameKey(name))
}

// prune drops counts older than the window and those that make nobody
// wait yet, so that a flood of failures under ever new names cannot wipe
// out the count of a name under attack; only if that is not enough, the
// older half of the rest (all of them when they are equally old).
func (t *signInThrottle) prune(now time.Time) {
	var times []time.Time
	for k, f := range t.failures {
		if now.Sub(f.last) >= signInWindow || f.n < freeFailures(k) {
			delete(t.failures, k)
		} else {
			times = append(times, f.last)
		}
	}
	if len(t.failures) < signInMaxTracked/2 {
		return
	}
	slices.SortFunc(times, time.Time.Compare)
	cut := times[len(times)/2]
	before := len(t.failures)
	for k, f := range t.failures {
		if f.last.Before(cut) {
			delete(t.failures, k)
		}
	}
	if len(t.failures) == before {
		clear(t.failures)
	}
}
