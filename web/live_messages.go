package web

import (
	"context"
	"time"

	"github.com/gorilla/websocket"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// What a session's live stream sends: each event of the hub translated
// into the messages that update the viewer's page (session_live.go owns
// the connection they go out on).

// stream writes the backlog, the waiting inputs, then each event, until
// something ends it; it returns the close code and reason to send.
func (s *Server) stream(ctx context.Context, conn *liveConn, sub *backend.Subscription, v viewer) (int, string) {
	const lost = "write failed"
	sessionID, last := v.sessionID, v.after
	if !s.sendBacklog(conn, v, &last) {
		return websocket.CloseInternalServerErr, lost
	}
	// Requests may have arrived since the page was rendered; show them all.
	inputs := s.inputViews(sessionID)
	shown := make(map[int64]bool, len(inputs))
	for _, in := range inputs {
		shown[in.ID] = true
	}
	if !s.sendFragment(conn, views.InputsPanel(sessionID, inputs, true)) {
		return websocket.CloseInternalServerErr, lost
	}
	if !s.sendFragment(conn, views.Presence(sessionID, s.presence.Watching(sessionID))) {
		return websocket.CloseInternalServerErr, lost
	}
	// A session that ended before the subscription began sent its last
	// event to nobody here.
	if !s.deps.Pool.IsLive(sessionID) {
		if sess, err := s.deps.Sessions.GetSession(ctx, sessionID); err == nil && !sess.Live() &&
			!s.sendFragment(conn, views.SessionEndedSwap(sess, v.csrf)) {
			return websocket.CloseInternalServerErr, lost
		}
	}
	return s.relay(ctx, conn, sub, v.sessionToken, func(ev backend.Event) bool {
		return (ev.Session == nil || s.sendFragment(conn, views.SessionStatusSwap(*ev.Session))) &&
			(ev.Session == nil || ev.Session.Live() || s.sendFragment(conn, views.SessionEndedSwap(*ev.Session, v.csrf))) &&
			(!ev.PresenceChanged || s.sendFragment(conn, views.Presence(sessionID, s.presence.Watching(sessionID)))) &&
			(!ev.InputsChanged || s.sendInputChanges(conn, sessionID, shown)) &&
			(ev.Resource == nil || sendResourceUpdate(conn.Conn, *ev.Resource)) &&
			(ev.Progress == nil || sendProgress(conn.Conn, *ev.Progress)) &&
			(ev.Task == nil || sendTaskStatus(conn.Conn, *ev.Task)) &&
			s.sendListChanges(ctx, conn, sessionID, ev.Frames) &&
			s.sendEventFrames(conn, ev, v, &last)
	})
}

// sendBacklog writes the frames the viewer lacks and advances *last, the
// newest frame it has: the frames after it, or the newest page in place
// of what the viewer shows when it is more than a page behind. ok is
// false when the write failed.
func (s *Server) sendBacklog(conn *liveConn, v viewer, last *int64) bool {
	if !v.reset {
		return s.sendFrames(conn, v.backlog, last)
	}
	page := views.FramePage{SessionID: v.sessionID, Filter: v.filter, Older: v.older, Frames: v.backlog, Live: true}
	if !s.sendFragment(conn, views.FramesReplace(page)) {
		return false
	}
	if n := len(page.Frames); n > 0 {
		*last = page.Frames[n-1].ID
	}
	return true
}

// matching returns the frames that filter keeps, frames itself when it
// keeps all.
func matching(frames []backend.Frame, filter backend.FrameFilter) []backend.Frame {
	if filter.IsZero() {
		return frames
	}
	var out []backend.Frame
	for _, f := range frames {
		if filter.Matches(f) {
			out = append(out, f)
		}
	}
	return out
}

// sendFrames writes the frames newer than *last and advances it.
func (s *Server) sendFrames(conn *liveConn, frames []backend.Frame, last *int64) bool {
	start := 0
	for start < len(frames) && frames[start].ID <= *last {
		start++
	}
	if start == len(frames) {
		return true
	}
	fresh := frames[start:]
	if !s.sendFragment(conn, views.FramesAppend(fresh)) {
		return false
	}
	*last = fresh[len(fresh)-1].ID
	return true
}

// progressMessage is one of the live stream's messages that are not HTML
// (see also resourceMessage): the progress of a running call, which the
// page's script shows on the card whose call it is (a viewer without that
// card ignores it).
type progressMessage struct {
	CallProgress struct {
		Call     string  `json:"call"`
		Progress float64 `json:"progress"`
		Total    float64 `json:"total,omitempty"`
		Message  string  `json:"message,omitempty"`
	} `json:"callProgress"`
}

// sendProgress writes a call's progress as one JSON message.
func sendProgress(conn *websocket.Conn, p backend.CallProgress) bool {
	var m progressMessage
	m.CallProgress.Call, m.CallProgress.Progress, m.CallProgress.Total, m.CallProgress.Message = p.CallID, p.Progress, p.Total, p.Message
	return sendJSON(conn, m)
}

// resourceMessage says that a subscribed resource changed; the page's
// script (static/resources.js) shows it on the resource's card and marks
// its list entry, where the page has them.
type resourceMessage struct {
	ResourceUpdated struct {
		URI string    `json:"uri"`
		At  time.Time `json:"at"`
	} `json:"resourceUpdated"`
}

// sendResourceUpdate writes a resource's update as one JSON message.
func sendResourceUpdate(conn *websocket.Conn, u backend.ResourceUpdate) bool {
	var m resourceMessage
	m.ResourceUpdated.URI, m.ResourceUpdated.At = u.URI, u.At
	return sendJSON(conn, m)
}

// sendInputChanges adds the cards of newly waiting requests and removes
// those no longer waiting, updating shown, the set of cards the viewer has.
func (s *Server) sendInputChanges(conn *liveConn, sessionID int64, shown map[int64]bool) bool {
	var added []views.InputView
	waiting := map[int64]bool{}
	for _, in := range s.inputViews(sessionID) {
		waiting[in.ID] = true
		if !shown[in.ID] {
			added = append(added, in)
			shown[in.ID] = true
		}
	}
	var gone []views.GoneInput
	for id := range shown {
		if !waiting[id] {
			gone = append(gone, views.GoneInput{ID: id, By: s.deps.Inbox.AnsweredBy(id)})
			delete(shown, id)
		}
	}
	if len(gone) > 0 && !s.sendFragment(conn, views.InputsGone(gone)) {
		return false
	}
	return len(added) == 0 || s.sendFragment(conn, views.InputsAdd(sessionID, added))
}

// sendListChanges writes a ListChangedNotice for each list-change
// notification among frames. ok is false when a write failed; a session
// that cannot be read (of a deleted server, say) gets no notice.
func (s *Server) sendListChanges(ctx context.Context, conn *liveConn, sessionID int64, frames []backend.Frame) bool {
	for _, f := range frames {
		kind := f.ListChanged()
		if kind == "" {
			continue
		}
		sess, err := s.deps.Sessions.GetSession(ctx, sessionID)
		if err != nil || sess.ServerID == 0 {
			continue
		}
		if !s.sendFragment(conn, views.ListChangedNotice(sessionID, sess.ServerID, kind, f.Time)) {
			return false
		}
	}
	return true
}
