package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// The API's requests: /api/v1/sessions/:id/requests.

type apiRequestInput struct {
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	TimeoutMS int64           `json:"timeoutMs"`
}

type apiRPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

type apiResponse struct {
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *apiRPCError    `json:"error,omitempty"`
	LatencyMS float64         `json:"latencyMs"`
}

const maxAPITimeout = 10 * time.Minute

// apiSendRequest sends {method, params} on a live session and answers with
// the result or the JSON-RPC error, and the latency. A request that gets no
// response (timeout, lost connection) is a 502/504 error.
func (s *Server) apiSendRequest(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	var in apiRequestInput
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	if strings.TrimSpace(in.Method) == "" {
		return &backend.Error{Code: backend.EInvalid, Message: "method is required.", Fields: map[string]string{"method": "required"}}
	}
	if in.TimeoutMS < 0 {
		return &backend.Error{Code: backend.EInvalid, Message: "timeoutMs must not be negative.",
			Fields: map[string]string{"timeoutMs": "must not be negative"}}
	}
	timeout := toolCallTimeout
	if in.TimeoutMS > 0 {
		// Clamped before it is multiplied: a Duration overflows past 292 years.
		timeout = time.Duration(min(in.TimeoutMS, maxAPITimeout.Milliseconds())) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), timeout)
	defer cancel()
	res, err := s.deps.Pool.Call(ctx, id, in.Method, in.Params)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return c.JSON(http.StatusGatewayTimeout, apiError{Error: backend.ErrorMessageOf(err)})
		}
		return err
	}
	out := apiResponse{Result: res.Result, LatencyMS: float64(res.Latency.Microseconds()) / 1000}
	if res.Error != nil {
		out.Error = &apiRPCError{Code: res.Error.Code, Message: res.Error.Message, Data: res.Error.Data}
	}
	return c.JSON(http.StatusOK, out)
}
