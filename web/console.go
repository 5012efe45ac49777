package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// maxRawFrame bounds a raw frame sent from the console or the API.
const maxRawFrame = 4 << 20

// consoleSend answers the console form: a request of any method, whose
// outcome is shown, a notification of any method, or raw bytes sent as one
// frame.
func (s *Server) consoleSend(c echo.Context) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	v := views.ConsoleView{Mode: c.FormValue("mode"), Method: strings.TrimSpace(c.FormValue("method")),
		Params: c.FormValue("params"), Raw: c.FormValue("raw"), Errors: map[string]string{}}
	if v.Methods, err = s.consoleMethods(c.Request().Context(), sessionID); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), toolCallTimeout)
	defer cancel()
	if v.Mode == "raw" {
		switch {
		case v.Raw == "":
			v.Errors["raw"] = "Type the bytes to send."
		case len(v.Raw) > maxRawFrame:
			v.Errors["raw"] = fmt.Sprintf("A raw frame may hold at most %d bytes.", maxRawFrame)
		default:
			if err := s.deps.Pool.SendRaw(ctx, sessionID, []byte(v.Raw)); err != nil {
				v.Outcome = &views.ToolOutcome{Kind: views.OutcomeFailure, Message: backend.ErrorMessageOf(err)}
			} else {
				v.Sent = fmt.Sprintf("Sent %d bytes. Whatever the server answers appears in the traffic.", len(v.Raw))
			}
		}
		return render(c, http.StatusOK, views.ConsoleCard(sessionID, v))
	}
	if v.Method == "" {
		v.Errors["method"] = "Name the method to call."
	}
	var params json.RawMessage
	if p := strings.TrimSpace(v.Params); p != "" {
		if !json.Valid([]byte(p)) {
			v.Errors["params"] = "Params must be JSON (use the raw frame to send anything else)."
		}
		params = json.RawMessage(p)
	}
	switch {
	case len(v.Errors) > 0:
	case v.Mode == "notification":
		if err := s.deps.Pool.Notify(ctx, sessionID, v.Method, params); err != nil {
			v.Outcome = &views.ToolOutcome{Kind: views.OutcomeFailure, Message: backend.ErrorMessageOf(err)}
		} else {
			v.Sent = "Sent the notification " + v.Method + ". A notification has no answer; whatever the server does next appears in the traffic."
		}
	default:
		res, err := s.deps.Pool.CallWith(ctx, sessionID, v.Method, params, backend.CallOptions{ResponseFrame: true})
		v.Outcome = requestOutcome(res, err)
	}
	return render(c, http.StatusOK, views.ConsoleCard(sessionID, v))
}

// consoleMethods are the requests the console offers on a session: those
// of the era it speaks.
func (s *Server) consoleMethods(ctx context.Context, sessionID int64) ([]backend.MethodTemplate, error) {
	sess, err := s.deps.Sessions.GetSession(ctx, sessionID)
	if err != nil {
		return nil, err
	}
	return backend.ConsoleMethods(sess.Era), nil
}

// requestOutcome shows the answer to a request of any method.
func requestOutcome(res backend.CallResult, err error) *views.ToolOutcome {
	o := &views.ToolOutcome{Latency: res.Latency, FrameID: res.ResponseFrameID}
	switch {
	case err != nil:
		o.Kind, o.Message = views.OutcomeFailure, backend.ErrorMessageOf(err)
	case res.Error != nil:
		o.Kind, o.Code, o.Message, o.Data = views.OutcomeRPCError, res.Error.Code, res.Error.Message, prettyJSON(res.Error.Data)
	default:
		o.Kind, o.Result = views.OutcomeResult, prettyJSON(res.Result)
	}
	return o
}

// apiSendRaw sends the request body, byte for byte, as one frame.
func (s *Server) apiSendRaw(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxRawFrame+1))
	switch {
	case err != nil:
		return bodyError("frame", err)
	case len(body) == 0:
		return backend.Errorf(backend.EInvalid, "A raw frame holds 1 to %d bytes.", maxRawFrame)
	case len(body) > maxRawFrame:
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("A raw frame holds at most %d bytes.", maxRawFrame))
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), toolCallTimeout)
	defer cancel()
	if err := s.deps.Pool.SendRaw(ctx, id, body); err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, map[string]int{"bytes": len(body)})
}
