package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// framePageSize is how many frames a traffic panel shows at once: with
// bodies cut to views.FrameBodyPreview, a page stays well under 1 MiB of
// HTML.
const framePageSize = 50

// framePage reads, for showing to people, the page of a session's frames
// matching filter that ends just before beforeID (0: the newest frames),
// with bodies cut to their preview and secret headers redacted.
func (s *Server) framePage(ctx context.Context, sessionID, beforeID int64, filter backend.FrameFilter) (views.FramePage, error) {
	frames, older, err := backend.FramePage(ctx, s.deps.Frames, backend.PageQuery{
		SessionID: sessionID, BeforeID: beforeID, Limit: framePageSize, BodyPreview: views.FrameBodyPreview, Filter: filter,
	})
	if err != nil {
		return views.FramePage{}, err
	}
	return views.FramePage{SessionID: sessionID, History: beforeID != 0, Filter: filter, Older: older, Frames: frames,
		Live: s.deps.Pool.IsLive(sessionID)}, nil
}

// olderFrames answers a traffic panel's older-frames control with the page
// of frames before ?before=.
func (s *Server) olderFrames(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	before, err := queryInt[int64](c, "before", 0)
	if err != nil {
		return err
	}
	if before == 0 {
		return backend.Errorf(backend.EInvalid, "Say which frame the older ones come before (?before=ID).")
	}
	filter, err := s.sessionFilter(c, id)
	if err != nil {
		return err
	}
	page, err := s.framePage(c.Request().Context(), id, before, filter)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.OlderFrames(page))
}

// traffic answers a traffic panel's filter with the panel anew: the newest
// frames that match, streaming while the session is live.
func (s *Server) traffic(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	filter, err := s.sessionFilter(c, id)
	if err != nil {
		return err
	}
	page, err := s.framePage(c.Request().Context(), id, 0, filter)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.FrameList(page, s.deps.Pool.IsLive(id)))
}

// sessionFilter reads the traffic filter of a request about session id,
// and checks that the session exists (ENotFound otherwise).
func (s *Server) sessionFilter(c echo.Context, id int64) (backend.FrameFilter, error) {
	filter, err := frameFilterOf(c)
	if err != nil {
		return filter, err
	}
	_, err = s.deps.Sessions.GetSession(c.Request().Context(), id)
	return filter, err
}

// maxFilterText bounds a traffic search.
const maxFilterText = 200

// frameFilterOf reads a traffic filter from the query (the parameters
// views.filterQuery writes): errors=1, quiet=1, findings=1,
// dir=out|in|stderr, q=TEXT.
func frameFilterOf(c echo.Context) (backend.FrameFilter, error) {
	f := backend.FrameFilter{Errors: c.QueryParam("errors") == "1", NoNotifications: c.QueryParam("quiet") == "1",
		Findings: c.QueryParam("findings") == "1", Text: c.QueryParam("q")}
	switch dir := backend.Direction(c.QueryParam("dir")); dir {
	case "", backend.Outbound, backend.Inbound, backend.Stderr:
		f.Direction = dir
	default:
		return f, &backend.Error{Code: backend.EInvalid, Message: "The dir parameter is out, in or stderr.", Fields: map[string]string{"dir": "out, in or stderr"}}
	}
	if n := utf8.RuneCountInString(f.Text); n > maxFilterText || !utf8.ValidString(f.Text) {
		return f, &backend.Error{Code: backend.EInvalid, Message: fmt.Sprintf("A traffic search is at most %d characters of text.", maxFilterText), Fields: map[string]string{"q": "too long"}}
	}
	return f, nil
}

// frameBody answers with a frame's whole body, in place of its preview.
func (s *Server) frameBody(c echo.Context) error {
	f, err := s.frameParam(c)
	if err != nil {
		return err
	}
	if !isHTMX(c) {
		var secrets backend.HTTPSecrets
		if f.HTTP != nil {
			if secrets, err = s.deps.Frames.FrameHTTPSecrets(c.Request().Context(), f.ID); err != nil {
				return err
			}
		}
		return render(c, http.StatusOK, views.FrameBodyPage(page(c, "Frame "+itoa(f.ID)), f, secrets))
	}
	return render(c, http.StatusOK, views.FrameBody(f))
}

// frameRaw sends a frame's body, byte for byte, as a download.
func (s *Server) frameRaw(c echo.Context) error {
	f, err := s.frameParam(c)
	if err != nil {
		return err
	}
	name := "frame-" + itoa(f.ID) + ".txt"
	if json.Valid(f.Body) {
		name = "frame-" + itoa(f.ID) + ".json"
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	return c.Blob(http.StatusOK, echo.MIMEOctetStream, f.Body)
}

// frameParam reads the frame that the :id path parameter names.
func (s *Server) frameParam(c echo.Context) (backend.Frame, error) {
	id, err := idParam(c)
	if err != nil {
		return backend.Frame{}, err
	}
	return s.deps.Frames.GetFrame(c.Request().Context(), id)
}
