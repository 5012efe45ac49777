package backend_test

import (
	"slices"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/mcpclient"
)

// TestWatchSession checks a viewer's start on live traffic: the frames
// after the viewer's newest as the backlog; the newest page in place of
// what it shows when it is more than a page behind; and a subscription
// that was open before the backlog was read.
func TestWatchSession(t *testing.T) {
	db := backendtest.MustOpenDB(t)
	ctx := backendtest.Context(t)
	sid := MustSession(t, db)
	var frames []backend.Frame
	for i := range 10 {
		frames = append(frames, backend.Frame{ID: int64(i + 1), SessionID: sid, Time: time.Now(), Direction: mcpclient.Outbound,
			Kind: mcpclient.KindMessage, RPCType: backend.RPCNotification, Method: "notifications/progress", Body: []byte(`{}`)})
	}
	if err := db.InsertFrames(ctx, frames, nil); err != nil {
		t.Fatal(err)
	}
	ids := func(fs []backend.Frame) []int64 {
		var out []int64
		for _, f := range fs {
			out = append(out, f.ID)
		}
		return out
	}
	hub := backend.NewHub(4)
	tests := []struct {
		name         string
		after        int64
		want         []int64
		reset, older bool
	}{
		{"a page behind", 7, []int64{8, 9, 10}, false, false},
		{"up to date", 10, nil, false, false},
		{"more than a page behind", 2, []int64{7, 8, 9, 10}, true, true},
		{"a new viewer of a long session", 0, []int64{7, 8, 9, 10}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := backend.WatchSession(ctx, hub, db, backend.WatchQuery{SessionID: sid, AfterID: tt.after, Limit: 4})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Sub.Close()
			if got := ids(w.Backlog); !slices.Equal(got, tt.want) || w.Reset != tt.reset || w.Older != tt.older {
				t.Errorf("backlog %v reset %v older %v, want %v %v %v", got, w.Reset, w.Older, tt.want, tt.reset, tt.older)
			}
			hub.Publish(framesEvent(sid, 11))
			ev, ok := receive(t, w.Sub)
			if !ok || len(ev.Frames) != 1 || ev.Frames[0].ID != 11 {
				t.Errorf("the subscription delivered %+v, %v; want frame 11", ev, ok)
			}
		})
	}

	t.Run("a failed read", func(t *testing.T) {
		closed := backendtest.MustOpenDB(t)
		closed.Close()
		if _, err := backend.WatchSession(ctx, hub, closed, backend.WatchQuery{SessionID: sid, Limit: 4}); err == nil {
			t.Fatal("WatchSession on a closed database succeeded")
		}
		if n := hub.Subscribers(sid); n != 0 {
			t.Errorf("a failed watch left %d subscriptions open", n)
		}
	})
}
