package web

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/schemaform"
	"github.com/mcp-playground/playground/views"
)

// showPrompts is a server's Prompts section: the searchable list of its
// prompts beside one prompt's card, the one the URL names
// (/servers/ID/prompts/NAME) or else the first that the search keeps.
// The card shows the prompt's last get: its arguments and messages.
func (s *Server) showPrompts(c echo.Context) error {
	name, err := itemParam(c)
	if err != nil {
		return err
	}
	query := strings.TrimSpace(c.QueryParam("q"))
	return s.explorerPage(c, views.SectionPrompts, func(srv backend.Server, live *backend.Session) (templ.Component, error) {
		if live == nil {
			return views.NotConnected(page(c, ""), srv.ID, "prompts"), nil
		}
		lctx, cancel := context.WithTimeout(c.Request().Context(), listToolsTimeout)
		prompts, err := s.deps.Pool.Prompts(lctx, live.ID, false)
		cancel()
		if errors.Is(err, backend.ErrNoPrompts) {
			return views.Pick(backend.ErrorMessageOf(err)), nil
		}
		if err != nil {
			return views.Problem("prompts-error", backend.ErrorMessageOf(err)), nil
		}
		if len(prompts) == 0 {
			return views.Pick("This server offers no prompts."), nil
		}
		open := -1
		if name != "" {
			if open = promptIndex(prompts, name); open < 0 {
				return nil, backend.Errorf(backend.ENotFound, "The server has no prompt named %q.", name)
			}
		}
		base := views.SectionURL(srv.ID, views.SectionPrompts)
		var links []views.ItemLink
		for i, p := range prompts {
			if i != open && !matchesQuery(query, p.Name, p.Title, p.Description) {
				continue
			}
			if open < 0 {
				open = i
			}
			links = append(links, views.ItemLink{Name: p.Name, Title: p.Title, Description: p.Description, Href: base + "/" + url.PathEscape(p.Name), Active: i == open})
		}
		list := views.ItemList("prompts", base, query, links, len(prompts))
		if open < 0 {
			return views.ListAndDetail(list, views.Pick("No prompt matches the search.")), nil
		}
		card := promptView(prompts[open])
		if err := s.withLastPrompt(c.Request().Context(), srv.ID, &card); err != nil {
			return nil, err
		}
		return views.ListAndDetail(list, views.PromptCard(live.ID, card, page(c, "").CSRF)), nil
	})
}

// promptIndex returns the index of the named prompt, or -1.
func promptIndex(prompts []backend.Prompt, name string) int {
	for i, p := range prompts {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// getPrompt validates a prompt's argument form and, when it is valid,
// sends prompts/get on the session. It answers with the prompt's card: the
// form with its field errors, or the messages the server returned, or how
// the request failed. Nothing is sent for an invalid form. A prompts/get
// that was sent is remembered as the prompt's last get.
func (s *Server) getPrompt(c echo.Context) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	csrf := page(c, "").CSRF
	prompt, err := s.deps.Pool.Prompt(ctx, sessionID, c.FormValue("_prompt"))
	if err != nil {
		// Without the prompt's arguments there is no form to show again;
		// the card says why nothing was sent.
		view := views.PromptView{Name: c.FormValue("_prompt"), Outcome: &views.PromptOutcome{
			Request: views.ToolOutcome{Kind: views.OutcomeFailure, Message: backend.ErrorMessageOf(err)}}}
		return render(c, http.StatusOK, views.PromptCard(sessionID, view, csrf))
	}
	view := promptView(prompt)
	view.Values = formValues(c)
	view.Values[schemaform.RawField] = "" // a prompt form has no JSON view
	raw, fieldErrs := formArguments(view.Form, view.Values)
	var args map[string]string
	if fieldErrs == nil {
		if err := json.Unmarshal(raw, &args); err != nil {
			return err // the form makes only string arguments
		}
	}
	if len(fieldErrs) > 0 {
		view.Errors = fieldErrs
		return render(c, http.StatusOK, views.PromptCard(sessionID, view, csrf))
	}
	gctx, cancel := context.WithTimeout(ctx, toolCallTimeout)
	defer cancel()
	res, err := s.deps.Pool.GetPrompt(gctx, sessionID, prompt.Name, args, backend.CallOptions{ResponseFrame: true})
	view.Outcome = promptOutcomeOf(res, err)
	view.Outcome.Request.RememberError = s.rememberCall(ctx, sessionID, backend.ItemPrompt, prompt.Name, raw, res, err)
	return render(c, http.StatusOK, views.PromptCard(sessionID, view, csrf))
}

// promptView is a prompt's card before anyone fills it in. Its form is
// made from a JSON Schema: an object of string properties, one per
// argument in the prompt's order, those the prompt requires required.
func promptView(p backend.Prompt) views.PromptView {
	type property struct {
		Type        string `json:"type"`
		Title       string `json:"title,omitempty"`
		Description string `json:"description,omitempty"`
	}
	// The properties are written one by one: a map would lose their order,
	// which the form keeps.
	var props strings.Builder
	required := []string{}
	for i, a := range p.Arguments {
		if i > 0 {
			props.WriteByte(',')
		}
		name, _ := json.Marshal(a.Name)
		prop, _ := json.Marshal(property{Type: "string", Title: a.Title, Description: a.Description})
		props.Write(name)
		props.WriteByte(':')
		props.Write(prop)
		if a.Required {
			required = append(required, a.Name)
		}
	}
	req, _ := json.Marshal(required)
	schema := json.RawMessage(`{"type":"object","properties":{` + props.String() + `},"required":` + string(req) + `}`)
	return views.PromptView{Name: p.Name, Title: p.Title, Description: p.Description, Form: schemaform.Parse(schema)}
}

// promptOutcomeOf turns a prompts/get answer into what the user sees.
func promptOutcomeOf(res backend.CallResult, err error) *views.PromptOutcome {
	o := &views.PromptOutcome{Request: *requestOutcome(res, err)}
	if o.Request.Kind != views.OutcomeResult {
		return o
	}
	var r backend.GetPromptResult
	if uerr := json.Unmarshal(res.Result, &r); uerr != nil {
		o.Request.Kind, o.Request.Message = views.OutcomeFailure, "The server's result is not a valid prompts/get result: "+uerr.Error()
		return o
	}
	o.Description = r.Description
	for _, m := range r.Messages {
		o.Messages = append(o.Messages, views.PromptMessageView{Role: m.Role, Content: messageContent(m.Content)})
	}
	return o
}

// messageContent is what a prompt message's content block shows.
func messageContent(c backend.Content) views.MessageContent {
	v := views.MessageContent{Type: c.Type, Text: c.Text, MimeType: c.MimeType, Data: c.Data,
		URI: c.URI, Name: c.Name, Description: c.Description}
	switch c.Type {
	case "text", "image", "audio", "resource_link":
	case "resource":
		var r backend.ResourceContents
		if json.Unmarshal(c.Resource, &r) == nil {
			v.URI, v.MimeType, v.Text, v.Blob = r.URI, r.MimeType, r.Text, r.Blob != ""
			break
		}
		fallthrough
	default:
		detail, _ := json.MarshalIndent(c, "", "  ") // decoded JSON marshals again
		v.Detail = string(detail)
	}
	return v
}
