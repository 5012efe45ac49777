package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/schemaform"
	"github.com/mcp-playground/playground/views"
)

// elicitParams is what elicitation/create carries, in form or URL mode.
type elicitParams struct {
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	URL             string          `json:"url"`
}

// sampleParams is what sampling/createMessage carries.
type sampleParams struct {
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"` // one block or an array of blocks
	} `json:"messages"`
	SystemPrompt     string `json:"systemPrompt"`
	MaxTokens        int64  `json:"maxTokens"`
	ModelPreferences struct {
		Hints []struct {
			Name string `json:"name"`
		} `json:"hints"`
	} `json:"modelPreferences"`
}

// inputView describes a waiting request for the page.
func inputView(req backend.InputRequest) views.InputView {
	v := views.InputView{ID: req.ID, Params: prettyJSON(req.Params), Values: map[string]string{}}
	switch req.Method {
	case backend.MethodElicit:
		var p elicitParams
		_ = json.Unmarshal(req.Params, &p) // what does not decode stays empty; Params shows the rest
		v.Message = p.Message
		if p.Mode == "url" {
			v.Kind, v.RawURL = views.InputElicitURL, p.URL
			if u, err := url.Parse(p.URL); err == nil && (u.Scheme == "http" || u.Scheme == "https") {
				v.URL = p.URL
			}
			return v
		}
		v.Kind, v.Form = views.InputElicitForm, schemaform.Parse(p.RequestedSchema)
		v.Values = v.Form.Defaults()
	case backend.MethodSample:
		var p sampleParams
		_ = json.Unmarshal(req.Params, &p)
		v.Kind, v.SystemPrompt, v.MaxTokens = views.InputSample, p.SystemPrompt, p.MaxTokens
		for _, m := range p.Messages {
			v.Messages = append(v.Messages, views.SampleMessage{Role: m.Role, Text: contentText(m.Content)})
		}
		if len(p.ModelPreferences.Hints) > 0 {
			v.ModelHint = p.ModelPreferences.Hints[0].Name
		}
	}
	return v
}

// contentText renders sampling content (one block or several) as text.
func contentText(raw json.RawMessage) string {
	var blocks []backend.Content
	if json.Unmarshal(raw, &blocks) != nil {
		var one backend.Content
		if json.Unmarshal(raw, &one) != nil {
			return string(raw)
		}
		blocks = []backend.Content{one}
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		} else {
			parts = append(parts, "["+b.Type+" "+b.MimeType+"]")
		}
	}
	return strings.Join(parts, "\n")
}

// inputViews lists the session's waiting requests for the page.
func (s *Server) inputViews(sessionID int64) []views.InputView {
	pending := s.deps.Inbox.Pending(sessionID)
	out := make([]views.InputView, len(pending))
	for i, req := range pending {
		out[i] = inputView(req)
	}
	return out
}

// answerInput answers a waiting server request from its card's form.
// Invalid answers re-render the card with field errors and send nothing.
func (s *Server) answerInput(c echo.Context) error {
	sessionID, err := idParam(c)
	if err != nil {
		return err
	}
	inputID, err := pathID(c, "input")
	if err != nil {
		return err
	}
	req, err := s.deps.Inbox.Get(inputID)
	if err != nil || req.SessionID != sessionID {
		return render(c, http.StatusOK, views.InputAnswered(inputID, "The server is no longer waiting for this answer."))
	}
	view := inputView(req)
	view.Values = formValues(c)
	view.Values["reply"], view.Values["model"] = c.FormValue("reply"), c.FormValue("model")
	action := c.FormValue("_action")

	var result any
	switch {
	case action == "decline" && view.Kind == views.InputSample:
		err = s.deps.Inbox.Refuse(inputID, &backend.JSONRPCError{Code: -1, Message: "The user refused the sampling request."})
		return s.inputAnswered(c, inputID, err, "Refused.")
	case action == "decline" || action == "cancel":
		result = map[string]string{"action": action}
	case view.Kind == views.InputElicitURL:
		result = map[string]string{"action": "accept"}
	case view.Kind == views.InputElicitForm:
		content, fieldErrs := formArguments(view.Form, view.Values)
		if len(fieldErrs) > 0 {
			view.Errors = fieldErrs
			return render(c, http.StatusOK, views.InputCard(sessionID, view))
		}
		result = map[string]any{"action": "accept", "content": content}
	case view.Kind == views.InputSample:
		reply := strings.TrimSpace(view.Values["reply"])
		if reply == "" {
			view.Errors = map[string]string{"reply": "Write the reply the model would give."}
			return render(c, http.StatusOK, views.InputCard(sessionID, view))
		}
		model := strings.TrimSpace(view.Values["model"])
		if model == "" {
			model = "playground-user"
		}
		result = map[string]any{"role": "assistant", "content": map[string]string{"type": "text", "text": reply},
			"model": model, "stopReason": "endTurn"}
	default:
		return backend.Errorf(backend.EInvalid, "Unknown answer %q.", action)
	}
	body, err := json.Marshal(result)
	if err != nil {
		return err
	}
	return s.inputAnswered(c, inputID, s.deps.Inbox.Answer(inputID, body), "Answer sent.")
}

func (s *Server) inputAnswered(c echo.Context, inputID int64, err error, done string) error {
	if err != nil {
		return render(c, http.StatusOK, views.InputAnswered(inputID, backend.ErrorMessageOf(err)))
	}
	return render(c, http.StatusOK, views.InputAnswered(inputID, done))
}
