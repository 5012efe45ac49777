package web

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// bridgeMethods are the requests an MCP App may send to its server through
// the dashboard; the dashboard's page (static/apps.js) answers the ui/*
// requests itself.
var bridgeMethods = map[string]bool{"tools/call": true, "resources/read": true}

// bridgeRequest is what static/apps.js posts for an app: the token of the
// app's page, and the JSON-RPC method and params the app sent.
type bridgeRequest struct {
	App    string          `json:"app"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// bridgeAnswer is the JSON-RPC result or error to hand back to the app.
type bridgeAnswer struct {
	Result json.RawMessage       `json:"result,omitempty"`
	Error  *backend.JSONRPCError `json:"error,omitempty"`
}

// JSON-RPC error codes of bridge refusals, as the app sees them.
const (
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternal       = -32603
)

// appsBridge forwards an MCP App's request to the server of the session
// that rendered the app, through the pool, so that it is recorded and
// shown in the traffic like every call. The request must come from the
// dashboard's page (CSRF token, same origin), name an app page of this
// session, and use a method of bridgeMethods; a tools/call must name a
// tool that the server lets apps call. A refusal is an HTTP error status
// with a JSON-RPC error in the body; a forwarded request answers 200 with
// the server's result or JSON-RPC error.
func (s *Server) appsBridge(c echo.Context) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	var req bridgeRequest
	if err := json.NewDecoder(c.Request().Body).Decode(&req); err != nil {
		return refuseBridge(c, http.StatusBadRequest, codeInvalidParams, "The bridge request is not valid JSON.")
	}
	page, ok := s.apps.get(req.App)
	if !ok || page.sessionID != sessionID {
		return refuseBridge(c, http.StatusNotFound, codeInvalidParams, "This app is not open on this session; call its tool again.")
	}
	if !bridgeMethods[req.Method] {
		return refuseBridge(c, http.StatusForbidden, codeMethodNotFound, "An app may not send "+req.Method+" to the server.")
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), toolCallTimeout)
	defer cancel()
	if req.Method == "tools/call" {
		var p struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil || p.Name == "" {
			return refuseBridge(c, http.StatusBadRequest, codeInvalidParams, "tools/call needs the name of a tool.")
		}
		tool, err := s.deps.Pool.Tool(ctx, sessionID, p.Name)
		if err != nil {
			return refuseBridge(c, http.StatusNotFound, codeInvalidParams, backend.ErrorMessageOf(err))
		}
		if !backend.CallableByApp(tool) {
			return refuseBridge(c, http.StatusForbidden, codeInvalidParams, "The server does not let apps call the tool "+p.Name+".")
		}
	}
	res, err := s.deps.Pool.Call(ctx, sessionID, req.Method, req.Params)
	if err != nil {
		return c.JSON(http.StatusOK, bridgeAnswer{Error: &backend.JSONRPCError{Code: codeInternal, Message: backend.ErrorMessageOf(err)}})
	}
	return c.JSON(http.StatusOK, bridgeAnswer{Result: res.Result, Error: res.Error})
}

func refuseBridge(c echo.Context, status, code int, msg string) error {
	return c.JSON(status, bridgeAnswer{Error: &backend.JSONRPCError{Code: code, Message: msg}})
}
