package web

import (
	"errors"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/serverconfig"
	"github.com/mcp-playground/playground/views"
)

// Server lists in and out of the dashboard (backend/serverconfig):
// the import form, its preview, the import itself, and each server's
// entry for Claude Desktop / Cursor, VS Code and the MCP registry.

// serverImportPath is the import's route; the preview is under it.
const serverImportPath = "/servers/import"

func (s *Server) showServerImport(c echo.Context) error {
	return render(c, http.StatusOK, views.ServerImportPage(page(c, "Import servers"), views.ServerImportForm{}))
}

// previewServerImport reads the uploaded file, else the pasted text, and
// shows each entry it holds with the choice to import or skip it. A list
// that does not parse is shown at the form with the reason.
func (s *Server) previewServerImport(c echo.Context) error {
	config, err := serverListOf(c)
	form := views.ServerImportForm{Config: config}
	var pv views.ServerImportPreview
	if err == nil {
		pv, _, err = s.serverImportPreview(c, config)
	}
	if err != nil {
		if backend.ErrorCodeOf(err) == backend.EInternal {
			return err
		}
		form.Message = messageOf(err)
		return render(c, statusOf(err), views.ServerImportPage(page(c, "Import servers"), form))
	}
	return render(c, http.StatusOK, views.ServerImportPreviewPage(page(c, "Preview of the import"), pv))
}

// importServers registers the entries of the list (sent again with the
// preview's choices) chosen for import, each under the name typed, and
// shows what became of each. Entries are registered one by one: one
// refused (a name taken meanwhile, a stdio server for an editor, invalid
// settings) does not stop the others.
func (s *Server) importServers(c echo.Context) error {
	config := c.FormValue("config")
	pv, list, err := s.serverImportPreview(c, config)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	for i := range pv.Entries {
		e := &pv.Entries[i]
		key := strconv.Itoa(i)
		e.Name = strings.TrimSpace(c.FormValue("name." + key))
		if views.ImportAction(c.FormValue("action."+key)) != views.ImportAdd {
			e.Result = "skipped"
			continue
		}
		srv := list.Entries[i].Server
		srv.Name = e.Name
		if err := mayManageServer(c, srv.Transport); err != nil {
			e.Result = "refused: " + backend.ErrorMessageOf(err)
			continue
		}
		id, err := s.deps.Registry.Create(ctx, srv)
		switch {
		case err == nil:
			e.CreatedID, e.Result = id, "imported"
		case backend.ErrorCodeOf(err) == backend.EInternal:
			return err
		default:
			e.Result = "not imported: " + problemOf(err)
		}
	}
	pv.Done = true
	return render(c, http.StatusOK, views.ServerImportPreviewPage(page(c, "Import done"), pv))
}

// serverImportPreview parses config and describes each entry: its
// settings redacted, whether its name is taken (and a free one), whether
// it is valid and whether the person may register it. It returns the
// list as read too.
func (s *Server) serverImportPreview(c echo.Context, config string) (views.ServerImportPreview, serverconfig.List, error) {
	list, err := serverconfig.Parse([]byte(config))
	if err != nil {
		return views.ServerImportPreview{}, list, err
	}
	registered, err := s.deps.Registry.List(c.Request().Context())
	if err != nil {
		return views.ServerImportPreview{}, list, err
	}
	taken := map[string]bool{}
	for _, srv := range registered {
		taken[srv.Name] = true
	}
	pv := views.ServerImportPreview{Format: list.Format, Config: config}
	for i, imp := range list.Entries {
		e := views.ServerImportEntry{Index: i, Server: imp.Server.Redacted(), Notes: imp.Notes, Name: imp.Server.Name}
		if taken[e.Name] {
			e.Taken, e.Name = true, serverconfig.FreeName(e.Name, taken)
		}
		taken[e.Name] = true
		if err := imp.Server.Normalized().Validate(); err != nil {
			e.Problem = problemOf(err)
		}
		e.NeedsAdmin = mayManageServer(c, imp.Server.Transport) != nil
		pv.Entries = append(pv.Entries, e)
	}
	return pv, list, nil
}

// problemOf is err's message followed by its field errors, in one line.
func problemOf(err error) string {
	fields := fieldsOf(err)
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := []string{backend.ErrorMessageOf(err)}
	for _, k := range keys {
		parts = append(parts, k+": "+fields[k])
	}
	return strings.Join(parts, " ")
}

// serverListOf is the uploaded file's content when one was chosen, else
// the pasted text (of a multipart or a URL-encoded form).
func serverListOf(c echo.Context) (string, error) {
	fh, err := c.FormFile("file")
	if errors.Is(err, http.ErrMissingFile) || errors.Is(err, http.ErrNotMultipart) {
		return c.FormValue("config"), nil
	}
	if err != nil {
		return "", bodyError("uploaded file", err)
	}
	file, err := fh.Open()
	if err != nil {
		return "", bodyError("uploaded file", err)
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, serverconfig.MaxBytes+1))
	if err != nil {
		return "", bodyError("uploaded file", err)
	}
	if len(data) == 0 {
		return c.FormValue("config"), nil
	}
	return string(data), nil
}

// exportServer answers the server as the ?format= client's file
// (claude, vscode or registry) to download. No secret leaves
// (serverconfig.Export), so whoever may see the server may export it.
func (s *Server) exportServer(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	format, err := serverconfig.ParseFormat(c.QueryParam("format"))
	if err != nil {
		return err
	}
	srv, err := s.deps.Registry.Get(c.Request().Context(), id)
	if err != nil {
		return err
	}
	out, err := serverconfig.Export([]backend.Server{srv}, format)
	if err != nil {
		return err
	}
	name := safeFileBase(srv.Name, "server") + "." + string(format) + ".json"
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, out.JSON)
}

// serverExports is srv as each client's entry, for the Copy config card.
func serverExports(srv backend.Server) []views.ServerExport {
	var out []views.ServerExport
	for _, f := range serverconfig.Formats {
		x := views.ServerExport{Format: f}
		list, err := serverconfig.Export([]backend.Server{srv}, f)
		if err != nil {
			x.Problem = backend.ErrorMessageOf(err)
		} else {
			x.JSON, x.Notes = string(list.JSON), list.Notes
		}
		out = append(out, x)
	}
	return out
}
