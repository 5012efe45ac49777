package web

import (
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// Routes lists the router's routes, so that tests cover every one of them,
// including routes added after the tests were written.
func (s *Server) Routes() []*echo.Route { return s.echo.Routes() }

// Routes lists the apps origin's routes.
func (o *AppsOrigin) Routes() []*echo.Route { return o.echo.Routes() }

// RouteRole returns the role a route needs ("" for anyone) and whether it
// has an access rule.
func (s *Server) RouteRole(method, path string) (backend.Role, bool) {
	r, ok := s.access[method+" "+path]
	return r, ok
}

// AuditAction returns the audit log's action label of a route and whether
// it has one.
func AuditAction(method, path string) (string, bool) {
	a, ok := auditActions[method+" "+path]
	return a, ok
}

// SetSessionRecheck makes live streams check their browser session every
// d until the returned function restores the default.
func SetSessionRecheck(d time.Duration) (restore func()) {
	old := sessionRecheck
	sessionRecheck = d
	return func() { sessionRecheck = old }
}

// CountFrameRenders counts the renderings of the live panels' frame
// messages (one per batch and view when viewers share them) until the
// returned restore.
func CountFrameRenders() (count func() int64, restore func()) {
	var n atomic.Int64
	old := renderFramesAppend
	renderFramesAppend = func(view liveView, frames []backend.Frame) ([]byte, error) {
		n.Add(1)
		return old(view, frames)
	}
	return n.Load, func() { renderFramesAppend = old }
}
