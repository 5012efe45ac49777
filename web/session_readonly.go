package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// refuseImported refuses, with 409 and a message saying why, every request
// that would act on an imported session (backend.Session.Imported): any
// method but GET and HEAD on a route under /sessions/:id or
// /api/v1/sessions/:id. Replaying an exchange of an imported session is
// allowed: it sends on the live session the form names, never on the
// imported one.
func (s *Server) refuseImported(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		switch c.Request().Method {
		case http.MethodGet, http.MethodHead:
			return next(c)
		}
		route := c.Path()
		if !strings.HasPrefix(route, "/sessions/:id") && !strings.HasPrefix(route, "/api/v1/sessions/:id") ||
			route == "/sessions/:id/exchanges/:exchange/replay" {
			return next(c)
		}
		id, err := idParam(c)
		if err != nil {
			return next(c)
		}
		if s.deps.Pool.IsLive(id) {
			return next(c) // a live session was not imported; no read on the calls' path
		}
		sess, err := s.deps.Sessions.GetSession(c.Request().Context(), id)
		if err != nil || !sess.Imported() {
			return next(c) // the handler says what is wrong with the session
		}
		return backend.Errorf(backend.EConflict, "Session %d was imported from %s: it is read-only, and nothing can be sent on it.", id, sess.ImportedFrom)
	}
}
