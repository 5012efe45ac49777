package web

import (
	"bytes"
	"context"
	"errors"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// render writes a component with status, buffered so that a rendering
// failure becomes an error page rather than half a page.
func render(c echo.Context, status int, comp templ.Component) error {
	var buf bytes.Buffer
	if err := comp.Render(c.Request().Context(), &buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// page returns the common page data for a title.
func page(c echo.Context, title string) views.Page {
	token, _ := c.Get(csrfKey).(string)
	failure, _ := c.Get(recordingKey).(string)
	connected, _ := c.Get(connectedKey).([]backend.Session)
	return views.Page{Title: title, CSRF: token, RecordingFailure: failure, Connected: connected, TLSOffServer: tlsOffServerFor(c)}
}

// connectedKey holds, in the request context, the pool's open sessions
// for the top bar of pages.
const connectedKey = "connected-sessions"

// connectedSessions notes the open sessions for pages: GET requests
// outside the JSON API.
func (s *Server) connectedSessions(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Method == http.MethodGet && !isAPIPath(c) {
			c.Set(connectedKey, s.deps.Pool.LiveSessions())
		}
		return next(c)
	}
}

// recordingKey holds, in the request context, why recording fails ("" while
// it works), for the banner on every page.
const recordingKey = "recording-failure"

// recordingStatus notes, once per request, whether recording fails.
func (s *Server) recordingStatus(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.deps.Recording != nil {
			if err := s.deps.Recording.Failure(); err != nil {
				c.Set(recordingKey, err.Error())
			}
		}
		return next(c)
	}
}

// isHTMX reports whether htmx sent the request, so a fragment is wanted.
func isHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// statusOf maps an application error to an HTTP status.
func statusOf(err error) int {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return he.Code
	}
	switch backend.ErrorCodeOf(err) {
	case backend.EInvalid:
		return http.StatusUnprocessableEntity
	case backend.ENotFound:
		return http.StatusNotFound
	case backend.EConflict:
		return http.StatusConflict
	case backend.EUnauthenticated:
		return http.StatusUnauthorized
	case backend.EForbidden:
		return http.StatusForbidden
	case backend.ETooManyAttempts:
		return http.StatusTooManyRequests
	case backend.EUnavailable:
		return http.StatusBadGateway
	}
	return http.StatusInternalServerError
}

// messageOf is the text a user may see for err; internal details are only logged.
func messageOf(err error) string {
	if errors.Is(err, echo.ErrStatusRequestEntityTooLarge) {
		return bodyTooLargeMessage
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		if m, ok := he.Message.(string); ok {
			return m
		}
		return http.StatusText(he.Code)
	}
	return backend.ErrorMessageOf(err)
}

// handleError is the one place errors become responses: JSON for the API, a
// banner fragment for htmx, an error page otherwise.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	// The browser gave up on the request (a page left, a favicon no longer
	// wanted): nobody reads an answer, and nothing failed.
	if errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil {
		return
	}
	status := statusOf(err)
	if status >= 500 && backend.ErrorCodeOf(err) == backend.EInternal {
		s.deps.Log.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	}
	msg := messageOf(err)
	var werr error
	switch {
	case isAPIPath(c):
		werr = c.JSON(status, apiError{Error: msg, Fields: fieldsOf(err)})
	case isHTMX(c):
		// htmx ignores error statuses by default; answer 200 with the banner
		// retargeted to the page's error slot.
		c.Response().Header().Set("HX-Retarget", "#flash")
		c.Response().Header().Set("HX-Reswap", "innerHTML")
		werr = render(c, http.StatusOK, views.ErrorBanner(msg))
	default:
		werr = render(c, status, views.ErrorPage(page(c, http.StatusText(status)), status, msg))
	}
	if werr != nil {
		s.deps.Log.Error("writing error response", "err", werr)
	}
}

func fieldsOf(err error) map[string]string {
	var e *backend.Error
	if errors.As(err, &e) {
		return e.Fields
	}
	return nil
}

// idParam parses the :id path parameter (see pathID).
func idParam(c echo.Context) (int64, error) { return pathID(c, "id") }
