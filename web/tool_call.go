package web

import (
	"context"
	"crypto/rand"
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
// timeout (_timeout, in seconds) or toolCallTimeout. A tool that runs as a
// task (backend.Pool.RunsAsTask: taskSupport required, or optional and the
// form's TaskField ticked) is followed to its end, and the card names the
// task. A destructive tool (toolHints.destructive) is called only when the
// form carries views.ConfirmField=yes; without it nothing is sent and the
// card opens its confirmation step with views.ConfirmMessage. The card it
// answers with carries a fresh id.
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
		// Without the tool's schema there is no form to show again; the
		// card says why nothing was sent.
		view := views.ToolView{Name: c.FormValue("_tool"), CallID: newCallID(),
			Outcome: &views.ToolOutcome{Kind: views.OutcomeFailure, Message: backend.ErrorMessageOf(err)}}
		return render(c, http.StatusOK, views.ToolCard(sessionID, card, view, page(c, "").CSRF))
	}
	view := toolView(tool)
	view.CallID = newCallID()
	view.Values = formValues(c)
	view.Timeout = c.FormValue(views.TimeoutField)
	callID := c.FormValue("_call")
	args, fieldErrs := formArguments(view.Form, view.Values)
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
	if view.Destructive && c.FormValue(views.ConfirmField) != "yes" {
		if fieldErrs == nil {
			fieldErrs = map[string]string{}
		}
		fieldErrs[views.ConfirmField] = views.ConfirmMessage
	}
	if len(fieldErrs) > 0 {
		view.Errors = fieldErrs
		return render(c, http.StatusOK, views.ToolCard(sessionID, card, view, page(c, "").CSRF))
	}
	// The call outlives the request: a user who opens another page while
	// it runs finds its outcome stored; Cancel and the timeout end it.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	view.AsTask = c.FormValue(views.TaskField) != ""
	asTask := s.deps.Pool.RunsAsTask(sessionID, tool, view.AsTask)
	res, err := s.deps.Pool.CallTool(cctx, sessionID, tool, args, asTask, backend.CallOptions{ID: callID, Progress: true, ResponseFrame: true})
	view.Outcome = outcomeOf(res.CallResult, err, tool, sessionID)
	view.Outcome.RememberError = s.rememberCall(ctx, sessionID, backend.ItemTool, tool.Name, args, res.CallResult, err)
	view.Outcome.Task = taskRef(res.Task)
	if view.Outcome.Kind == views.OutcomeResult || view.Outcome.Kind == views.OutcomeToolError {
		view.Outcome.App = s.appFrame(ctx, c.Request().Host, sessionID, tool, args, res.Result)
	}
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
