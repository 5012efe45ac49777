package web

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/views"
)

// Page sizes of the collection listings.
const (
	CollectionsPageSize = 50 // collections on /collections
	ExamplesPageSize    = 50 // examples on a collection's page
	RunsPageSize        = 20 // runs on a collection's page
)

// listCollections shows a page of the collections, by name (?after= names
// the last one of the page before), and the form that makes one.
func (s *Server) listCollections(c echo.Context) error {
	return s.renderCollections(c, http.StatusOK, views.CollectionForm{}, views.ImportForm{})
}

func (s *Server) renderCollections(c echo.Context, status int, form views.CollectionForm, imp views.ImportForm) error {
	after := c.QueryParam("after")
	list, err := s.deps.Collections.ListPage(c.Request().Context(), after, CollectionsPageSize)
	if err != nil {
		return err
	}
	return render(c, status, views.CollectionsPage(page(c, "Collections"), list, after, form, imp))
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
// a refused form needs to show. The query or form values examples_after
// and runs_before pick the pages of examples and runs.
func (s *Server) renderCollection(c echo.Context, status int, id int64, adjust func(*views.CollectionPageData)) error {
	ctx := c.Request().Context()
	examplesAfter, err := formInt(c, "examples_after")
	if err != nil {
		return err
	}
	runsBefore, err := formID(c, "runs_before")
	if err != nil {
		return err
	}
	col, err := s.deps.Collections.Collection(ctx, id)
	if err != nil {
		return err
	}
	d := views.CollectionPageData{
		Collection: col, ExamplesAfter: int(examplesAfter), RunsBefore: runsBefore, Sessions: s.deps.Pool.LiveSessions(),
		Rename: views.CollectionForm{Name: col.Name, Description: col.Description},
	}
	if d.Examples, err = s.deps.Collections.ExamplesPage(ctx, id, d.ExamplesAfter, ExamplesPageSize); err != nil {
		return err
	}
	if d.Runs, err = s.deps.Collections.RunsPage(ctx, id, runsBefore, RunsPageSize); err != nil {
		return err
	}
	if d.IO, err = s.collectionIO(c, id); err != nil {
		return err
	}
	if d.Environments, err = s.deps.Collections.Environments(ctx, id); err != nil {
		return err
	}
	if d.DefaultSession, err = s.deps.Collections.DefaultSession(ctx, id, d.Sessions); err != nil {
		return err
	}
	adjust(&d)
	return render(c, status, views.CollectionPage(page(c, col.Name), d))
}

// backToCollection redirects to the collection's page of examples the
// form was posted from.
func backToCollection(c echo.Context, id int64) error {
	after, err := formInt(c, "examples_after")
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, views.CollectionPageURL(id, int(after), 0))
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

// updateExample saves an example's description, params, volatile paths,
// assertions and captures (see exampleEditOf); a refused edit shows the
// page with the example's form as typed.
func (s *Server) updateExample(c echo.Context) error {
	colID, exID, err := exampleParams(c)
	if err != nil {
		return err
	}
	form, edit, err := exampleEditOf(c)
	if err == nil {
		err = s.deps.Collections.UpdateExample(c.Request().Context(), colID, exID, edit)
	}
	if fields := fieldsOf(err); fields != nil {
		return s.renderCollection(c, http.StatusUnprocessableEntity, colID, func(d *views.CollectionPageData) {
			d.EditID, d.EditErrors, d.EditValues = exID, fields, form
		})
	}
	if err != nil {
		return err
	}
	return backToCollection(c, colID)
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
	return backToCollection(c, colID)
}

func (s *Server) deleteExample(c echo.Context) error {
	colID, exID, err := exampleParams(c)
	if err != nil {
		return err
	}
	if err := s.deps.Collections.DeleteExample(c.Request().Context(), colID, exID); err != nil {
		return err
	}
	return backToCollection(c, colID)
}

// runCollection starts a run of the collection (or of the one example the
// form names) on the chosen live session with the chosen environment, and
// shows the run's report, which follows it as it goes. A run that cannot
// start shows the collection's page with the reason.
func (s *Server) runCollection(c echo.Context) error {
	colID, err := idParam(c)
	if err != nil {
		return err
	}
	sessionID, err1 := formID(c, "session")
	exampleID, err2 := formID(c, "example")
	envID, err3 := formID(c, "environment")
	var run collections.Run
	if err = errors.Join(err1, err2, err3); err == nil {
		req := collections.RunRequest{CollectionID: colID, SessionID: sessionID, ExampleID: exampleID, EnvironmentID: envID}
		run, err = s.deps.Collections.Start(c.Request().Context(), req)
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

// formInt parses the form value name as a whole number that fits an int
// (0 when empty).
func formInt(c echo.Context, name string) (int64, error) {
	n, err := formID(c, name)
	if err == nil && n > math.MaxInt32 {
		return 0, backend.Errorf(backend.EInvalid, "The %s is not valid.", name)
	}
	return n, err
}

// showRun shows a run's report.
func (s *Server) showRun(c echo.Context) error {
	col, run, results, err := s.loadRun(c)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.RunPage(page(c, "Run "+itoa(run.ID)+" of "+col.Name), col, run, results, acceptedResult(c, results)))
}

// runReport is the report fragment of a run that the run's page polls
// while the run goes on.
func (s *Server) runReport(c echo.Context) error {
	col, run, results, err := s.loadRun(c)
	if backend.ErrorCodeOf(err) == backend.ENotFound {
		// htmx stops polling on this status and shows why.
		return render(c, stopPolling, views.ErrorBanner(messageOf(err)))
	}
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.RunReport(page(c, "").CSRF, col, run, results, 0))
}

// acceptedResult is the result the query's accepted names, nil when there
// is none.
func acceptedResult(c echo.Context, results []collections.RunResult) *collections.RunResult {
	id, err := strconv.ParseInt(c.QueryParam("accepted"), 10, 64)
	if err != nil {
		return nil
	}
	for i := range results {
		if results[i].ID == id {
			return &results[i]
		}
	}
	return nil
}

// acceptAnswer makes a failed result's answer its example's snapshot and
// comes back to the run's page, which says so.
func (s *Server) acceptAnswer(c echo.Context) error {
	colID, err := idParam(c)
	if err != nil {
		return err
	}
	runID, err := pathID(c, "run")
	if err != nil {
		return err
	}
	resultID, err := pathID(c, "result")
	if err != nil {
		return err
	}
	if _, err := s.deps.Collections.AcceptAnswer(c.Request().Context(), colID, runID, resultID); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/collections/"+itoa(colID)+"/runs/"+itoa(runID)+"?accepted="+itoa(resultID))
}

// stopPolling is the status that makes htmx stop polling an element.
const stopPolling = 286

// loadRun reads the run that the :id and :run path parameters name.
func (s *Server) loadRun(c echo.Context) (collections.Collection, collections.Run, []collections.RunResult, error) {
	colID, err := idParam(c)
	if err != nil {
		return collections.Collection{}, collections.Run{}, nil, err
	}
	runID, err := pathID(c, "run")
	if err != nil {
		return collections.Collection{}, collections.Run{}, nil, err
	}
	ctx := c.Request().Context()
	col, err := s.deps.Collections.Collection(ctx, colID)
	if err != nil {
		return collections.Collection{}, collections.Run{}, nil, err
	}
	run, results, err := s.deps.Collections.GetRun(ctx, colID, runID)
	return col, run, results, err
}

// saveExampleForm is the Save to collection form of the call whose stored
// response is ?frame=.
func (s *Server) saveExampleForm(c echo.Context) error {
	frameID, err := queryInt[int64](c, "frame", 0)
	if err != nil {
		return err
	}
	f := views.SaveExampleForm{FrameID: frameID}
	// A frame that cannot be saved gets no name: saving says why.
	f.Name, err = s.deps.Collections.SuggestedName(c.Request().Context(), frameID)
	if code := backend.ErrorCodeOf(err); err != nil && code != backend.EInvalid && code != backend.ENotFound {
		return err
	}
	return s.renderSaveForm(c, f)
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
		var col collections.Collection
		var ex collections.Example
		col, ex, err = s.deps.Collections.Save(c.Request().Context(), collections.SaveRequest{
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
