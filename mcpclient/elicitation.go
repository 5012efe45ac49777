package mcpclient

import "encoding/json"

// MethodElicit is the server's request for input from the user.
const MethodElicit = "elicitation/create"

// Elicitation modes. A request without a mode is in form mode.
const (
	ElicitModeForm = "form"
	ElicitModeURL  = "url"
)

// ElicitParams is what a server sends in elicitation/create. In form mode
// (Mode "" or "form") it asks for the fields of RequestedSchema, a
// restricted JSON Schema object kept raw; in URL mode it asks the user to
// open URL, and names the interaction ElicitationID.
type ElicitParams struct {
	Mode            string          `json:"mode,omitempty"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema,omitempty"`
	ElicitationID   string          `json:"elicitationId,omitempty"`
	URL             string          `json:"url,omitempty"`
	Meta            json.RawMessage `json:"_meta,omitempty"`
}

// URLMode reports whether the request asks the user to open a URL rather
// than fill in a form.
func (p ElicitParams) URLMode() bool { return p.Mode == ElicitModeURL }

// What a user does with an elicitation.
const (
	ElicitAccept  = "accept"
	ElicitDecline = "decline"
	ElicitCancel  = "cancel"
)

// ElicitResult is the client's answer to elicitation/create: the user's
// Action and, when a form is accepted, the Content they filled in (a JSON
// object of the requested schema's properties). URL mode accepts with no
// content.
type ElicitResult struct {
	Action  string          `json:"action"`
	Content json.RawMessage `json:"content,omitempty"`
}
