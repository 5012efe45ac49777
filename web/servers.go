package web

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

func (s *Server) listServers(c echo.Context) error {
	servers, err := s.deps.Registry.List(c.Request().Context())
	if err != nil {
		return err
	}
	rows := make([]views.ServerRow, len(servers))
	for i, srv := range servers {
		if rows[i], err = s.serverRow(c.Request().Context(), srv); err != nil {
			return err
		}
	}
	return render(c, http.StatusOK, views.ServersPage(page(c, "Servers"), rows))
}

// serverRow is srv as the servers list shows it: with its open session,
// or its newest session when that one failed to connect.
func (s *Server) serverRow(ctx context.Context, srv backend.Server) (views.ServerRow, error) {
	row := views.ServerRow{Server: srv.Redacted()}
	if live, ok := s.deps.Pool.LiveSession(srv.ID); ok {
		row.Live = &live
		return row, nil
	}
	last, err := s.deps.Sessions.ListSessions(ctx, srv.ID, 0, 1)
	if err != nil {
		return row, err
	}
	if len(last) == 1 && last[0].Status == backend.SessionFailed {
		row.Failed = &last[0]
	}
	return row, nil
}

func (s *Server) newServerForm(c echo.Context) error {
	transport := backend.TransportStdio
	if mayManageServer(c, transport) != nil {
		transport = backend.TransportHTTP // what an editor may save
	}
	return render(c, http.StatusOK, views.ServerFormPage(page(c, "Add a server"), views.ServerForm{Transport: string(transport)}))
}

func (s *Server) editServerForm(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	srv, err := s.deps.Registry.Get(c.Request().Context(), id)
	if err != nil {
		return err
	}
	form := views.ServerFormOf(srv.Redacted())
	form.Exports = serverExports(srv)
	form.Secrets = secretPlaces(secretSettings(srv))
	form.StoredCerts, _ = backend.ParseCACerts(srv.CACertPEM) // none when empty; Validate kept out the unparsable
	form.Now = time.Now()
	return render(c, http.StatusOK, views.ServerFormPage(page(c, "Edit "+srv.Name), form))
}

func (s *Server) createServer(c echo.Context) error {
	form, srv := readServerForm(c)
	if err := mayManageServer(c, srv.Transport); err != nil {
		return refuseServerForm(c, form, "Add a server", err)
	}
	id, err := s.saveServer(c, form, srv, func() (int64, error) { return s.deps.Registry.Create(c.Request().Context(), srv) })
	if err != nil || id == 0 {
		return err
	}
	return c.Redirect(http.StatusSeeOther, savedServerPage(id, srv))
}

// savedServerPage is where saving srv leads: its page, which, when the
// registry split a command line typed whole into Command
// (backend.Server.Normalized), says so (?split=1).
func savedServerPage(id int64, srv backend.Server) string {
	target := "/servers/" + itoa(id)
	if srv.Transport == backend.TransportStdio && len(srv.Args) == 0 && len(srv.Normalized().Args) > 0 {
		target += "?split=1"
	}
	return target
}

func (s *Server) updateServer(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	form, srv := readServerForm(c)
	form.ID, srv.ID = id, id
	was, err := s.registeredTransport(c, id)
	if err != nil {
		return err
	}
	if err := mayManageServer(c, was, srv.Transport); err != nil {
		return refuseServerForm(c, form, "Edit "+srv.Name, err)
	}
	var up backend.ServerUpdate
	saved, err := s.saveServer(c, form, srv, func() (int64, error) {
		var err error
		up, err = s.deps.Registry.Update(c.Request().Context(), srv)
		return id, err
	})
	if err != nil || saved == 0 {
		return err
	}
	leaveDestinationNotice(c, id, up)
	return c.Redirect(http.StatusSeeOther, savedServerPage(id, srv))
}

// saveServer runs save unless the form already has errors, and re-renders
// the form with field errors when it fails validation. It returns the saved
// id, or 0 when it has already answered.
func (s *Server) saveServer(c echo.Context, form views.ServerForm, srv backend.Server, save func() (int64, error)) (int64, error) {
	if len(form.Errors) == 0 {
		id, err := save()
		if err == nil {
			return id, nil
		}
		fields := fieldsOf(err)
		if fields == nil {
			return 0, err
		}
		form.Errors, form.Message = fields, backend.ErrorMessageOf(err)
	}
	if form.Message == "" {
		form.Message = "Please correct the fields marked below."
	}
	title := "Add a server"
	if form.ID != 0 {
		title = "Edit " + srv.Name
	}
	return 0, render(c, http.StatusUnprocessableEntity, views.ServerFormPage(page(c, title), form))
}

func (s *Server) deleteServer(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	was, err := s.registeredTransport(c, id)
	if err != nil {
		return err
	}
	if err := mayManageServer(c, was); err != nil {
		return err
	}
	if err := s.deps.Registry.Delete(c.Request().Context(), id); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/")
}

// readServerForm reads the server form as typed, and the server it
// describes: only the chosen transport's fields are read, so that the
// other section of the form is ignored. Lines that cannot be parsed
// become field errors, reported together with the registry's own checks.
func readServerForm(c echo.Context) (views.ServerForm, backend.Server) {
	f := views.ServerForm{
		Name: strings.TrimSpace(c.FormValue("name")), Transport: c.FormValue("transport"), Era: c.FormValue("era"),
		Command: strings.TrimSpace(c.FormValue("command")), Args: c.FormValue("args"), Env: c.FormValue("env"),
		Dir: strings.TrimSpace(c.FormValue("dir")), URL: strings.TrimSpace(c.FormValue("url")), Headers: c.FormValue("headers"),
		CACert: strings.TrimSpace(c.FormValue("ca_cert")), Insecure: c.FormValue("insecure") != "", Proxy: strings.TrimSpace(c.FormValue("proxy")),
		Errors: map[string]string{},
	}
	f.Roots = readRoots(c)
	srv := backend.Server{Name: f.Name, Transport: backend.Transport(f.Transport), Era: backend.Era(f.Era), Roots: f.Roots}
	switch srv.Transport {
	case backend.TransportStdio:
		srv.Command, srv.Args, srv.Dir = f.Command, nonEmptyLines(f.Args), f.Dir
		env, err := parsePairs(f.Env, "=")
		if err != "" {
			f.Errors["env"] = err
		}
		srv.Env = env
	case backend.TransportHTTP, backend.TransportSSE:
		srv.URL, srv.CACertPEM, srv.InsecureSkipVerify, srv.Proxy = f.URL, f.CACert, f.Insecure, f.Proxy
		headers, err := parsePairs(f.Headers, ":")
		if err != "" {
			f.Errors["headers"] = err
		}
		srv.Headers = headers
	}
	if len(f.Errors) > 0 {
		// Report every problem at once, validation included.
		if verr := fieldsOf(srv.Normalized().Validate()); verr != nil {
			for k, v := range verr {
				if _, ok := f.Errors[k]; !ok {
					f.Errors[k] = v
				}
			}
		}
	}
	return f, srv
}

// readRoots pairs the form's root_uri and root_name fields, row by row,
// and drops the rows left empty.
func readRoots(c echo.Context) []backend.Root {
	params, err := c.FormParams()
	if err != nil {
		return nil
	}
	uris, names := params["root_uri"], params["root_name"]
	roots := make([]backend.Root, 0, len(uris))
	for i, uri := range uris {
		r := backend.Root{URI: strings.TrimSpace(uri)}
		if i < len(names) {
			r.Name = strings.TrimSpace(names[i])
		}
		if r.URI != "" || r.Name != "" {
			roots = append(roots, r)
		}
	}
	return roots
}

func nonEmptyLines(text string) []string {
	var out []string
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// parsePairs reads "key<sep>value" lines; it returns a message naming the
// first line without sep.
func parsePairs(text, sep string) (map[string]string, string) {
	out := map[string]string{}
	for _, line := range nonEmptyLines(text) {
		k, v, ok := strings.Cut(line, sep)
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return out, "Each line must look like name" + sep + "value; this one does not: " + line
		}
		out[k] = strings.TrimSpace(v)
	}
	return out, ""
}
