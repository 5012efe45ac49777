package web

import (
	"bytes"
	"context"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
	"github.com/mcp-playground/playground/views"
)

// liveView is what decides how a live panel shows a batch of frames: the
// role of who watches (which controls the rows offer) and the panel's
// filter. Every viewer of one view is sent the same bytes, rendered once
// for the batch (see liveFramesOf); the rendering sees the role alone, so
// nothing of one viewer (their name, their tokens) can reach another. It
// keys a backend.Shared, so it must stay comparable.
type liveView struct {
	role   backend.Role
	filter backend.FrameFilter
}

// view is how v's live panel shows frames.
func (v viewer) view() liveView { return liveView{role: v.who.Role, filter: v.filter} }

// liveFrames is a batch of frames as one view shows them: those its filter
// keeps, and the message that appends them to its live panel (nil when it
// keeps none, or the rendering failed).
type liveFrames struct {
	frames []backend.Frame
	msg    []byte
}

// liveFramesOf returns ev's frames as view shows them, worked out once for
// all the viewers of the view (backend.Event.Shared).
func (s *Server) liveFramesOf(ev backend.Event, view liveView) liveFrames {
	return ev.Shared().Do(view, func() any {
		lf := liveFrames{frames: matching(ev.Frames, view.filter)}
		if len(lf.frames) == 0 {
			return lf
		}
		var err error
		if lf.msg, err = renderFramesAppend(view, lf.frames); err != nil {
			lf.msg = nil
			s.deps.Log.Error("rendering live fragment", "err", err)
		}
		return lf
	}).(liveFrames)
}

// renderFramesAppend renders the message that appends frames, with their
// HTTP secrets redacted, to the live panel of view: as someone of its role
// sees them. It is a variable so that tests can count the renderings.
var renderFramesAppend = func(view liveView, frames []backend.Frame) ([]byte, error) {
	var buf bytes.Buffer
	ctx := views.WithViewer(context.Background(), accounts.Principal{Role: view.role})
	err := views.FramesAppend(frames).Render(ctx, &buf)
	return buf.Bytes(), err
}

// sendEventFrames writes the frames of ev that v's view keeps and that are
// newer than *last, and advances *last: the view's shared message when all
// are newer, as they are once the backlog is behind; otherwise the newer
// ones, rendered for this viewer alone.
func (s *Server) sendEventFrames(conn *liveConn, ev backend.Event, v viewer, last *int64) bool {
	lf := s.liveFramesOf(ev, v.view())
	n := len(lf.frames)
	switch {
	case n == 0:
		return true
	case lf.frames[0].ID <= *last:
		return s.sendFrames(conn, lf.frames, last)
	case lf.msg == nil:
		return false
	}
	if !sendText(conn.Conn, lf.msg) {
		return false
	}
	*last = lf.frames[n-1].ID
	return true
}
