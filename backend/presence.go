package backend

import (
	"slices"
	"strings"
	"sync"
)

// Presence keeps who is watching each session's live traffic, so that the
// people co-viewing a session see each other. It is safe for concurrent use.
type Presence struct {
	hub Publisher

	mu       sync.Mutex
	watchers map[int64]map[*presenceEntry]struct{} // by session
}

type presenceEntry struct {
	name string
	role Role
}

// Watcher is a person watching a session, with how many of their pages do.
type Watcher struct {
	Name  string
	Role  Role
	Pages int
}

// NewPresence returns a Presence that tells the hub's viewers of a session
// when its watchers change (Event.PresenceChanged).
func NewPresence(hub Publisher) *Presence {
	return &Presence{hub: hub, watchers: map[int64]map[*presenceEntry]struct{}{}}
}

// Join notes that the person name, of role, watches the session from one
// more page, until the returned leave is called (once).
func (p *Presence) Join(sessionID int64, name string, role Role) (leave func()) {
	e := &presenceEntry{name: name, role: role}
	p.mu.Lock()
	if p.watchers[sessionID] == nil {
		p.watchers[sessionID] = map[*presenceEntry]struct{}{}
	}
	p.watchers[sessionID][e] = struct{}{}
	p.mu.Unlock()
	p.changed(sessionID)
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			delete(p.watchers[sessionID], e)
			if len(p.watchers[sessionID]) == 0 {
				delete(p.watchers, sessionID)
			}
			p.mu.Unlock()
			p.changed(sessionID)
		})
	}
}

// Watching returns who watches the session, by name.
func (p *Presence) Watching(sessionID int64) []Watcher {
	p.mu.Lock()
	byName := map[string]*Watcher{}
	for e := range p.watchers[sessionID] {
		w := byName[e.name]
		if w == nil {
			w = &Watcher{Name: e.name, Role: e.role}
			byName[e.name] = w
		}
		w.Pages++
	}
	p.mu.Unlock()
	out := make([]Watcher, 0, len(byName))
	for _, w := range byName {
		out = append(out, *w)
	}
	slices.SortFunc(out, func(a, b Watcher) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	return out
}

func (p *Presence) changed(sessionID int64) {
	p.hub.Publish(Event{SessionID: sessionID, PresenceChanged: true})
}
