package backend

import (
	"cmp"
	"context"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// Pool owns the live connections to MCP servers. Each connection is a
// session, recorded from its first frame; the pool closes sessions on
// Disconnect and on Close, and notices servers that go away on their own.
type Pool struct {
	servers  ServerStore
	sessions SessionStore
	rec      *Recorder
	hub      Publisher
	inbox    *Inbox
	log      *slog.Logger
	info     mcpclient.Implementation
	// revisions, if not nil, keeps each server's interface revisions
	// (pool_revision.go).
	revisions RevisionStore
	// creds, if not nil, signs HTTP connections (pool_credentials.go).
	creds CredentialSource
	// keepAlive is how often a quiet HTTP server is pinged (pool_liveness.go).
	keepAlive time.Duration

	mu     sync.Mutex
	live   map[int64]*liveSession
	closed bool
	wg     sync.WaitGroup // per live session: its watcher and its revision taker
}

type liveSession struct {
	session      Session
	destinations []string // where it sends: Destinations of the server as it connected
	client       *mcpclient.Client
	redact       atomic.Pointer[Redactor] // hides the server's secrets, and those HideValues adds, in frames and close reasons
	closing      chan struct{}            // closed by requestClose
	closeOnce    sync.Once
	closeReason  string        // set once, before closing is closed
	ended        chan struct{} // closed once the session's end is stored

	tools   listCache[mcpclient.Tool]
	prompts listCache[Prompt]

	calls callRegistry // running calls, by the caller's id (calls.go)
	tasks sessionTasks // tasks the session created (tasks.go)

	resources resourceSubs // resource subscriptions (resources.go)
	// publish delivers an event of this session to its viewers.
	publish func(Event)

	logLevel atomic.Value // string: the level asked for by SetLogLevel (logging.go)

	// bg bounds the session's background work; watch cancels it (stopBg)
	// when the session ends.
	bg     context.Context
	stopBg context.CancelFunc
	// revision is the taking of the session's interface revision
	// (pool_revision.go).
	revision revisionTaking
}

// NewPool returns an empty pool. Servers' elicitation and sampling requests
// wait in inbox for a person's answer. clientInfo names the playground to
// servers.
func NewPool(servers ServerStore, sessions SessionStore, rec *Recorder, hub Publisher, inbox *Inbox, log *slog.Logger, clientInfo mcpclient.Implementation, opts ...PoolOption) *Pool {
	p := &Pool{servers: servers, sessions: sessions, rec: rec, hub: hub, inbox: inbox, log: log, info: clientInfo, live: map[int64]*liveSession{}, keepAlive: defaultKeepAlive}
	for _, o := range opts {
		o(p)
	}
	return p
}

// PoolOption configures a Pool at NewPool.
type PoolOption func(*Pool)

// ErrPoolClosed is returned by Connect after Close.
var ErrPoolClosed = Errorf(EUnavailable, "The playground is shutting down.")

// LiveSession returns the open session of a server, if it has one.
func (p *Pool) LiveSession(serverID int64) (Session, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var best *liveSession
	for _, ls := range p.live {
		if ls.session.ServerID == serverID && (best == nil || ls.session.ID > best.session.ID) {
			best = ls
		}
	}
	if best == nil {
		return Session{}, false
	}
	return best.session, true
}

// LiveSessions returns the pool's open sessions, ordered by server name
// and then by session id.
func (p *Pool) LiveSessions() []Session {
	p.mu.Lock()
	out := make([]Session, 0, len(p.live))
	for _, ls := range p.live {
		out = append(out, ls.session)
	}
	p.mu.Unlock()
	slices.SortFunc(out, func(a, b Session) int {
		if c := strings.Compare(a.ServerName, b.ServerName); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return out
}

// Open returns the session sessionID when it is open in this pool.
func (p *Pool) Open(sessionID int64) (Session, bool) {
	ls, err := p.get(sessionID)
	if err != nil {
		return Session{}, false
	}
	return ls.session, true
}

// IsLive reports whether the session is open in this pool.
func (p *Pool) IsLive(sessionID int64) bool {
	_, err := p.get(sessionID)
	return err == nil
}

func (p *Pool) get(sessionID int64) (*liveSession, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	ls, ok := p.live[sessionID]
	if !ok {
		return nil, Errorf(EConflict, "Session %d is not connected.", sessionID)
	}
	return ls, nil
}

// redacted returns text with the session's secrets hidden.
func (ls *liveSession) redacted(text string) string { return ls.redact.Load().Text(text) }

// HideValues adds secret values to those the live session hides in what it
// records from now on (a collection run's secret variables, sent in
// params); they stay hidden until the session ends. A session that is not
// live is left alone.
func (p *Pool) HideValues(sessionID int64, values []string) {
	p.mu.Lock()
	ls := p.live[sessionID]
	p.mu.Unlock()
	if ls == nil || len(values) == 0 {
		return
	}
	for {
		old := ls.redact.Load()
		if next := old.With(values...); ls.redact.CompareAndSwap(old, &next) {
			return
		}
	}
}

// Destinations implements collections.Caller: where the live session
// sends, from the server's settings when it connected (an edit since does
// not move it).
func (p *Pool) Destinations(sessionID int64) ([]string, error) {
	ls, err := p.get(sessionID)
	if err != nil {
		return nil, err
	}
	return ls.destinations, nil
}

// Close closes every live session and waits until their ends are stored.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	for _, ls := range p.live {
		ls.requestClose("the playground shut down")
	}
	p.mu.Unlock()
	p.wg.Wait()
}
