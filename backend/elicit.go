package backend

import (
	"encoding/json"

	"github.com/mcp-playground/playground/mcpclient"
)

// ElicitParams is what a server sends in elicitation/create, named here so
// that web and views depend on the backend only.
type ElicitParams = mcpclient.ElicitParams

// ParseElicit decodes elicitation/create params. It fails only when params
// are not the spec's shape at all; a person still sees them raw.
func ParseElicit(params json.RawMessage) (ElicitParams, error) {
	var p ElicitParams
	if err := json.Unmarshal(params, &p); err != nil {
		return ElicitParams{}, Errorf(EInvalid, "The elicitation request is not in the spec's shape: %v", err)
	}
	return p, nil
}

// AcceptElicit accepts elicitation request id for the person by. A form
// is accepted with content, the JSON object of the values filled in; a URL
// is accepted with no content, and only when ElicitURLTarget offers it.
// What cannot be accepted is refused with an EInvalid *Error and sends
// nothing.
func (in *Inbox) AcceptElicit(id int64, content json.RawMessage, by string) error {
	req, err := in.Get(id)
	if err != nil {
		return err
	}
	if req.Method != MethodElicit {
		return Errorf(EInvalid, "This request is not an elicitation.")
	}
	p, err := ParseElicit(req.Params)
	if err != nil {
		return err
	}
	res := mcpclient.ElicitResult{Action: mcpclient.ElicitAccept}
	switch {
	case p.URLMode():
		if _, err := ElicitURLTarget(p.URL); err != nil {
			return Errorf(EInvalid, "The URL is not offered, so it cannot be accepted; decline or cancel.")
		}
	case !IsJSONObject(content):
		return Errorf(EInvalid, "A form is accepted with an object of its values.")
	default:
		res.Content = content
	}
	return in.answerWith(id, res, by)
}

// DismissElicit answers elicitation request id with action, which is
// mcpclient's ElicitDecline (the person said no) or ElicitCancel (they
// closed it without choosing); anything else is an EInvalid *Error.
func (in *Inbox) DismissElicit(id int64, action, by string) error {
	if action != mcpclient.ElicitDecline && action != mcpclient.ElicitCancel {
		return Errorf(EInvalid, "Unknown answer %q.", action)
	}
	return in.answerWith(id, mcpclient.ElicitResult{Action: action}, by)
}

// Elicitation actions that dismiss a request.
const (
	ElicitDecline = mcpclient.ElicitDecline
	ElicitCancel  = mcpclient.ElicitCancel
)

// answerWith sends result, encoded as JSON, as the answer to request id.
func (in *Inbox) answerWith(id int64, result any, by string) error {
	body, err := json.Marshal(result)
	if err != nil {
		return err
	}
	return in.Answer(id, body, by)
}
