package web

import "github.com/labstack/echo/v4"

// hstsPolicy keeps browsers on HTTPS for this host for a year. It leaves
// out includeSubDomains and preload: the dashboard speaks for its own host
// only.
const hstsPolicy = "max-age=31536000"

// strictTransport adds Strict-Transport-Security to every answer to a
// request that came over HTTPS (isHTTPS: directly, or through a trusted
// proxy), so that browsers never fall back to plain HTTP for this host.
// Answers over plain HTTP do not carry it; browsers would ignore it there.
func (s *Server) strictTransport(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.isHTTPS(c.Request()) {
			c.Response().Header().Set("Strict-Transport-Security", hstsPolicy)
		}
		return next(c)
	}
}
