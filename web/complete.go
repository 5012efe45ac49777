package web

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// completeTimeout bounds how long suggestions may take: the user is typing.
const completeTimeout = 10 * time.Second

// completion is completeArgument's answer. Error, when set, says why there
// are no suggestions, fit to show under the field.
type completion struct {
	Values  []string `json:"values"`
	Total   int      `json:"total,omitempty"`
	HasMore bool     `json:"hasMore,omitempty"`
	Error   string   `json:"error,omitempty"`
}

// completeArgument asks the session's server for completions of one
// argument (completion/complete) and answers with JSON (completion). The
// form names what the argument belongs to (ref: "prompt" or "resource"),
// the prompt's name or the resource template's URI template (name), the
// argument (arg), what has been typed (value), and the other arguments
// already filled in (ctx.NAME). It is a POST, CSRF-checked like every
// htmx call, because it sends a request to the server. Failures, a server
// without the completions capability among them (to which nothing is
// sent), answer with their status and Error set.
func (s *Server) completeArgument(c echo.Context) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	var ref backend.CompletionRef
	name := c.FormValue("name")
	switch c.FormValue("ref") {
	case "prompt":
		ref = backend.CompletionRef{Type: "ref/prompt", Name: name}
	case "resource":
		ref = backend.CompletionRef{Type: "ref/resource", URI: name}
	default:
		return c.JSON(http.StatusBadRequest, completion{Values: []string{}, Error: `ref must be "prompt" or "resource".`})
	}
	if name == "" || c.FormValue("arg") == "" {
		return c.JSON(http.StatusBadRequest, completion{Values: []string{}, Error: "name and arg are required."})
	}
	var contextArgs map[string]string
	if form, err := c.FormParams(); err == nil {
		for k, v := range form {
			if arg, ok := strings.CutPrefix(k, "ctx."); ok && len(v) > 0 && v[0] != "" {
				if contextArgs == nil {
					contextArgs = map[string]string{}
				}
				contextArgs[arg] = v[0]
			}
		}
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), completeTimeout)
	defer cancel()
	res, err := s.deps.Pool.Complete(ctx, sessionID, ref, c.FormValue("arg"), c.FormValue("value"), contextArgs)
	if err != nil {
		return c.JSON(statusOf(err), completion{Values: []string{}, Error: backend.ErrorMessageOf(err)})
	}
	out := completion{Values: res.Values, Total: res.Total, HasMore: res.HasMore}
	if out.Values == nil {
		out.Values = []string{}
	}
	return c.JSON(http.StatusOK, out)
}
