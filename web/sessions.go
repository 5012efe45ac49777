package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// sessionPageSize is how many sessions the sessions list shows at once.
const sessionPageSize = 100

// listSessions lists the sessions of every server, newest first, a page at
// a time: ?before= names the id that the page starts below.
func (s *Server) listSessions(c echo.Context) error {
	before, err := queryInt[int64](c, "before", 0)
	if err != nil {
		return err
	}
	sessions, err := s.deps.Sessions.ListSessions(c.Request().Context(), 0, before, sessionPageSize+1)
	if err != nil {
		return err
	}
	var older int64
	if len(sessions) > sessionPageSize {
		sessions = sessions[:sessionPageSize]
		older = sessions[sessionPageSize-1].ID
	}
	findings, err := s.deps.Frames.CountFindings(c.Request().Context(), sessionIDs(sessions)...)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.SessionsPage(page(c, "Sessions"), sessions, findings, older, before != 0))
}

// sessionIDs is the ids of sessions.
func sessionIDs(sessions []backend.Session) []int64 {
	ids := make([]int64, len(sessions))
	for i, s := range sessions {
		ids[i] = s.ID
	}
	return ids
}

// showSession shows a session and a page of its frames, from the database:
// the newest, or those before ?before=. On the newest page a live session
// keeps streaming.
func (s *Server) showSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	before, err := queryInt[int64](c, "before", 0)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	d := views.SessionPageData{Live: s.deps.Pool.IsLive(id)}
	if d.Session, err = s.sessionOnce(ctx, id); err != nil {
		return err
	}
	filter, err := frameFilterOf(c)
	if err != nil {
		return err
	}
	if d.Frames, err = s.framePage(ctx, id, before, filter); err != nil {
		return err
	}
	if d.FrameCount, err = s.deps.Frames.CountFrames(ctx, id); err != nil {
		return err
	}
	counts, err := s.deps.Frames.CountFindings(ctx, id)
	if err != nil {
		return err
	}
	d.Findings = counts[id]
	if d.Live {
		d.Inputs = s.inputViews(id)
	}
	csrf, _ := c.Get(csrfKey).(string)
	if d.Logs, err = s.LogsView(ctx, id, csrf, views.LogFilter{}); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.SessionPage(page(c, "Session "+itoa(id)), d))
}
