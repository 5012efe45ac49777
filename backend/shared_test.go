package backend_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

func TestSharedWorksOutEachKeyOnce(t *testing.T) {
	var s backend.Shared
	var computed [2]atomic.Int32
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := i % 2
			got := s.Do(key, func() any { computed[key].Add(1); return key * 10 })
			if got != key*10 {
				t.Errorf("Do(%d) = %v, want %d", key, got, key*10)
			}
		}()
	}
	wg.Wait()
	if a, b := computed[0].Load(), computed[1].Load(); a != 1 || b != 1 {
		t.Errorf("computed %d and %d times, want once each", a, b)
	}

	var none *backend.Shared
	n := 0
	for range 2 {
		none.Do(0, func() any { n++; return nil })
	}
	if n != 2 {
		t.Errorf("a nil Shared computed %d times for 2 calls, want 2", n)
	}
}

func TestHubSharesOneSharedAmongAnEventsSubscribers(t *testing.T) {
	hub := backend.NewHub(4)
	a, b := hub.Subscribe(1), hub.Subscribe(1)
	defer a.Close()
	defer b.Close()
	hub.Publish(framesEvent(1, 1))
	hub.Publish(framesEvent(1, 2))
	a1, _ := receive(t, a)
	b1, _ := receive(t, b)
	a2, _ := receive(t, a)
	if a1.Shared() == nil || a1.Shared() != b1.Shared() {
		t.Errorf("one event's subscribers got Shared %p and %p, want the same", a1.Shared(), b1.Shared())
	}
	if a2.Shared() == a1.Shared() {
		t.Error("two events got one Shared")
	}
	if (backend.Event{}).Shared() != nil {
		t.Error("an event not published has a Shared")
	}
}
