package web

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// sentRequest reads the request that the :id (session) and :exchange (its
// frame) path parameters name: one the playground sent on that session.
func (s *Server) sentRequest(c echo.Context) (backend.Frame, error) {
	sessionID, err := idParam(c)
	if err != nil {
		return backend.Frame{}, err
	}
	requestID, err := pathID(c, "exchange")
	if err != nil {
		return backend.Frame{}, err
	}
	f, err := s.deps.Frames.GetFrame(c.Request().Context(), requestID)
	if err != nil {
		return f, err
	}
	if f.SessionID != sessionID || f.Direction != backend.Outbound || f.RPCType != backend.RPCRequest {
		return f, backend.Errorf(backend.ENotFound, "The session sent no such request.")
	}
	return f, nil
}

// editRequest answers a traffic entry's Edit and replay with the editor of
// its request, the whole request in it.
func (s *Server) editRequest(c echo.Context) error {
	f, err := s.sentRequest(c)
	if err != nil {
		return err
	}
	if len(f.Body) > backend.MaxEditedRequest {
		return render(c, http.StatusOK, views.ReplayFailed("The request is too long to edit here; the console sends requests of any size."))
	}
	return render(c, http.StatusOK, views.EditRequestForm(f.SessionID, f.ID, indentJSON(f.Body), ""))
}

// sendEditedRequest sends the edited request on the session, with a new
// id, recorded like any call, and answers with the editor and the answer;
// a text that is not a JSON-RPC request is sent nowhere and shown again
// with what is wrong.
func (s *Server) sendEditedRequest(c echo.Context) error {
	f, err := s.sentRequest(c)
	if err != nil {
		return err
	}
	text := c.FormValue("request")
	method, params, err := backend.ParseEditedRequest(text)
	if err != nil {
		if backend.ErrorCodeOf(err) != backend.EInvalid {
			return err
		}
		return render(c, http.StatusOK, views.EditRequestForm(f.SessionID, f.ID, text, backend.ErrorMessageOf(err)))
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), toolCallTimeout)
	defer cancel()
	res, err := s.deps.Pool.CallWith(ctx, f.SessionID, method, params, backend.CallOptions{ResponseFrame: true})
	return render(c, http.StatusOK, views.EditedRequestSent(f.SessionID, f.ID, text, *requestOutcome(res, err)))
}
