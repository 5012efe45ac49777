package web

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// revisionWait bounds how long the Overview waits for the live session's
// interface revision, which the pool takes right after connect.
const revisionWait = 5 * time.Second

// driftView returns the Overview's interface drift for a server, after
// waiting (up to revisionWait) for the live session's revision, if any; nil
// when the dashboard keeps no revisions.
func (s *Server) driftView(ctx context.Context, serverID int64, live *backend.Session) (*views.DriftView, error) {
	if s.deps.Revisions == nil {
		return nil, nil
	}
	v := &views.DriftView{ServerID: serverID}
	if live != nil {
		wctx, cancel := context.WithTimeout(ctx, revisionWait)
		err := s.deps.Pool.AwaitRevision(wctx, live.ID)
		cancel()
		switch {
		case err == nil, backend.ErrorCodeOf(err) == backend.EConflict: // ended meanwhile
		case wctx.Err() != nil && ctx.Err() == nil:
			v.Error = "the server has not answered the listing yet; reload to see it."
		default:
			v.Error = backend.ErrorMessageOf(err)
		}
	}
	latest, ok, err := backend.LatestDrift(ctx, s.deps.Revisions, serverID)
	if err != nil {
		return nil, err
	}
	if ok {
		v.Latest = &latest
	}
	return v, nil
}

// showRevisions lists a server's interface revisions, newest first, each
// with what changed since the one before.
func (s *Server) showRevisions(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	srv, err := s.deps.Registry.Get(ctx, id)
	if err != nil {
		return err
	}
	var revs []backend.RevisionChanges
	if s.deps.Revisions != nil {
		if revs, err = backend.ServerRevisions(ctx, s.deps.Revisions, id); err != nil {
			return err
		}
	}
	return render(c, http.StatusOK, views.RevisionsPage(page(c, srv.Name+" · revisions"), srv.Redacted(), revs))
}
