package web

import (
	"context"
	"strconv"
	"strings"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// streamSessionStates upgrades to a WebSocket that tells a page, each time
// a session opens or ends, who is connected: the top bar's list of open
// sessions or, with ?rows= the ids of the rows of a list of sessions that
// the page shows (comma-separated, at most 200), the new state of such a
// row. It ends with the browser session it was opened in, as a session's
// stream does.
func (s *Server) streamSessionStates(c echo.Context) error {
	rows, err := rowIDs(c.QueryParam("rows"))
	if err != nil {
		return err
	}
	who, _ := principalOf(c)
	var token string
	if ck, err := c.Cookie(sessionCookie); err == nil {
		token = ck.Value
	}
	sub := s.deps.Hub.Subscribe(backend.SessionStates)
	conn, err := s.upgrade(c)
	if err != nil {
		sub.Close()
		s.deps.Log.Warn("websocket upgrade failed", "feed", "session states", "err", err)
		return nil
	}
	s.wsWG.Add(1)
	go func() {
		defer s.wsWG.Done()
		s.pump(conn, sub, backend.SessionStates, who, func(ctx context.Context, lc *liveConn) (int, string) {
			return s.streamStates(ctx, lc, sub, rows, token)
		})
	}()
	return nil
}

// maxRowIDs bounds the rows one feed of session states follows.
const maxRowIDs = 200

// rowIDs reads the ids of ?rows=; nil when there are none.
func rowIDs(raw string) (map[int64]bool, error) {
	if raw == "" {
		return nil, nil
	}
	parts := strings.Split(raw, ",")
	if len(parts) > maxRowIDs {
		return nil, backend.Errorf(backend.EInvalid, "At most %d rows can be followed.", maxRowIDs)
	}
	ids := make(map[int64]bool, len(parts))
	for _, p := range parts {
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil || id <= 0 {
			return nil, backend.Errorf(backend.EInvalid, "rows: %q is not a session id.", p)
		}
		ids[id] = true
	}
	return ids, nil
}

// streamStates writes the top bar's list, or a row's state, for each
// change of a session's state, until something ends it; it returns the
// close code and reason to send.
func (s *Server) streamStates(ctx context.Context, conn *liveConn, sub *backend.Subscription, rows map[int64]bool, token string) (int, string) {
	const lost = "write failed"
	// A session may have opened or ended since the page was rendered.
	if rows == nil && !s.sendFragment(conn, views.ConnectedServers(s.deps.Pool.LiveSessions(), true)) {
		return websocket.CloseInternalServerErr, lost
	}
	return s.relay(ctx, conn, sub, token, func(ev backend.Event) bool {
		if rows == nil {
			return s.sendFragment(conn, views.ConnectedServers(s.deps.Pool.LiveSessions(), true))
		}
		return !rows[ev.Session.ID] || s.sendFragment(conn, views.SessionRowSwap(*ev.Session))
	})
}
