package web

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/a-h/templ"
	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

const (
	wsWriteWait  = 10 * time.Second
	wsPongWait   = 60 * time.Second
	wsPingPeriod = wsPongWait * 9 / 10
	wsReadLimit  = 4096
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
	after, _ := strconv.ParseInt(c.QueryParam("after"), 10, 64)
	if _, err := s.deps.Sessions.GetSession(c.Request().Context(), id); err != nil {
		return err
	}
	// Subscribe before reading the backlog, so that no frame falls between.
	sub := s.deps.Hub.Subscribe(id)
	upgrader := websocket.Upgrader{
		ReadBufferSize: 1024, WriteBufferSize: 16 * 1024,
		// checkHostAndOrigin already refused foreign origins; this repeats
		// the check so the upgrader never trusts an origin by itself.
		CheckOrigin: func(r *http.Request) bool {
			origin := r.Header.Get("Origin")
			return origin == "" || s.sameOrigin(origin)
		},
	}
	conn, err := upgrader.Upgrade(c.Response(), c.Request(), nil)
	if err != nil {
		sub.Close()
		// The upgrader has answered the client; nothing more to write.
		s.deps.Log.Warn("websocket upgrade failed", "session", id, "err", err)
		return nil
	}
	s.wsWG.Add(1)
	go func() {
		defer s.wsWG.Done()
		s.pumpSession(conn, sub, id, after)
	}()
	return nil
}

// pumpSession owns conn: one reader goroutine for control frames, and this
// goroutine as the only writer. It returns when the viewer leaves, falls
// behind, or the dashboard closes.
func (s *Server) pumpSession(conn *websocket.Conn, sub *backend.Subscription, sessionID, after int64) {
	defer conn.Close()
	defer sub.Close()
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()

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

	backlog, err := s.deps.Frames.ListFrames(ctx, sessionID, after, 0)
	if err != nil {
		s.deps.Log.Error("live backlog", "session", sessionID, "err", err)
		return
	}
	last := after
	if !s.sendFrames(ctx, conn, backlog, &last) {
		return
	}
	ping := time.NewTicker(wsPingPeriod)
	defer ping.Stop()
	for {
		select {
		case <-ctx.Done():
			_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "dashboard closing"), time.Now().Add(time.Second))
			return
		case ev, ok := <-sub.C:
			if !ok {
				msg := "viewer fell behind"
				if !sub.Dropped() {
					msg = "stream ended"
				}
				_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseTryAgainLater, msg), time.Now().Add(time.Second))
				return
			}
			if ev.Session != nil && !s.sendFragment(ctx, conn, views.SessionStatusSwap(*ev.Session)) {
				return
			}
			if !s.sendFrames(ctx, conn, ev.Frames, &last) {
				return
			}
		case <-ping.C:
			if conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(wsWriteWait)) != nil {
				return
			}
		}
	}
}

// sendFrames writes the frames newer than *last and advances it.
func (s *Server) sendFrames(ctx context.Context, conn *websocket.Conn, frames []backend.Frame, last *int64) bool {
	start := 0
	for start < len(frames) && frames[start].ID <= *last {
		start++
	}
	if start == len(frames) {
		return true
	}
	fresh := frames[start:]
	if !s.sendFragment(ctx, conn, views.FramesAppend(fresh)) {
		return false
	}
	*last = fresh[len(fresh)-1].ID
	return true
}

func (s *Server) sendFragment(ctx context.Context, conn *websocket.Conn, comp templ.Component) bool {
	var buf bytes.Buffer
	if err := comp.Render(ctx, &buf); err != nil {
		s.deps.Log.Error("rendering live fragment", "err", err)
		return false
	}
	_ = conn.SetWriteDeadline(time.Now().Add(wsWriteWait))
	return conn.WriteMessage(websocket.TextMessage, buf.Bytes()) == nil
}
