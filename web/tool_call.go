package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

const toolCallTimeout = 60 * time.Second

// callTool validates a tool form and, when it is valid, sends tools/call on
// the session. It answers with the tool's card: the form with its field
// errors, or the outcome of the call. Nothing is sent for an invalid form.
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
	args, fieldErrs := backend.ArgumentsFromForm(view.Form, view.Values)
	if fieldErrs == nil {
		fieldErrs = backend.ValidateArguments(view.Form, tool.InputSchema, args)
	}
	if len(fieldErrs) > 0 {
		view.Errors = fieldErrs
		return render(c, http.StatusOK, views.ToolCard(sessionID, card, view, page(c, "").CSRF))
	}
	cctx, cancel := context.WithTimeout(ctx, toolCallTimeout)
	defer cancel()
	params, err := json.Marshal(map[string]any{"name": tool.Name, "arguments": args})
	if err != nil {
		return err
	}
	res, err := s.deps.Pool.Call(cctx, sessionID, "tools/call", params)
	view.Outcome = outcomeOf(res, err)
	return render(c, http.StatusOK, views.ToolCard(sessionID, card, view, page(c, "").CSRF))
}

// formValues collects the tool form's inputs, keyed by argument name, and
// the raw JSON box under backend.RawField.
func formValues(c echo.Context) map[string]string {
	values := map[string]string{}
	form, err := c.FormParams()
	if err != nil {
		return values
	}
	for k, v := range form {
		if name, ok := strings.CutPrefix(k, "arg."); ok && len(v) > 0 {
			values[name] = v[0]
		}
	}
	values[backend.RawField] = form.Get("_raw")
	return values
}

// outcomeOf turns a tools/call answer into what the user sees.
func outcomeOf(res backend.CallResult, err error) *views.ToolOutcome {
	o := requestOutcome(res, err)
	if o.Kind != views.OutcomeResult {
		return o
	}
	var r backend.CallToolResult
	if uerr := json.Unmarshal(res.Result, &r); uerr != nil {
		o.Kind, o.Message = views.OutcomeFailure, "The server's result is not a valid tools/call result: "+uerr.Error()
		return o
	}
	if r.IsError {
		o.Kind = views.OutcomeToolError
	}
	o.Structured = prettyJSON(r.StructuredContent)
	for _, c := range r.Content {
		o.Content = append(o.Content, contentView(c))
	}
	return o
}

func contentView(c backend.Content) views.ContentView {
	v := views.ContentView{Type: c.Type, Text: c.Text, MimeType: c.MimeType, Data: c.Data}
	if c.Type != "text" && c.Type != "image" && c.Type != "audio" {
		detail, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			detail = []byte(errors.Unwrap(err).Error())
		}
		v.Detail = string(detail)
	}
	return v
}
