package backend_test

import (
	"sync"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// receive returns the next event of sub, failing after a second.
func receive(t *testing.T, sub *backend.Subscription) (backend.Event, bool) {
	t.Helper()
	select {
	case ev, ok := <-sub.C:
		return ev, ok
	case <-time.After(time.Second):
		t.Fatal("no event within a second")
		return backend.Event{}, false
	}
}

// assertNothing fails if sub has an event or is closed.
func assertNothing(t *testing.T, sub *backend.Subscription) {
	t.Helper()
	select {
	case ev, ok := <-sub.C:
		t.Errorf("unexpected receive: %+v (open %v)", ev, ok)
	default:
	}
}

func framesEvent(sessionID int64, ids ...int64) backend.Event {
	ev := backend.Event{SessionID: sessionID}
	for _, id := range ids {
		ev.Frames = append(ev.Frames, backend.Frame{ID: id, SessionID: sessionID})
	}
	return ev
}

func TestHubFansOutToEverySubscriberOfTheSession(t *testing.T) {
	hub := backend.NewHub(8)
	subs := []*backend.Subscription{hub.Subscribe(1), hub.Subscribe(1), hub.Subscribe(1)}
	other := hub.Subscribe(2)
	for _, s := range append(subs, other) {
		defer s.Close()
	}
	if n, m, none := hub.Subscribers(1), hub.Subscribers(2), hub.Subscribers(3); n != 3 || m != 1 || none != 0 {
		t.Errorf("Subscribers = %d, %d, %d; want 3, 1, 0", n, m, none)
	}

	hub.Publish(framesEvent(1, 10, 11))
	hub.Publish(backend.Event{SessionID: 1, Session: &backend.Session{ID: 1, Status: backend.SessionClosed}})
	hub.Publish(framesEvent(3, 99)) // nobody listens: must not block or panic

	for i, s := range subs {
		ev, ok := receive(t, s)
		if !ok || ev.SessionID != 1 || len(ev.Frames) != 2 || ev.Frames[0].ID != 10 || ev.Frames[1].ID != 11 {
			t.Errorf("subscriber %d: first event %+v (open %v)", i, ev, ok)
		}
		ev, ok = receive(t, s)
		if !ok || ev.Session == nil || ev.Session.Status != backend.SessionClosed {
			t.Errorf("subscriber %d: second event %+v (open %v)", i, ev, ok)
		}
		assertNothing(t, s)
		if s.Dropped() {
			t.Errorf("subscriber %d dropped", i)
		}
	}
	assertNothing(t, other)
}

func TestHubCutsOffASlowSubscriber(t *testing.T) {
	const buffer, events = 2, 10
	hub := backend.NewHub(buffer)
	fast := hub.Subscribe(1)
	defer fast.Close()
	slow := hub.Subscribe(1)
	defer slow.Close()

	for i := range events {
		hub.Publish(framesEvent(1, int64(i+1)))
		// The fast viewer keeps up: it reads each event as it comes.
		ev, ok := receive(t, fast)
		if !ok || ev.Frames[0].ID != int64(i+1) {
			t.Fatalf("fast subscriber: event %d = %+v (open %v)", i, ev, ok)
		}
	}
	if fast.Dropped() {
		t.Error("fast subscriber was dropped")
	}
	if !slow.Dropped() {
		t.Fatal("slow subscriber was not dropped")
	}
	if n := hub.Subscribers(1); n != 1 {
		t.Errorf("Subscribers after the cut = %d, want 1", n)
	}
	select {
	case <-slow.Done():
	default:
		t.Error("Done not closed after the cut")
	}
	select {
	case <-fast.Done():
		t.Error("Done of the fast subscriber closed")
	default:
	}
	// The slow viewer still gets what fit in its buffer, then the end.
	for i := range buffer {
		ev, ok := receive(t, slow)
		if !ok || ev.Frames[0].ID != int64(i+1) {
			t.Errorf("slow subscriber: buffered event %d = %+v (open %v)", i, ev, ok)
		}
	}
	if _, ok := receive(t, slow); ok {
		t.Error("slow subscriber's channel not closed after the buffered events")
	}
	// Cut off for good: later events go to the others only.
	hub.Publish(framesEvent(1, 100))
	if ev, ok := receive(t, fast); !ok || ev.Frames[0].ID != 100 {
		t.Errorf("fast subscriber after the cut: %+v (open %v)", ev, ok)
	}
	slow.Close() // after a drop, Close is harmless
	if !slow.Dropped() {
		t.Error("Dropped changed after Close")
	}
}

func TestSubscriptionCloseIsIdempotent(t *testing.T) {
	hub := backend.NewHub(0)
	sub := hub.Subscribe(7)
	keep := hub.Subscribe(7)
	defer keep.Close()
	sub.Close()
	sub.Close()
	if _, ok := <-sub.C; ok {
		t.Error("C not closed after Close")
	}
	if _, ok := <-sub.Done(); ok {
		t.Error("Done not closed after Close")
	}
	if sub.Dropped() {
		t.Error("a closed subscription reports Dropped")
	}
	hub.Publish(framesEvent(7, 1)) // must not send on the closed channel
	if ev, ok := receive(t, keep); !ok || ev.Frames[0].ID != 1 {
		t.Errorf("remaining subscriber: %+v (open %v)", ev, ok)
	}
	// A new subscription to the same session after everyone left works.
	keep.Close()
	again := hub.Subscribe(7)
	defer again.Close()
	hub.Publish(framesEvent(7, 2))
	if ev, ok := receive(t, again); !ok || ev.Frames[0].ID != 2 {
		t.Errorf("resubscribed: %+v (open %v)", ev, ok)
	}
}

// TestHubConcurrentUse publishes to two sessions from four goroutines
// while eight others subscribe, read, and close, again and again: each
// subscriber gets only its session's events, each publisher's in the order
// published; a subscription ends (C closed) by Close or by a cut-off, never
// otherwise; and once all have left, the hub feeds nobody.
func TestHubConcurrentUse(t *testing.T) {
	hub := backend.NewHub(4)
	var publishers sync.WaitGroup
	stop := make(chan struct{})
	for p := range 4 {
		publishers.Add(1)
		go func() {
			defer publishers.Done()
			for i := int64(1); ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				// The frame id says who published it and its place in order.
				hub.Publish(framesEvent(int64(p%2), int64(p)<<32|i))
			}
		}()
	}
	var readers sync.WaitGroup
	for r := range 8 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for round := range 25 {
				session := int64((r + round) % 2)
				s := hub.Subscribe(session)
				readConcurrently(t, s, session)
				s.Close()
				s.Close()
				if !endsSoon(s) {
					t.Errorf("session %d: C or Done still open after Close", session)
					return
				}
			}
		}()
	}
	readers.Wait()
	close(stop)
	publishers.Wait()
	if n, m := hub.Subscribers(0), hub.Subscribers(1); n != 0 || m != 0 {
		t.Errorf("Subscribers after every subscription closed = %d, %d; want 0, 0", n, m)
	}
}

// readConcurrently reads up to ten events of s, checking that they are of
// session and in each publisher's order, and that C closes only on a cut-off.
func readConcurrently(t *testing.T, s *backend.Subscription, session int64) {
	t.Helper()
	last := map[int64]int64{} // publisher → the newest sequence number seen
	for range 10 {
		var ev backend.Event
		var ok bool
		select {
		case ev, ok = <-s.C:
		case <-time.After(time.Second): // the publishers never pause
			t.Errorf("session %d: neither an event nor the end within a second", session)
			return
		}
		if !ok {
			if !s.Dropped() {
				t.Errorf("session %d: C closed, neither closed nor cut off", session)
			}
			return
		}
		if ev.SessionID != session || len(ev.Frames) != 1 || ev.Frames[0].SessionID != session {
			t.Errorf("subscriber of session %d got %+v", session, ev)
			return
		}
		p, seq := ev.Frames[0].ID>>32, ev.Frames[0].ID&(1<<32-1)
		if seq <= last[p] {
			t.Errorf("session %d: publisher %d's event %d after its event %d", session, p, seq, last[p])
		}
		last[p] = seq
	}
}

// endsSoon reports whether s's Done and C (after what it buffered) are
// closed within a second.
func endsSoon(s *backend.Subscription) bool {
	timeout := time.After(time.Second)
	select {
	case <-s.Done():
	case <-timeout:
		return false
	}
	for {
		select {
		case _, ok := <-s.C:
			if !ok {
				return true
			}
		case <-timeout:
			return false
		}
	}
}
