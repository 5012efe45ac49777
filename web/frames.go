package web

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// framePageSize is how many frames a traffic panel shows at once: with
// bodies cut to views.FrameBodyPreview, a page stays well under 1 MiB of
// HTML.
const framePageSize = 50

// framePage reads, for showing to people, the page of a session's frames
// that ends just before beforeID (0: the newest frames), with bodies cut
// to their preview and secret headers redacted.
func (s *Server) framePage(ctx context.Context, sessionID, beforeID int64) (views.FramePage, error) {
	frames, err := s.deps.Frames.ListFrames(ctx, backend.FrameQuery{
		SessionID: sessionID, BeforeID: beforeID, Newest: true, Limit: framePageSize + 1, BodyPreview: views.FrameBodyPreview,
	})
	if err != nil {
		return views.FramePage{}, err
	}
	page := views.FramePage{SessionID: sessionID, History: beforeID != 0}
	if len(frames) > framePageSize {
		frames, page.Older = frames[1:], true
	}
	page.Frames = redactFrames(frames)
	return page, nil
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
	ctx := c.Request().Context()
	if _, err := s.deps.Sessions.GetSession(ctx, id); err != nil {
		return err
	}
	page, err := s.framePage(ctx, id, before)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.OlderFrames(page))
}

// frameBody answers with a frame's whole body, in place of its preview.
func (s *Server) frameBody(c echo.Context) error {
	f, err := s.frameParam(c)
	if err != nil {
		return err
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
