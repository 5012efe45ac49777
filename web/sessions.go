package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/views"
)

const sessionListLimit = 200

func (s *Server) listSessions(c echo.Context) error {
	sessions, err := s.deps.Sessions.ListSessions(c.Request().Context(), 0, sessionListLimit)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.SessionsPage(page(c, "Sessions"), sessions))
}

// showSession shows a session and every frame it recorded, from the
// database; a live session's page keeps streaming.
func (s *Server) showSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	sess, err := s.deps.Sessions.GetSession(ctx, id)
	if err != nil {
		return err
	}
	frames, err := s.deps.Frames.ListFrames(ctx, id, 0, 0)
	if err != nil {
		return err
	}
	live := s.deps.Pool.IsLive(id)
	return render(c, http.StatusOK, views.SessionPage(page(c, "Session "+itoa(id)), sess, redactFrames(frames), live, s.inputViews(id)))
}
