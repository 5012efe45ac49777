package web_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/web"
)

// countedSessions is a session store that counts GetSession.
type countedSessions struct {
	backend.SessionStore
	reads atomic.Int64
}

func (s *countedSessions) GetSession(ctx context.Context, id int64) (backend.Session, error) {
	s.reads.Add(1)
	return s.SessionStore.GetSession(ctx, id)
}

// TestAPICallReadsNoSession: a request sent through the JSON API on a live
// session takes the session from the pool's memory; no middleware reads it
// from the database.
func TestAPICallReadsNoSession(t *testing.T) {
	var sessions *countedSessions
	d := mustDashboardWith(t, dashboardOptions{configure: func(_ *web.Config, deps *web.Deps) {
		sessions = &countedSessions{SessionStore: deps.Sessions}
		deps.Sessions = sessions
	}})
	sess := d.MustAPISession(t, d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)}).ID)
	before := sessions.reads.Load()
	for i := range 3 {
		d.mustEcho(t, sess.ID, fmt.Sprint("call ", i))
	}
	if n := sessions.reads.Load() - before; n != 0 {
		t.Errorf("3 API calls read the session %d times, want 0", n)
	}
	// A session that is not live is still read, and its state answered.
	if r := d.api(t, http.MethodDelete, fmt.Sprintf("/api/v1/sessions/%d", sess.ID), nil, nil); r.Status >= 300 {
		t.Fatalf("closing the session: %d %s", r.Status, r.Body)
	}
	before = sessions.reads.Load()
	r := d.callTool(t, sess.ID, "echo", map[string]any{"text": "closed"}, 0)
	if r.Status != http.StatusConflict || sessions.reads.Load() == before {
		t.Errorf("a call on a closed session: %d after %d session reads, want 409 after one or more", r.Status, sessions.reads.Load()-before)
	}
}

// TestSessionPageReadsSessionOnce: the page of a session reads the session
// once, though its top bar's TLS warning, its header and its Logs panel
// all need it.
func TestSessionPageReadsSessionOnce(t *testing.T) {
	var sessions *countedSessions
	d := mustDashboardWith(t, dashboardOptions{configure: func(_ *web.Config, deps *web.Deps) {
		sessions = &countedSessions{SessionStore: deps.Sessions}
		deps.Sessions = sessions
	}})
	id, _ := d.MustRecordedSession(t, nil)
	for range 2 {
		before := sessions.reads.Load()
		r := d.get(t, fmt.Sprintf("/sessions/%d", id))
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="frame-count"`) {
			t.Fatalf("GET the session page: %d\n%.500s", r.Status, r.Body)
		}
		if n := sessions.reads.Load() - before; n != 1 {
			t.Errorf("the session page read the session %d times, want once", n)
		}
	}
}
