package web

import (
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// tlsOffKey holds, in the request context, a function that returns the id
// of the server the requested page belongs to when that server skips TLS
// verification (0 otherwise). page() calls it, so that every page of such
// a server carries the warning (views.TLSOffBanner) without its handler
// doing anything.
const tlsOffKey = "tls-off-server"

// tlsOffServer notes, for pages under /servers/:id and /sessions/:id, how
// to find whether their server skips TLS verification. The lookup runs
// only when a page is rendered, at most once per request; fragments that
// htmx swaps into a page already warned are left out.
func (s *Server) tlsOffServer(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		route := c.Path()
		onServer, onSession := strings.HasPrefix(route, "/servers/:id"), strings.HasPrefix(route, "/sessions/:id")
		if (onServer || onSession) && !isAPIPath(c) && !isWebSocket(c.Request()) && (!isHTMX(c) || c.Request().Header.Get("HX-Boosted") == "true") {
			c.Set(tlsOffKey, sync.OnceValue(func() int64 { return s.tlsOffServerOf(c, onSession) }))
		}
		return next(c)
	}
}

// tlsOffServerOf returns the id of the server that the :id parameter
// names (a session's server when session), if it skips TLS verification;
// 0 otherwise, and when either cannot be read (the page reports that).
func (s *Server) tlsOffServerOf(c echo.Context, session bool) int64 {
	id, err := idParam(c)
	if err != nil {
		return 0
	}
	ctx := c.Request().Context()
	if session {
		sess, err := s.sessionOnce(ctx, id)
		if err != nil || sess.ServerID == 0 {
			return 0
		}
		id = sess.ServerID
	}
	srv, err := s.deps.Registry.Get(ctx, id)
	if err != nil || !srv.InsecureSkipVerify {
		return 0
	}
	return srv.ID
}

// tlsOffServerFor runs the lookup tlsOffServer noted, if any.
func tlsOffServerFor(c echo.Context) int64 {
	if f, ok := c.Get(tlsOffKey).(func() int64); ok {
		return f()
	}
	return 0
}
