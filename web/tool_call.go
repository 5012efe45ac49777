package web

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// toolCallTimeout bounds a call when its form names no timeout;
// maxToolCallTimeout bounds the timeout a form may name.
const (
	toolCallTimeout    = 60 * time.Second
	maxToolCallTimeout = time.Hour
)

// callTool validates a tool form and, when it is valid, sends tools/call on
// the session. It answers with the tool's card: the form with its field
// errors, or the outcome of the call. Nothing is sent for an invalid form.
// The call runs under the id the form carries (_call), so that cancelCall
// can end it and its progress reaches the page, and under the form's
// timeout (_timeout, in seconds) or toolCallTimeout. The card it answers
// with carries a fresh id.
func (s *Server) callTool(c echo.Context) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	card, err := queryInt(c, "card", 0)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	tool, err := s.deps.Pool.Tool(ctx, sessionID, c.FormValue("_tool"))
	if err != nil {
		return err
	}
	view := toolView(tool)
	view.Values = formValues(c)
	view.Timeout = c.FormValue(views.TimeoutField)
	callID := c.FormValue("_call")
	args, fieldErrs := backend.ArgumentsFromForm(view.Form, view.Values)
	if fieldErrs == nil {
		fieldErrs = backend.ValidateArguments(view.Form, tool.InputSchema, args)
	}
	timeout, msg := parseTimeout(view.Timeout)
	if msg != "" {
		if fieldErrs == nil {
			fieldErrs = map[string]string{}
		}
		fieldErrs[views.TimeoutField] = msg
	}
	if callID == "" {
		callID = newCallID() // a form from elsewhere: the call cannot be cancelled
	} else if !validCallID(callID) {
		return backend.Errorf(backend.EInvalid, "The form's call id is not valid; reload the page.")
	}
	if len(fieldErrs) > 0 {
		view.Errors = fieldErrs
		return render(c, http.StatusOK, views.ToolCard(sessionID, card, view, page(c, "").CSRF))
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	params, err := json.Marshal(map[string]any{"name": tool.Name, "arguments": args})
	if err != nil {
		return err
	}
	res, err := s.deps.Pool.CallWith(cctx, sessionID, "tools/call", params, backend.CallOptions{ID: callID, Progress: true, ResponseFrame: true})
	view.Outcome = outcomeOf(res, err, tool, sessionID)
	view.Outcome.RememberError = s.rememberCall(ctx, sessionID, backend.ItemTool, tool.Name, args, res, err)
	return render(c, http.StatusOK, views.ToolCard(sessionID, card, view, page(c, "").CSRF))
}

// cancelCall cancels a running call of the session, named by the id its
// form carried. It answers 204 whether the call was running or had already
// finished; the call's own request then answers with its card.
func (s *Server) cancelCall(c echo.Context) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	callID := c.Param("call")
	if !validCallID(callID) {
		return backend.Errorf(backend.ENotFound, "No such call.")
	}
	if _, err := s.deps.Pool.CancelCall(sessionID, callID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// newCallID returns a fresh id for the next call of a tool card.
func newCallID() string { return rand.Text() }

// validCallID reports whether id looks like one newCallID made.
func validCallID(id string) bool { return isRandText(id) }

// parseTimeout reads a tool form's timeout in whole seconds; blank means
// toolCallTimeout. msg is the field error of a value that is not allowed.
func parseTimeout(v string) (d time.Duration, msg string) {
	v = strings.TrimSpace(v)
	if v == "" {
		return toolCallTimeout, ""
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || time.Duration(n)*time.Second > maxToolCallTimeout {
		return 0, fmt.Sprintf("A whole number of seconds from 1 to %d.", int(maxToolCallTimeout/time.Second))
	}
	return time.Duration(n) * time.Second, ""
}

// formValues collects a schema form's inputs, keyed by argument name (a
// multi-choice field's checkboxes as one JSON array), and the raw JSON box
// under backend.RawField.
func formValues(c echo.Context) map[string]string {
	values := map[string]string{}
	form, err := c.FormParams()
	if err != nil {
		return values
	}
	for k, v := range form {
		name, ok := strings.CutPrefix(k, "arg.")
		switch {
		case !ok || len(v) == 0:
		case strings.HasSuffix(name, "[]"):
			// The checkboxes of a multi-choice field: each value is a
			// member's JSON text; together they are its form text.
			values[strings.TrimSuffix(name, "[]")] = "[" + strings.Join(v, ",") + "]"
		default:
			values[name] = v[0]
		}
	}
	values[backend.RawField] = form.Get("_raw")
	return values
}
