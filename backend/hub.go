package backend

import (
	"sync"
)

// Event is what the hub delivers to viewers of a session: committed frames,
// a change of the session's state, the progress of a call, or an
// update of a subscribed resource.
type Event struct {
	SessionID int64
	Frames    []Frame  // frames in id order, already committed to the database, HTTP info redacted (RedactHTTP)
	Session   *Session // set when the session's status changed
	// InputsChanged says the session's waiting input requests changed (see Inbox).
	InputsChanged bool
	// Progress is a progress report of a running call (see CallWith).
	Progress *CallProgress
	// Task is a status change of a task a running call follows (see CallTool).
	Task *TaskStatus
	// Resource is an update of a subscribed resource (see Pool.Subscribe).
	Resource *ResourceUpdate
	// PresenceChanged says who watches the session changed (see Presence).
	PresenceChanged bool

	shared *Shared // set by Hub.Publish
}

// Shared returns what the viewers of e share of the work of showing it:
// one Shared for each event Hub.Publish delivers, whichever subscriber
// reads it; nil for an event that did not come through a hub.
func (e Event) Shared() *Shared { return e.shared }

// Subscriber starts feeds of a session's events. *Hub is one; a hub that
// crosses replicas (PostgreSQL LISTEN/NOTIFY, say) can be another by
// feeding what it hears to a Hub of its own and handing out its
// subscriptions.
type Subscriber interface {
	Subscribe(sessionID int64) *Subscription
}

// Publisher delivers events to the viewers of their session; *Hub is one.
// The pool, the inbox, the recorder and presence publish through it, so a
// hub that crosses replicas can stand in for *Hub.
type Publisher interface {
	Publish(e Event)
}

// Hub fans events out to the viewers of each session. A viewer that does not
// keep up is cut off rather than waited for. Hub is safe for concurrent use.
type Hub struct {
	mu     sync.Mutex
	subs   map[int64]map[*Subscription]struct{}
	buffer int
}

// NewHub returns a hub whose subscriptions buffer up to buffer events each.
func NewHub(buffer int) *Hub {
	if buffer <= 0 {
		buffer = 256
	}
	return &Hub{subs: map[int64]map[*Subscription]struct{}{}, buffer: buffer}
}

// Subscription is one viewer's feed of a session's events. C is closed when
// the subscription ends: by Close, or because the viewer fell behind (then
// Dropped reports true). Events already buffered stay readable from C.
type Subscription struct {
	C         <-chan Event
	c         chan Event
	done      chan struct{} // closed when the subscription ends
	hub       *Hub
	sessionID int64
	dropped   bool // guarded by hub.mu
	closed    bool // guarded by hub.mu
}

// Subscribe starts a feed of the session's future events.
func (h *Hub) Subscribe(sessionID int64) *Subscription {
	c := make(chan Event, h.buffer)
	s := &Subscription{C: c, c: c, done: make(chan struct{}), hub: h, sessionID: sessionID}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[sessionID] == nil {
		h.subs[sessionID] = map[*Subscription]struct{}{}
	}
	h.subs[sessionID][s] = struct{}{}
	return s
}

// Subscribers returns how many viewers the session's events currently go to.
func (h *Hub) Subscribers(sessionID int64) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs[sessionID])
}

// Close ends the subscription. It is idempotent.
func (s *Subscription) Close() {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	s.hub.removeLocked(s)
}

// Done returns a channel that is closed when the subscription ends, by
// Close or because the hub cut it off; unlike C, it does not wait for the
// buffered events to be read.
func (s *Subscription) Done() <-chan struct{} { return s.done }

// Dropped reports whether the hub cut the subscription off because its
// buffer was full.
func (s *Subscription) Dropped() bool {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	return s.dropped
}

func (h *Hub) removeLocked(s *Subscription) {
	if s.closed {
		return
	}
	s.closed = true
	close(s.c)
	close(s.done)
	set := h.subs[s.sessionID]
	delete(set, s)
	if len(set) == 0 {
		delete(h.subs, s.sessionID)
	}
}

// SessionStates is the feed of every session's changes of state: its
// subscribers get an Event (SessionID SessionStates, Session set) each time
// a session opens or ends, whichever it is.
const SessionStates int64 = -1

// Publish delivers e to every subscriber of e.SessionID without blocking,
// and a change of state (Session set) to those of SessionStates too; a
// subscriber whose buffer is full is cut off. The subscribers of each get
// the event with one Shared (Event.Shared).
func (h *Hub) Publish(e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.deliverLocked(e.SessionID, e)
	if e.Session != nil && e.SessionID != SessionStates {
		h.deliverLocked(SessionStates, Event{SessionID: SessionStates, Session: e.Session})
	}
}

func (h *Hub) deliverLocked(key int64, e Event) {
	if len(h.subs[key]) == 0 {
		return
	}
	e.shared = &Shared{}
	for s := range h.subs[key] {
		select {
		case s.c <- e:
		default:
			s.dropped = true
			h.removeLocked(s)
		}
	}
}
