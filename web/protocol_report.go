package web

import (
	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// showProtocol is a server's Protocol section: the protocol linter's
// findings over all its sessions, by code. It needs no live session.
func (s *Server) showProtocol(c echo.Context) error {
	return s.explorerPage(c, views.SectionProtocol, func(srv backend.Server, _ *backend.Session) (templ.Component, error) {
		rows, err := s.deps.Frames.LintReport(c.Request().Context(), srv.ID)
		if err != nil {
			return nil, err
		}
		return views.ProtocolReport(srv, rows), nil
	})
}
