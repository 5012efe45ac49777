package web

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/schemaform"
	"github.com/mcp-playground/playground/views"
)

// inputView describes a waiting request for the page.
func inputView(req backend.InputRequest) views.InputView {
	v := views.InputView{ID: req.ID, Params: prettyJSON(req.Params), Values: map[string]string{}}
	switch req.Method {
	case backend.MethodElicit:
		p, _ := backend.ParseElicit(req.Params) // what does not decode stays empty; Params shows the rest
		v.Message = p.Message
		if p.URLMode() {
			v.Kind, v.RawURL = views.InputElicitURL, p.URL
			target, err := backend.ElicitURLTarget(p.URL)
			if err != nil {
				v.URLError = backend.ErrorMessageOf(err)
			}
			v.Target = target
			return v
		}
		v.Kind, v.Form = views.InputElicitForm, schemaform.Parse(p.RequestedSchema)
		v.Values = v.Form.Defaults()
	case backend.MethodSample:
		v.Kind = views.InputSample
		v.Sample, _ = backend.ParseSampling(req.Params) // zero when malformed; Params shows it raw
	}
	return v
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
	if err != nil {
		return render(c, http.StatusOK, views.InputAnswered(inputID, backend.ErrorMessageOf(err)))
	}
	if req.SessionID != sessionID {
		return render(c, http.StatusOK, views.InputAnswered(inputID, "The server is no longer waiting for this answer."))
	}
	view := inputView(req)
	view.Values = formValues(c)
	action := c.FormValue("_action")

	if view.Kind == views.InputSample {
		return s.answerSample(c, sessionID, view, action)
	}
	by := answererName(c)
	switch {
	case action == backend.ElicitDecline || action == backend.ElicitCancel:
		return s.inputAnswered(c, inputID, s.deps.Inbox.DismissElicit(inputID, action, by), "Answer sent.")
	case view.Kind == views.InputElicitURL:
		if err := s.deps.Inbox.AcceptElicit(inputID, nil, by); backend.ErrorCodeOf(err) == backend.EInvalid {
			return err
		}
		return s.inputAnswered(c, inputID, err, "Answer sent.")
	case view.Kind == views.InputElicitForm:
		content, fieldErrs := formArguments(view.Form, view.Values)
		if len(fieldErrs) > 0 {
			view.Errors = fieldErrs
			return render(c, http.StatusOK, views.InputCard(sessionID, view))
		}
		return s.inputAnswered(c, inputID, s.deps.Inbox.AcceptElicit(inputID, content, by), "Answer sent.")
	}
	return backend.Errorf(backend.EInvalid, "Unknown answer %q.", action)
}

// answerSample sends the reply written for a sampling request, or its
// refusal; an empty reply re-renders the card with the error at the text.
func (s *Server) answerSample(c echo.Context, sessionID int64, view views.InputView, action string) error {
	view.Values["reply"], view.Values["model"], view.Values["stopReason"] = c.FormValue("reply"), c.FormValue("model"), c.FormValue("stopReason")
	switch action {
	case "decline":
		return s.inputAnswered(c, view.ID, s.deps.Inbox.DeclineSample(view.ID, answererName(c)), "Declined.")
	case "accept":
		err := s.deps.Inbox.ReplySample(view.ID, backend.SampleReply{Text: view.Values["reply"], Model: view.Values["model"], StopReason: view.Values["stopReason"]}, answererName(c))
		var appErr *backend.Error
		if errors.As(err, &appErr) && appErr.Code == backend.EInvalid {
			view.Errors = map[string]string{"reply": appErr.Message}
			return render(c, http.StatusOK, views.InputCard(sessionID, view))
		}
		return s.inputAnswered(c, view.ID, err, "Reply sent.")
	}
	return backend.Errorf(backend.EInvalid, "Unknown answer %q.", action)
}

func (s *Server) inputAnswered(c echo.Context, inputID int64, err error, done string) error {
	if err != nil {
		return render(c, http.StatusOK, views.InputAnswered(inputID, backend.ErrorMessageOf(err)))
	}
	return render(c, http.StatusOK, views.InputAnswered(inputID, done))
}

// answererName names who answers a server request made in c: the person
// signed in, or the owner of the API token.
func answererName(c echo.Context) string {
	p, _ := principalOf(c)
	return p.User.Name
}
