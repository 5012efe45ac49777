package web

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// Health reports whether the database answers; *store.DB implements it.
type Health interface {
	// Ping runs a trivial query and returns why it failed, or nil.
	Ping(ctx context.Context) error
}

// healthPath is the address orchestrators probe.
const healthPath = "/healthz"

// healthTimeout bounds the database's answer to a probe.
const healthTimeout = 2 * time.Second

// healthz answers orchestrators' probes: 200 "ok" when the database
// answers a trivial query (Deps.Health) and the recorder reports no
// failure (Deps.Recording), else 503 with a short reason. It answers
// nothing more, to anyone, whatever the Host (checkHostAndOrigin).
func (s *Server) healthz(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	if s.deps.Health != nil {
		ctx, cancel := context.WithTimeout(c.Request().Context(), healthTimeout)
		defer cancel()
		if err := s.deps.Health.Ping(ctx); err != nil {
			s.deps.Log.Warn("health check: the database does not answer", "err", err)
			return c.String(http.StatusServiceUnavailable, "database unavailable\n")
		}
	}
	if s.deps.Recording != nil && s.deps.Recording.Failure() != nil {
		return c.String(http.StatusServiceUnavailable, "recording failing\n")
	}
	return c.String(http.StatusOK, "ok\n")
}
