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
// sessions; or, with ?rows= the ids of the sessions a list of sessions on
// the page shows, the new state of such a row; or, with ?servers= the ids
// of the servers of the servers list, such a server's new state and what
// may be done to it. Ids are comma-separated, at most 200. It ends with the
// browser session it was opened in, as a session's stream does.
func (s *Server) streamSessionStates(c echo.Context) error {
	rows, err := idList("rows", c.QueryParam("rows"))
	if err != nil {
		return err
	}
	servers, err := idList("servers", c.QueryParam("servers"))
	if err != nil {
		return err
	}
	who, _ := principalOf(c)
	csrf, _ := c.Get(csrfKey).(string)
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
			return s.streamStates(ctx, lc, sub, states{rows: rows, servers: servers, csrf: csrf, token: token})
		})
	}()
	return nil
}

// idList reads the comma-separated ids of the query parameter name; nil
// when there are none.
func idList(name, raw string) (map[int64]bool, error) {
	if raw == "" {
		return nil, nil
	}
	parts := strings.Split(raw, ",")
	if len(parts) > views.MaxFollowed {
		return nil, backend.Errorf(backend.EInvalid, "%s: at most %d ids can be followed.", name, views.MaxFollowed)
	}
	ids := make(map[int64]bool, len(parts))
	for _, p := range parts {
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil || id <= 0 {
			return nil, backend.Errorf(backend.EInvalid, "%s: %q is not an id.", name, p)
		}
		ids[id] = true
	}
	return ids, nil
}

// states is what a feed of session states follows and the viewer's
// tokens: the CSRF token for the forms it sends, the browser session's.
type states struct {
	rows, servers map[int64]bool // nil: the top bar's list
	csrf, token   string
}

// streamStates writes, for each change of a session's state, what the
// page follows of it (see streamSessionStates), until something ends it;
// it returns the close code and reason to send.
func (s *Server) streamStates(ctx context.Context, conn *liveConn, sub *backend.Subscription, f states) (int, string) {
	topBar := f.rows == nil && f.servers == nil
	// A session may have opened or ended since the page was rendered.
	if topBar && !s.sendFragment(conn, views.ConnectedServers(s.deps.Pool.LiveSessions(), true)) {
		return websocket.CloseInternalServerErr, "write failed"
	}
	return s.relay(ctx, conn, sub, f.token, func(ev backend.Event) bool {
		switch {
		case topBar:
			return s.sendFragment(conn, views.ConnectedServers(s.deps.Pool.LiveSessions(), true))
		case f.rows[ev.Session.ID]:
			return s.sendFragment(conn, views.SessionRowSwap(*ev.Session))
		case f.servers[ev.Session.ServerID]:
			srv, err := s.deps.Registry.Get(ctx, ev.Session.ServerID)
			if err != nil {
				return backend.ErrorCodeOf(err) == backend.ENotFound // deleted: its row goes with a reload
			}
			row, err := s.serverRow(ctx, srv)
			return err == nil && s.sendFragment(conn, views.ServerRowSwap(f.csrf, row))
		}
		return true
	})
}
