package web

import (
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// fixServer tries a connection doctor's suggestion: it makes the change
// the form names (fields transport, era and path, as backend.Fix) to the
// server's settings and connects, answering as connectServer does. Changing
// a stdio server needs the admin role, as every change to one does; a
// change that does not apply to the server is refused (EInvalid).
func (s *Server) fixServer(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	srv, err := s.deps.Registry.Get(ctx, id)
	if err != nil {
		return err
	}
	if err := mayManageServer(c, srv.Transport); err != nil {
		return err
	}
	fix := backend.ParseFix(c.FormValue("transport"), c.FormValue("era"), c.FormValue("path"), c.FormValue("skip_tls_verify") == "on")
	// From the redacted settings, as the edit form would save them: a
	// fix that changes where the traffic goes (TLS verification off)
	// carries no stored secret there.
	if srv, err = srv.Redacted().WithFix(fix); err != nil {
		return err
	}
	up, err := s.deps.Registry.Update(ctx, srv)
	if err != nil {
		return err
	}
	leaveDestinationNotice(c, id, up)
	return s.connectAndReturn(c, id)
}
