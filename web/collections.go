package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// recentRuns is how many runs a collection's page lists.
const recentRuns = 20

// listCollections shows every collection and the form that makes one.
func (s *Server) listCollections(c echo.Context) error {
	return s.renderCollections(c, http.StatusOK, views.CollectionForm{}, views.ImportForm{})
}

func (s *Server) renderCollections(c echo.Context, status int, form views.CollectionForm, imp views.ImportForm) error {
	list, err := s.deps.Collections.List(c.Request().Context())
	if err != nil {
		return err
	}
	return render(c, status, views.CollectionsPage(page(c, "Collections"), list, form, imp))
}

// createCollection makes a collection and shows it; a refused name shows
// the form again with the reason.
func (s *Server) createCollection(c echo.Context) error {
	form := views.CollectionForm{Name: c.FormValue("name"), Description: c.FormValue("description")}
	col, err := s.deps.Collections.Create(c.Request().Context(), form.Name, form.Description)
	if fields := fieldsOf(err); fields != nil {
		form.Errors, form.Message = fields, backend.ErrorMessageOf(err)
		return s.renderCollections(c, http.StatusUnprocessableEntity, form, views.ImportForm{})
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/collections/"+itoa(col.ID))
}

// showCollection shows a collection's examples, run form and runs.
func (s *Server) showCollection(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	return s.renderCollection(c, http.StatusOK, id, func(*views.CollectionPageData) {})
}

// renderCollection renders the collection's page after adjust has set what
// a refused form needs to show.
func (s *Server) renderCollection(c echo.Context, status int, id int64, adjust func(*views.CollectionPageData)) error {
	ctx := c.Request().Context()
	col, examples, err := s.deps.Collections.Get(ctx, id)
	if err != nil {
		return err
	}
	runs, err := s.deps.Collections.Runs(ctx, id, recentRuns)
	if err != nil {
		return err
	}
	d := views.CollectionPageData{
		Collection: col, Examples: examples, Runs: runs, Sessions: s.deps.Pool.LiveSessions(),
		Rename: views.CollectionForm{Name: col.Name, Description: col.Description},
	}
	if d.IO, err = s.collectionIO(c, id, runs); err != nil {
		return err
	}
	adjust(&d)
	return render(c, status, views.CollectionPage(page(c, col.Name), d))
}

// renameCollection changes a collection's name and description.
func (s *Server) renameCollection(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	form := views.CollectionForm{Name: c.FormValue("name"), Description: c.FormValue("description")}
	err = s.deps.Collections.Rename(c.Request().Context(), id, form.Name, form.Description)
	if fields := fieldsOf(err); fields != nil {
		form.Errors, form.Message = fields, backend.ErrorMessageOf(err)
		return s.renderCollection(c, http.StatusUnprocessableEntity, id, func(d *views.CollectionPageData) { d.Rename = form })
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/collections/"+itoa(id))
}

func (s *Server) deleteCollection(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	if err := s.deps.Collections.Delete(c.Request().Context(), id); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/collections")
}

// exampleParams parses the :id and :ex path parameters.
func exampleParams(c echo.Context) (collectionID, exampleID int64, err error) {
	if collectionID, err = idParam(c); err != nil {
		return 0, 0, err
	}
	exampleID, err = pathID(c, "ex")
	return collectionID, exampleID, err
}

// updateExample saves an example's description, params and volatile
// paths; a refused edit shows the page with the example's form as typed.
func (s *Server) updateExample(c echo.Context) error {
	colID, exID, err := exampleParams(c)
	if err != nil {
		return err
	}
	edit := backend.ExampleEdit{Description: c.FormValue("description"), Params: c.FormValue("params"), Volatile: c.FormValue("volatile")}
	err = s.deps.Collections.UpdateExample(c.Request().Context(), colID, exID, edit)
	if fields := fieldsOf(err); fields != nil {
		return s.renderCollection(c, http.StatusUnprocessableEntity, colID, func(d *views.CollectionPageData) {
			d.EditID, d.EditErrors, d.EditValues = exID, fields, edit
		})
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/collections/"+itoa(colID))
}

func (s *Server) moveExample(c echo.Context) error {
	colID, exID, err := exampleParams(c)
	if err != nil {
		return err
	}
	dir := c.FormValue("dir")
	if dir != "up" && dir != "down" {
		return backend.Errorf(backend.EInvalid, "Move an example up or down.")
	}
	if err := s.deps.Collections.MoveExample(c.Request().Context(), colID, exID, dir == "up"); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/collections/"+itoa(colID))
}

func (s *Server) deleteExample(c echo.Context) error {
	colID, exID, err := exampleParams(c)
	if err != nil {
		return err
	}
	if err := s.deps.Collections.DeleteExample(c.Request().Context(), colID, exID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/collections/"+itoa(colID))
}

// runCollection runs the collection (or the one example the form names)
// on the chosen live session, then shows the run's report. A run that
// cannot start shows the collection's page with the reason.
func (s *Server) runCollection(c echo.Context) error {
	colID, err := idParam(c)
	if err != nil {
		return err
	}
	sessionID, err1 := formID(c, "session")
	exampleID, err2 := formID(c, "example")
	envID, err3 := formID(c, "environment")
	var run backend.Run
	if err = errors.Join(err1, err2, err3); err == nil {
		req := backend.RunRequest{CollectionID: colID, SessionID: sessionID, ExampleID: exampleID, EnvironmentID: envID}
		run, err = s.deps.Collections.Run(c.Request().Context(), req, nil)
	}
	if err != nil && run.ID == 0 && backend.ErrorCodeOf(err) != backend.EInternal {
		return s.renderCollection(c, http.StatusUnprocessableEntity, colID, func(d *views.CollectionPageData) { d.RunError = messageOf(err) })
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/collections/"+itoa(colID)+"/runs/"+itoa(run.ID))
}

// formID parses the form value name as an id (0 when empty).
func formID(c echo.Context, name string) (int64, error) {
	v := strings.TrimSpace(c.FormValue(name))
	if v == "" {
		return 0, nil
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id < 0 {
		return 0, backend.Errorf(backend.EInvalid, "The %s is not valid.", name)
	}
	return id, nil
}

// showRun shows a run's report.
func (s *Server) showRun(c echo.Context) error {
	colID, err := idParam(c)
	if err != nil {
		return err
	}
	runID, err := pathID(c, "run")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	col, err := s.deps.Collections.Collection(ctx, colID)
	if err != nil {
		return err
	}
	run, results, err := s.deps.Collections.GetRun(ctx, colID, runID)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.RunPage(page(c, "Run "+itoa(runID)+" of "+col.Name), col, run, results))
}

// saveExampleForm is the Save to collection form of the call whose stored
// response is ?frame=.
func (s *Server) saveExampleForm(c echo.Context) error {
	frameID, err := queryInt[int64](c, "frame", 0)
	if err != nil {
		return err
	}
	return s.renderSaveForm(c, views.SaveExampleForm{FrameID: frameID})
}

func (s *Server) renderSaveForm(c echo.Context, f views.SaveExampleForm) error {
	list, err := s.deps.Collections.List(c.Request().Context())
	if err != nil {
		return err
	}
	f.Collections = list
	return render(c, http.StatusOK, views.SaveExample(f))
}

// saveExample saves a recorded call into a collection. The request and
// the snapshot come from the stored frames, never from the form. Any
// refusal shows in the form.
func (s *Server) saveExample(c echo.Context) error {
	f := views.SaveExampleForm{NewCollection: c.FormValue("new_collection"), Name: c.FormValue("name"), Description: c.FormValue("description")}
	var err1, err2 error
	f.FrameID, err1 = formID(c, "frame")
	f.CollectionID, err2 = formID(c, "collection")
	err := errors.Join(err1, err2)
	if err == nil {
		var col backend.Collection
		var ex backend.Example
		col, ex, err = s.deps.Collections.Save(c.Request().Context(), backend.SaveRequest{
			ResponseFrameID: f.FrameID, CollectionID: f.CollectionID, NewCollection: f.NewCollection, Name: f.Name, Description: f.Description,
		})
		if err == nil {
			return render(c, http.StatusOK, views.SavedExample(col, ex))
		}
	}
	if backend.ErrorCodeOf(err) == backend.EInternal {
		return err
	}
	f.Errors, f.Message = fieldsOf(err), messageOf(err)
	return s.renderSaveForm(c, f)
}
