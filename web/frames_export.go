package web

import (
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// exportFrames sends the session's frames that match the traffic filter
// (see frameFilterOf) as NDJSON: one frame a line, whole, in the shape of
// GET /api/v1/sessions/{id}/frames with the session's id, server name
// and protocol version (exportLine), each line marked as an excerpt when
// a filter is set or the session is an excerpt itself
// (backend.Session.Excerpt), which POST /sessions/import and `playground
// lint` read back (ReadExport). It reads and writes a page at a time, so
// a session of any size streams in bounded memory. A failure after the
// first line ends the download early and is logged.
func (s *Server) exportFrames(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	filter, err := frameFilterOf(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	sess, err := s.deps.Sessions.GetSession(ctx, id)
	if err != nil {
		return err
	}
	q := backend.FrameQuery{SessionID: id, Limit: apiFramePage, MaxBodyBytes: apiFrameBytes, Filter: filter}
	frames, err := s.deps.Frames.ListFrames(ctx, q)
	if err != nil {
		return err
	}
	excerpt := sess.Excerpt || !filter.IsZero()
	startExport(c, "session-"+itoa(id)+".ndjson")
	enc := newExportEncoder(c.Response())
	for len(frames) > 0 {
		for _, f := range frames {
			if err := enc.Encode(exportLineOf(f, sess, excerpt)); err != nil {
				return nil // the client went away
			}
		}
		c.Response().Flush()
		q.AfterID = frames[len(frames)-1].ID
		if frames, err = s.deps.Frames.ListFrames(ctx, q); err != nil {
			s.deps.Log.Error("export cut short", "session", id, "err", err)
			return nil
		}
	}
	return nil
}
