package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// stdioNeedsAdmin is why an editor may not register, change or delete a
// stdio server.
const stdioNeedsAdmin = "Only admins register, change or delete stdio servers: they run commands on the dashboard's host. Ask an admin, or register an HTTP server."

// mayManageServer returns EForbidden unless the person signed in may
// register, change or delete a server with each of the transports: stdio
// servers start commands on the host, so they are the admins' (an editor
// may still connect one an admin registered).
func mayManageServer(c echo.Context, transports ...backend.Transport) error {
	p, _ := principalOf(c)
	for _, t := range transports {
		if t == backend.TransportStdio && !p.Role.Allows(backend.RoleAdmin) {
			return &backend.Error{Code: backend.EForbidden, Message: stdioNeedsAdmin, Fields: map[string]string{"transport": stdioNeedsAdmin}}
		}
	}
	return nil
}

// refuseServerForm re-renders the server form with err, which
// mayManageServer returned, at its transport field.
func refuseServerForm(c echo.Context, form views.ServerForm, title string, err error) error {
	form.Errors, form.Message = fieldsOf(err), backend.ErrorMessageOf(err)
	return render(c, http.StatusForbidden, views.ServerFormPage(page(c, title), form))
}

// registeredTransport is the transport server id has now.
func (s *Server) registeredTransport(c echo.Context, id int64) (backend.Transport, error) {
	srv, err := s.deps.Registry.Get(c.Request().Context(), id)
	return srv.Transport, err
}
