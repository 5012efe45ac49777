package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

const (
	connectTimeout   = 30 * time.Second
	listToolsTimeout = 10 * time.Second
	recentSessions   = 20
	livePanelFrames  = 500
)

func (s *Server) showServer(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	srv, err := s.deps.Registry.Get(ctx, id)
	if err != nil {
		return err
	}
	d := views.ServerPageData{Server: srv, ConnectError: c.QueryParam("error")}
	if d.Sessions, err = s.deps.Sessions.ListSessions(ctx, id, recentSessions); err != nil {
		return err
	}
	if live, ok := s.deps.Pool.LiveSession(id); ok {
		d.Live = &live
		d.Inputs = s.inputViews(live.ID)
		if d.Frames, err = s.lastFrames(ctx, live.ID); err != nil {
			return err
		}
		lctx, cancel := context.WithTimeout(ctx, listToolsTimeout)
		tools, err := s.deps.Pool.Tools(lctx, live.ID, false)
		cancel()
		if err != nil {
			d.ToolsError = backend.ErrorMessageOf(err)
		}
		for _, t := range tools {
			d.Tools = append(d.Tools, toolView(t))
		}
	}
	return render(c, http.StatusOK, views.ServerPage(page(c, srv.Name), d))
}

// lastFrames returns up to livePanelFrames of the session's newest frames.
func (s *Server) lastFrames(ctx context.Context, sessionID int64) ([]backend.Frame, error) {
	frames, err := s.deps.Frames.ListFrames(ctx, sessionID, 0, 0)
	if err != nil {
		return nil, err
	}
	if len(frames) > livePanelFrames {
		frames = frames[len(frames)-livePanelFrames:]
	}
	return redactFrames(frames), nil
}

// connectServer opens a session and returns to the server page, carrying
// the failure reason when the connection failed.
func (s *Server) connectServer(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), connectTimeout)
	defer cancel()
	target := "/servers/" + itoa(id)
	if _, live := s.deps.Pool.LiveSession(id); live {
		return c.Redirect(http.StatusSeeOther, target)
	}
	if _, err := s.deps.Pool.Connect(ctx, id); err != nil {
		if backend.ErrorCodeOf(err) != backend.EUnavailable {
			return err
		}
		target += "?error=" + url.QueryEscape(backend.ErrorMessageOf(err))
	}
	return c.Redirect(http.StatusSeeOther, target)
}

func (s *Server) disconnectSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	sess, err := s.deps.Sessions.GetSession(c.Request().Context(), id)
	if err != nil {
		return err
	}
	if err := s.deps.Pool.Disconnect(c.Request().Context(), id); err != nil && backend.ErrorCodeOf(err) != backend.EConflict {
		return err
	}
	if sess.ServerID == 0 {
		return c.Redirect(http.StatusSeeOther, "/sessions/"+itoa(id))
	}
	return c.Redirect(http.StatusSeeOther, "/servers/"+itoa(sess.ServerID))
}

func toolView(t backend.Tool) views.ToolView {
	return views.ToolView{
		Name: t.Name, Title: t.Title, Description: t.Description,
		InputSchema: prettyJSON(t.InputSchema), Form: backend.ParseToolForm(t.InputSchema),
	}
}

func prettyJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	out, err := json.MarshalIndent(raw, "", "  ")
	if err != nil {
		return string(raw)
	}
	return string(out)
}
