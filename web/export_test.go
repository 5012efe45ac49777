package web

import "github.com/labstack/echo/v4"

// Routes lists the router's routes, so that tests cover every one of them,
// including routes added after the tests were written.
func (s *Server) Routes() []*echo.Route { return s.echo.Routes() }

// Routes lists the apps origin's routes.
func (o *AppsOrigin) Routes() []*echo.Route { return o.echo.Routes() }
