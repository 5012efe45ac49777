package web

import (
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// TestAppStoreBounds checks that app pages expire after appPageTTL and that
// no more than maxAppPages are kept, the oldest dropped first.
func TestAppStoreBounds(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	s := newAppStore()
	s.now = func() time.Time { return now }

	first := s.add(1, backend.AppResource{HTML: "first"})
	if p, ok := s.get(first); !ok || p.sessionID != 1 || p.app.HTML != "first" {
		t.Fatalf("get(first) = %+v, %v", p, ok)
	}
	if _, ok := s.get("AAAAAAAAAAAAAAAAAAAAAAAAAA"); ok {
		t.Error("an unknown token names a page")
	}
	now = now.Add(appPageTTL + time.Second)
	if _, ok := s.get(first); ok {
		t.Error("a page outlived appPageTTL")
	}

	tokens := make([]string, maxAppPages+1)
	for i := range tokens {
		tokens[i] = s.add(2, backend.AppResource{HTML: "page"})
	}
	if _, ok := s.get(tokens[0]); ok {
		t.Error("the oldest page was kept past maxAppPages")
	}
	if _, ok := s.get(tokens[maxAppPages]); !ok {
		t.Error("the newest page was dropped")
	}
	if len(s.pages) != maxAppPages || len(s.order) != maxAppPages {
		t.Errorf("the store keeps %d pages (%d in order), want %d", len(s.pages), len(s.order), maxAppPages)
	}
}
