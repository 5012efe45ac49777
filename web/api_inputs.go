package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// The API's server requests waiting for a person: /api/v1/sessions/:id/inputs.

type apiInput struct {
	ID       int64           `json:"id"`
	Method   string          `json:"method"`
	Params   json.RawMessage `json:"params,omitempty"`
	Received time.Time       `json:"received"`
}

// apiListInputs lists the session's server requests that wait for a person
// (elicitation, sampling).
func (s *Server) apiListInputs(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	pending := s.deps.Inbox.Pending(id)
	out := make([]apiInput, len(pending))
	for i, r := range pending {
		out[i] = apiInput{ID: r.ID, Method: r.Method, Params: r.Params, Received: r.Received}
	}
	return c.JSON(http.StatusOK, out)
}

type apiInputAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *apiRPCError    `json:"error"`
}

// apiAnswerInput answers a waiting server request with {result} or {error}.
func (s *Server) apiAnswerInput(c echo.Context) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	inputID, err := pathID(c, "input")
	if err != nil {
		return err
	}
	var in apiInputAnswer
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	if string(bytes.TrimSpace(in.Result)) == "null" {
		in.Result = nil
	}
	if (in.Result == nil) == (in.Error == nil) {
		return backend.Errorf(backend.EInvalid, "Give exactly one of result and error.")
	}
	if req, err := s.deps.Inbox.Get(inputID); err != nil || req.SessionID != sessionID {
		return backend.Errorf(backend.ENotFound, "The server is no longer waiting for this answer.")
	}
	if in.Error != nil {
		err = s.deps.Inbox.Refuse(inputID, &backend.JSONRPCError{Code: in.Error.Code, Message: in.Error.Message, Data: in.Error.Data}, answererName(c))
	} else {
		err = s.deps.Inbox.Answer(inputID, in.Result, answererName(c))
	}
	if err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
