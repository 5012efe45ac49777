package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// sessionRecheck is how often a live stream checks that the browser
// session it was opened in goes on (a var for tests).
var sessionRecheck = 30 * time.Second

const (
	wsWriteWait  = 10 * time.Second
	wsPongWait   = 60 * time.Second
	wsPingPeriod = wsPongWait * 9 / 10
	wsReadLimit  = 4096
	// wsCutOffGrace is how long a viewer the hub cut off has to take its
	// close frame before its connection is closed under it.
	wsCutOffGrace = time.Second
)

// streamSession upgrades to a WebSocket and pushes the session's frames as
// HTML fragments that htmx appends to the live panel: first those recorded
// after the ?after= id the page already shows, then each committed batch.
// A viewer that falls behind is cut off.
func (s *Server) streamSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	after, err := queryInt[int64](c, "after", 0)
	if err != nil {
		return err
	}
	if _, err := s.deps.Sessions.GetSession(c.Request().Context(), id); err != nil {
		return err
	}
	filter, err := frameFilterOf(c)
	if err != nil {
		return err
	}
	v := viewer{sessionID: id, filter: filter}
	v.csrf, _ = c.Get(csrfKey).(string)
	v.who, _ = principalOf(c)
	if ck, err := c.Cookie(sessionCookie); err == nil {
		v.sessionToken = ck.Value
	}
	w, err := backend.WatchSession(c.Request().Context(), s.deps.Hub, s.deps.Frames, backend.WatchQuery{
		SessionID: id, AfterID: after, Limit: framePageSize, BodyPreview: views.FrameBodyPreview, Filter: filter,
	})
	if err != nil {
		return err
	}
	v.backlog, v.reset, v.older, v.after = w.Backlog, w.Reset, w.Older, after
	sub := w.Sub
	conn, err := s.upgrade(c)
	if err != nil {
		sub.Close()
		// The upgrader has answered the client; nothing more to write.
		s.deps.Log.Warn("websocket upgrade failed", "session", id, "err", err)
		return nil
	}
	s.wsWG.Add(1)
	go func() {
		defer s.wsWG.Done()
		s.pumpSession(conn, sub, v)
	}()
	return nil
}

// upgrade turns the request into a WebSocket. checkHostAndOrigin already
// refused foreign origins; the upgrader checks again, so that it never
// trusts an origin by itself. On failure the upgrader has answered.
func (s *Server) upgrade(c echo.Context) (*websocket.Conn, error) {
	upgrader := websocket.Upgrader{
		ReadBufferSize: 1024, WriteBufferSize: 16 * 1024,
		CheckOrigin: func(r *http.Request) bool {
			origin := r.Header.Get("Origin")
			return origin == "" || s.sameOrigin(r, origin)
		},
	}
	return upgrader.Upgrade(c.Response(), c.Request(), nil)
}

// viewer is what a live stream knows of the page it feeds, and the
// frames the page lacks (see backend.Watch).
type viewer struct {
	sessionID int64
	after     int64             // the newest frame the page shows
	csrf      string            // the viewer's CSRF token, for the forms streamed to it
	who       backend.Principal // the person watching, shown to the others
	// sessionToken is the browser session the stream was opened in; the
	// stream ends once that session does (signed out, disabled).
	sessionToken string
	filter       backend.FrameFilter

	backlog      []backend.Frame
	reset, older bool
}

// pumpSession feeds a session's viewer (see pump), who is counted among
// those watching while the stream lasts.
func (s *Server) pumpSession(conn *websocket.Conn, sub *backend.Subscription, v viewer) {
	defer s.presence.Join(v.sessionID, v.who.User.Name, v.who.Role)()
	s.pump(conn, sub, v.sessionID, v.who, func(ctx context.Context, lc *liveConn) (int, string) {
		return s.stream(ctx, lc, sub, v)
	})
}

// pump owns conn: one reader goroutine for control frames, and stream,
// run on this goroutine, as the only writer; fragments render as who sees
// them. It returns when the viewer leaves, falls behind (the hub cut sub
// off), or the dashboard closes, and tells the viewer why in a close
// frame; it closes sub and conn. key names the feed in the log.
func (s *Server) pump(conn *websocket.Conn, sub *backend.Subscription, key int64, who backend.Principal, stream func(context.Context, *liveConn) (int, string)) {
	defer conn.Close()
	defer sub.Close()
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	finished, watched := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		cutOff(conn, sub, finished)
	}()
	defer func() {
		close(finished)
		<-watched
		if sub.Dropped() {
			s.deps.Log.Warn("live viewer cut off: it fell behind", "session", key)
		}
	}()

	go func() {
		defer cancel()
		conn.SetReadLimit(wsReadLimit)
		_ = conn.SetReadDeadline(time.Now().Add(wsPongWait))
		conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(time.Now().Add(wsPongWait)) })
		for {
			if _, _, err := conn.NextReader(); err != nil {
				return
			}
		}
	}()

	code, reason := stream(ctx, &liveConn{Conn: conn, render: views.WithViewer(context.Background(), who)})
	if s.ctx.Err() != nil {
		code, reason = websocket.CloseGoingAway, "dashboard closing"
	}
	_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
}

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
			s.sendFrames(conn, matching(ev.Frames, v.filter), &last)
	})
}

// relay hands each event of sub to send, pings the viewer, and checks
// every sessionRecheck that the browser session token goes on, until
// something ends it: ctx, the subscription (ended, or cut off for falling
// behind), a failed write (send returns false), the end of the browser
// session. It returns the close code and reason to send.
func (s *Server) relay(ctx context.Context, conn *liveConn, sub *backend.Subscription, token string, send func(backend.Event) bool) (int, string) {
	const lost = "write failed"
	ping := time.NewTicker(wsPingPeriod)
	defer ping.Stop()
	recheck := time.NewTicker(sessionRecheck)
	defer recheck.Stop()
	for {
		select {
		case <-ctx.Done():
			return websocket.CloseGoingAway, "stream closed"
		case ev, ok := <-sub.C:
			select {
			case <-sub.Done(): // ended: skip what is still buffered
				ok = false
			default:
			}
			if !ok {
				if sub.Dropped() {
					return websocket.CloseTryAgainLater, "viewer fell behind"
				}
				return websocket.CloseNormalClosure, "stream ended"
			}
			if !send(ev) {
				return websocket.CloseInternalServerErr, lost
			}
		case <-ping.C:
			if conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(wsWriteWait)) != nil {
				return websocket.CloseInternalServerErr, lost
			}
		case <-recheck.C:
			if _, err := s.deps.Accounts.Authenticate(ctx, token); backend.ErrorCodeOf(err) == backend.EUnauthenticated {
				return websocket.ClosePolicyViolation, "signed out"
			}
		}
	}
}

// cutOff closes conn when the hub has cut the viewer off and the writer is
// still busy wsCutOffGrace later: it is then stuck writing to a viewer that
// stopped reading, and would hold the connection and the events it has
// until the write deadline. It returns once finished is closed or it has
// closed conn.
func cutOff(conn *websocket.Conn, sub *backend.Subscription, finished <-chan struct{}) {
	select {
	case <-finished:
		return
	case <-sub.Done():
	}
	if !sub.Dropped() {
		return
	}
	grace := time.NewTimer(wsCutOffGrace)
	defer grace.Stop()
	select {
	case <-finished:
	case <-grace.C:
		conn.Close() // safe beside the writer: it unblocks its write
	}
}

// sendBacklog writes the frames the viewer lacks and advances *last, the
// newest frame it has: the frames after it, or the newest page in place
// of what the viewer shows when it is more than a page behind. ok is
// false when the write failed.
func (s *Server) sendBacklog(conn *liveConn, v viewer, last *int64) bool {
	if !v.reset {
		return s.sendFrames(conn, v.backlog, last)
	}
	page := views.FramePage{SessionID: v.sessionID, Filter: v.filter, Older: v.older, Frames: redactFrames(v.backlog), Live: true}
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
	if !s.sendFragment(conn, views.FramesAppend(redactFrames(fresh))) {
		return false
	}
	*last = fresh[len(fresh)-1].ID
	return true
}

// liveConn is a live stream's connection with the context its fragments
// render in, which names who watches (so that forms show only what their
// role may use).
type liveConn struct {
	*websocket.Conn
	render context.Context
}

// sendFragment renders comp and writes it as one message. Rendering does
// not watch a context: it is quick, and a closing stream still ends cleanly.
func (s *Server) sendFragment(conn *liveConn, comp templ.Component) bool {
	var buf bytes.Buffer
	if err := comp.Render(conn.render, &buf); err != nil {
		s.deps.Log.Error("rendering live fragment", "err", err)
		return false
	}
	_ = conn.SetWriteDeadline(time.Now().Add(wsWriteWait))
	return conn.WriteMessage(websocket.TextMessage, buf.Bytes()) == nil
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

// sendJSON writes v as one JSON message.
func sendJSON(conn *websocket.Conn, v any) bool {
	body, err := json.Marshal(v)
	if err != nil {
		return false
	}
	_ = conn.SetWriteDeadline(time.Now().Add(wsWriteWait))
	return conn.WriteMessage(websocket.TextMessage, body) == nil
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
