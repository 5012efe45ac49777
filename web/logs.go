package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// logPageSize is how many log entries one page of the Logs panel holds.
const logPageSize = 100

// logFilterOf reads the Logs panel's filter from the query: level (a
// minimum level, "" for all) and q (text in the logger or data).
func logFilterOf(c echo.Context) (views.LogFilter, error) {
	f := views.LogFilter{MinLevel: c.QueryParam("level"), Text: strings.TrimSpace(c.QueryParam("q"))}
	if f.MinLevel != "" && backend.LogSeverity(f.MinLevel) < 0 {
		return f, &backend.Error{Code: backend.EInvalid, Message: "The level parameter must be one of " + strings.Join(backend.LogLevels, ", ") + ".",
			Fields: map[string]string{"level": "unknown level"}}
	}
	return f, nil
}

// LogsView returns what the Logs panel of session sessionID shows with
// filter f: the newest page of entries, and the level selector while the
// session is live. csrf is the viewer's token, which the panel's forms
// send.
func (s *Server) LogsView(ctx context.Context, sessionID int64, csrf string, f views.LogFilter) (views.LogsView, error) {
	sess, err := s.sessionOnce(ctx, sessionID)
	if err != nil {
		return views.LogsView{}, err
	}
	rows, err := s.logRows(ctx, sessionID, f, 0, 0, false)
	if err != nil {
		return views.LogsView{}, err
	}
	modern := sess.Era == backend.EraModern
	return views.LogsView{
		SessionID: sessionID, CSRF: csrf, Live: s.deps.Pool.IsLive(sessionID), Modern: modern, Filter: f, Rows: rows,
		Level: views.LogLevelView{SessionID: sessionID, Modern: modern, Level: s.deps.Pool.LogLevel(sessionID)},
	}, nil
}

// showLogs is a server's Logs section: the Logs panel of its live session.
func (s *Server) showLogs(c echo.Context) error {
	return s.explorerPage(c, views.SectionLogs, func(srv backend.Server, live *backend.Session) (templ.Component, error) {
		if live == nil {
			return views.NotConnected(page(c, ""), srv.ID, "logs"), nil
		}
		v, err := s.LogsView(c.Request().Context(), live.ID, page(c, "").CSRF, views.LogFilter{})
		if err != nil {
			return nil, err
		}
		return views.LogsPanel(v), nil
	})
}

// logRows reads a page of entries: the newest before before (0: the
// newest of all), or, when forward, those that came after after.
func (s *Server) logRows(ctx context.Context, sessionID int64, f views.LogFilter, before, after int64, forward bool) (views.LogRowsView, error) {
	entries, more, err := backend.ListLogs(ctx, s.deps.Frames, backend.LogQuery{
		SessionID: sessionID, MinLevel: f.MinLevel, Text: f.Text, BeforeID: before, AfterID: after, Forward: forward, Limit: logPageSize,
	})
	if err != nil {
		return views.LogRowsView{}, err
	}
	// Rows appended live never offer older ones: those are above them.
	return views.LogRowsView{SessionID: sessionID, Filter: f, Entries: entries, More: more && !forward}, nil
}

// sessionLogs answers GET /sessions/:id/logs: the whole Logs panel, or
// with rows=1 only the rows (before=ID: the page before that entry, which
// replaces the "Older entries" row; after=ID: the entries since, which the
// live view appends, after=0 for all of them from the first).
func (s *Server) sessionLogs(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	f, err := logFilterOf(c)
	if err != nil {
		return err
	}
	before, err := queryInt[int64](c, "before", 0)
	if err != nil {
		return err
	}
	after, err := queryInt[int64](c, "after", 0)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if c.QueryParam("rows") == "" {
		csrf, _ := c.Get(csrfKey).(string)
		v, err := s.LogsView(ctx, id, csrf, f)
		if err != nil {
			return err
		}
		return render(c, http.StatusOK, views.LogsPanel(v))
	}
	if _, err := s.deps.Sessions.GetSession(ctx, id); err != nil {
		return err
	}
	rows, err := s.logRows(ctx, id, f, before, after, c.QueryParam("after") != "")
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.LogRows(rows))
}

// setLogLevel answers POST /sessions/:id/logging/level: it asks the
// session's server for log messages at the posted level and above, and
// shows the outcome on the level selector.
func (s *Server) setLogLevel(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	sess, err := s.deps.Sessions.GetSession(c.Request().Context(), id)
	if err != nil {
		return err
	}
	level := c.FormValue("level")
	v := views.LogLevelView{SessionID: id, Modern: sess.Era == backend.EraModern, Level: level, Sent: true}
	ctx, cancel := context.WithTimeout(c.Request().Context(), pingTimeout)
	defer cancel()
	if err := s.deps.Pool.SetLogLevel(ctx, id, level); err != nil {
		v.Error, v.Level = backend.ErrorMessageOf(err), s.deps.Pool.LogLevel(id)
	}
	return render(c, http.StatusOK, views.LogLevelControl(v))
}
