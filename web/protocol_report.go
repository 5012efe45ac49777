package web

import (
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// showProtocol is a server's Protocol section: the protocol linter's
// findings over all its sessions, by code. It needs no live session.
func (s *Server) showProtocol(c echo.Context) error {
	return s.explorerPage(c, views.SectionProtocol, func(srv backend.Server, live *backend.Session) (templ.Component, error) {
		rows, err := s.deps.Frames.LintReport(c.Request().Context(), srv.ID)
		if err != nil {
			return nil, err
		}
		if s.deps.Checks == nil {
			live = nil
		}
		return views.ProtocolReport(srv, live, rows), nil
	})
}

// checkSession runs the active checks on a live session and answers with
// their report card, or with why they did not run, where the button was.
func (s *Server) checkSession(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	if s.deps.Checks == nil {
		return &backend.Error{Code: backend.ENotFound, Message: "This dashboard does not run checks."}
	}
	rep, err := s.deps.Checks.CheckSession(c.Request().Context(), id)
	if err != nil {
		return render(c, http.StatusOK, views.CheckFailed(backend.ErrorMessageOf(err)))
	}
	return render(c, http.StatusOK, views.CheckReport(rep))
}

// apiLintCode is one code of a server's Protocol report in the JSON API.
type apiLintCode struct {
	Code      string    `json:"code"`
	Severity  string    `json:"severity"`
	Findings  int       `json:"findings"`
	Sessions  int       `json:"sessions"`
	FirstSeen time.Time `json:"firstSeen"`
	LastSeen  time.Time `json:"lastSeen"`
	Example   struct {
		FrameID   int64  `json:"frameId"`
		SessionID int64  `json:"sessionId"`
		Pointer   string `json:"pointer"`
		Message   string `json:"message"`
		Spec      string `json:"spec,omitempty"`
		Fix       string `json:"fix,omitempty"`
	} `json:"example"`
}

// apiProtocolReport answers with a server's Protocol report: its codes,
// the errors first.
func (s *Server) apiProtocolReport(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if _, err := s.deps.Registry.Get(ctx, id); err != nil {
		return err
	}
	rows, err := s.deps.Frames.LintReport(ctx, id)
	if err != nil {
		return err
	}
	out := make([]apiLintCode, len(rows))
	for i, r := range rows {
		o := &out[i]
		o.Code, o.Severity, o.Findings, o.Sessions, o.FirstSeen, o.LastSeen = r.Code, string(r.Severity), r.Findings, r.Sessions, r.FirstSeen, r.LastSeen
		o.Example.FrameID, o.Example.SessionID = r.ExampleFrameID, r.ExampleSessionID
		o.Example.Pointer, o.Example.Message, o.Example.Spec, o.Example.Fix = r.Example.Pointer, r.Example.Message, r.Example.Spec, r.Example.Fix
	}
	return c.JSON(http.StatusOK, out)
}
