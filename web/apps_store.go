package web

import (
	"crypto/rand"
	"sync"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// Bounds of the app pages kept for the apps origin: a page lives appPageTTL
// after it was made (long enough to reload its frame) and at most
// maxAppPages are kept, the oldest dropped first.
const (
	appPageTTL  = time.Hour
	maxAppPages = 256
)

// appPage is an app's HTML waiting to be served on the apps origin, and
// the session whose tool call rendered it: the bridge acts on that session
// only.
type appPage struct {
	sessionID int64
	app       backend.AppResource
	made      time.Time
}

// appStore maps the unguessable tokens in app frames' addresses to their
// pages. It is safe for concurrent use.
type appStore struct {
	mu    sync.Mutex
	pages map[string]appPage
	order []string // tokens, oldest first
	now   func() time.Time
}

func newAppStore() *appStore {
	return &appStore{pages: map[string]appPage{}, now: time.Now}
}

// add keeps a page and returns its token.
func (s *appStore) add(sessionID int64, app backend.AppResource) string {
	token := rand.Text()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	if len(s.order) >= maxAppPages {
		delete(s.pages, s.order[0])
		s.order = s.order[1:]
	}
	s.pages[token] = appPage{sessionID: sessionID, app: app, made: s.now()}
	s.order = append(s.order, token)
	return token
}

// get returns the page of a token that has not expired.
func (s *appStore) get(token string) (appPage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.expire()
	p, ok := s.pages[token]
	return p, ok
}

// expire drops the pages older than appPageTTL. s.mu is held.
func (s *appStore) expire() {
	cut := s.now().Add(-appPageTTL)
	n := 0
	for n < len(s.order) && s.pages[s.order[n]].made.Before(cut) {
		delete(s.pages, s.order[n])
		n++
	}
	s.order = s.order[n:]
}
