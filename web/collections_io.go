package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/views"
)

// Collection files (backend/collections/file.go) in and out of the
// dashboard: the export control of a collection's page, the import form of
// /collections, and the same two in the JSON API.

// importBodyLimit bounds the body of an import: a collection file of
// MaxCollectionFileBytes and one byte more, to tell that it is too large,
// with room for the multipart envelope and the form's other fields.
const importBodyLimit = collections.MaxFileBytes + 1<<20

// importNoticeCookie carries, across the redirect after an import, what
// came in (importNotice) to the new collection's page, which shows it once.
const importNoticeCookie = "playground_imported"

// isImportRoute reports whether the request is for a route that takes a
// collection file.
func isImportRoute(c echo.Context) bool {
	return c.Path() == "/collections/import" || c.Path() == "/api/v1/collections/import"
}

// exportCollection answers the collection as a collection file to
// download, COLLECTION-NAME.collection.json. With ?server=ID the file
// keeps that server's latest interface revision as its baseline.
func (s *Server) exportCollection(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	serverID, err := queryInt[int64](c, "server", 0)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	var listing *backend.InterfaceListing
	if serverID != 0 {
		if listing, err = s.latestListing(ctx, serverID); err != nil {
			return err
		}
	}
	f, err := s.deps.Collections.Export(ctx, id, listing)
	if err != nil {
		return err
	}
	body, err := f.Encode()
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="`+collectionFileName(f.Name)+`"`)
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, body)
}

// latestListing is the interface the server offered in its latest
// revision; a server without one is an EInvalid *Error.
func (s *Server) latestListing(ctx context.Context, serverID int64) (*backend.InterfaceListing, error) {
	srv, err := s.deps.Registry.Get(ctx, serverID)
	if err != nil {
		return nil, err
	}
	var revs []backend.Revision
	if s.deps.Revisions != nil {
		if revs, err = s.deps.Revisions.Revisions(ctx, serverID, 0, 1); err != nil {
			return nil, err
		}
	}
	if len(revs) == 0 {
		return nil, backend.Errorf(backend.EInvalid, "The server %q has no interface revision yet: connect it once to take one.", srv.Name)
	}
	return &revs[0].Listing, nil
}

// collectionFileName is the name a collection's file downloads as: the
// collection's name made safe (safeFileBase) and ".collection.json".
func collectionFileName(name string) string {
	return safeFileBase(name, "collection") + ".collection.json"
}

// safeFileBase is name with every character but ASCII letters, digits,
// '.', '_' and '-' made a '-', so that it is safe in a header and on any
// disk; fallback when nothing is left.
func safeFileBase(name, fallback string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.TrimSpace(name) {
		ok := r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	if base := strings.Trim(b.String(), "-."); base != "" {
		return base
	}
	return fallback
}

// collectionIO is the collection page's export control and, once after
// an import, the notice of what came in (which it then forgets). The
// baseline offered first is the server of the collection's latest run
// when it has a revision.
func (s *Server) collectionIO(c echo.Context, collectionID int64) (views.CollectionIO, error) {
	ctx := c.Request().Context()
	out := views.CollectionIO{CollectionID: collectionID, Imported: takeImportNotice(c, collectionID)}
	if s.deps.Revisions == nil {
		return out, nil
	}
	servers, err := s.deps.Registry.List(ctx)
	if err != nil {
		return out, err
	}
	for _, srv := range servers {
		revs, err := s.deps.Revisions.Revisions(ctx, srv.ID, 0, 1)
		if err != nil {
			return out, err
		}
		if len(revs) > 0 {
			out.Servers = append(out.Servers, views.ExportServer{ID: srv.ID, Name: srv.Name})
		}
	}
	runs, err := s.deps.Collections.RunsPage(ctx, collectionID, 0, 1)
	if err != nil || len(runs.Items) == 0 {
		return out, err
	}
	last := runs.Items[0]
	var lastServer int64
	if last.SessionID != 0 {
		sess, err := s.deps.Sessions.GetSession(ctx, last.SessionID)
		if err != nil && backend.ErrorCodeOf(err) != backend.ENotFound {
			return out, err
		}
		lastServer = sess.ServerID
	}
	for _, srv := range out.Servers {
		if srv.ID == lastServer || lastServer == 0 && srv.Name == last.ServerName {
			out.Default = srv.ID
		}
	}
	return out, nil
}

// importCollection stores the uploaded collection file as a new
// collection, under the form's "import as" name when one is typed, and
// shows it with a notice of what came in. Any refusal shows the
// collections page with the reason at the import form, and stores nothing.
func (s *Server) importCollection(c echo.Context) error {
	fileName, data, err := uploadedFile(c, "file")
	form := views.ImportForm{Name: c.FormValue("name"), File: fileName}
	var f collections.File
	var col collections.Collection
	if err == nil {
		f, col, err = s.importFile(c.Request().Context(), data, form.Name)
	}
	if err != nil {
		if backend.ErrorCodeOf(err) == backend.EInternal {
			return err
		}
		form.Message = messageOf(err)
		return s.renderCollections(c, statusOf(err), views.CollectionForm{}, form)
	}
	c.SetCookie(&http.Cookie{
		Name: importNoticeCookie, Value: encodeImportNotice(importNoticeOf(f)), Path: "/collections/" + itoa(col.ID), MaxAge: 300,
		HttpOnly: true, SameSite: http.SameSiteStrictMode,
	})
	return c.Redirect(http.StatusSeeOther, "/collections/"+itoa(col.ID))
}

// uploadedFile returns the name and the content of the form's file field,
// of which it reads at most one byte more than a collection file may have
// (DecodeCollectionFile refuses more).
func uploadedFile(c echo.Context, field string) (string, []byte, error) {
	fh, err := c.FormFile(field)
	if errors.Is(err, http.ErrMissingFile) {
		return "", nil, backend.Errorf(backend.EInvalid, "Choose a collection file to import.")
	}
	if err != nil {
		return "", nil, bodyError("uploaded file", err)
	}
	file, err := fh.Open()
	if err != nil {
		return fh.Filename, nil, bodyError("uploaded file", err)
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, collections.MaxFileBytes+1))
	if err != nil {
		return fh.Filename, nil, bodyError("uploaded file", err)
	}
	return fh.Filename, data, nil
}

// importFile decodes a collection file and stores it as a new collection,
// named name when name is not blank.
func (s *Server) importFile(ctx context.Context, data []byte, name string) (collections.File, collections.Collection, error) {
	f, err := collections.DecodeFile(data)
	if err != nil {
		return f, collections.Collection{}, err
	}
	if strings.TrimSpace(name) != "" {
		f.Name = name
	}
	col, err := s.deps.Collections.Import(ctx, f)
	return f, col, err
}

// importNoticeOf counts what a collection file brings.
func importNoticeOf(f collections.File) views.ImportNotice {
	n := views.ImportNotice{Examples: len(f.Examples), Environments: len(f.Environments)}
	for _, e := range f.Environments {
		for _, v := range e.Values {
			if v.Secret {
				n.SecretEnvironments++
				break
			}
		}
	}
	return n
}

// takeImportNotice returns the notice the import of the collection left,
// if any, and forgets it.
func takeImportNotice(c echo.Context, collectionID int64) *views.ImportNotice {
	ck, err := c.Cookie(importNoticeCookie)
	if err != nil {
		return nil
	}
	c.SetCookie(&http.Cookie{Name: importNoticeCookie, Path: "/collections/" + itoa(collectionID), MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	var n views.ImportNotice
	if _, err := fmt.Sscanf(ck.Value, "%d.%d.%d", &n.Examples, &n.Environments, &n.SecretEnvironments); err != nil {
		return nil
	}
	return &n
}

// encodeImportNotice is the importNoticeCookie value of n.
func encodeImportNotice(n views.ImportNotice) string {
	return fmt.Sprintf("%d.%d.%d", n.Examples, n.Environments, n.SecretEnvironments)
}

// apiCollectionImported is what the API answers to an import.
type apiCollectionImported struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	Examples     int    `json:"examples"`
	Environments int    `json:"environments"`
}

// apiImportCollection stores the collection file in the request body as a
// new collection, named ?name= when given.
func (s *Server) apiImportCollection(c echo.Context) error {
	data, err := io.ReadAll(io.LimitReader(c.Request().Body, collections.MaxFileBytes+1))
	if err != nil {
		return bodyError("request body", err)
	}
	f, col, err := s.importFile(c.Request().Context(), data, c.QueryParam("name"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, apiCollectionImported{ID: col.ID, Name: col.Name, Examples: len(f.Examples), Environments: len(f.Environments)})
}
