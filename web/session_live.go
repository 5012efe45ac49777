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
	"github.com/mcp-playground/playground/backend/accounts"
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
	after     int64              // the newest frame the page shows
	csrf      string             // the viewer's CSRF token, for the forms streamed to it
	who       accounts.Principal // the person watching, shown to the others
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
func (s *Server) pump(conn *websocket.Conn, sub *backend.Subscription, key int64, who accounts.Principal, stream func(context.Context, *liveConn) (int, string)) {
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
	return sendText(conn.Conn, buf.Bytes())
}

// sendJSON writes v as one JSON message.
func sendJSON(conn *websocket.Conn, v any) bool {
	body, err := json.Marshal(v)
	return err == nil && sendText(conn, body)
}

// sendText writes body as one text message, within wsWriteWait.
func sendText(conn *websocket.Conn, body []byte) bool {
	_ = conn.SetWriteDeadline(time.Now().Add(wsWriteWait))
	return conn.WriteMessage(websocket.TextMessage, body) == nil
}
