package backend

import (
	"bytes"
	"encoding/json"
	"strings"
)

// MaxEditedRequest bounds the text of a request edited to be sent again.
const MaxEditedRequest = 1 << 20

// ParseEditedRequest reads a JSON-RPC request written or edited by a
// person, to be sent as a new request: a JSON object with "jsonrpc": "2.0",
// a non-empty string "method" and, when present, "params" that is an
// object and "id" that is a string or a number (the request goes out with
// an id of its own). Anything else is an EInvalid *Error saying what is
// wrong.
func ParseEditedRequest(text string) (method string, params json.RawMessage, err error) {
	if len(text) > MaxEditedRequest {
		return "", nil, Errorf(EInvalid, "The request is longer than %d bytes.", MaxEditedRequest)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		return "", nil, Errorf(EInvalid, "The request is not a JSON object: %s", jsonErrorText(err))
	}
	var version string
	if json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0" {
		return "", nil, Errorf(EInvalid, `A JSON-RPC request says "jsonrpc": "2.0".`)
	}
	if json.Unmarshal(m["method"], &method) != nil || strings.TrimSpace(method) == "" {
		return "", nil, Errorf(EInvalid, `A JSON-RPC request names its "method" as a non-empty string.`)
	}
	if id, ok := m["id"]; ok && !isIDText(id) {
		return "", nil, Errorf(EInvalid, `A JSON-RPC request's "id" is a string or a number.`)
	}
	if p, ok := m["params"]; ok {
		if p = bytes.TrimSpace(p); len(p) == 0 || p[0] != '{' {
			return "", nil, Errorf(EInvalid, `The request's "params" must be a JSON object.`)
		}
		params = p
	}
	return method, params, nil
}

// isIDText reports whether raw is a JSON string or number.
func isIDText(raw json.RawMessage) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}

// jsonErrorText is err's message without the decoder's package prefix.
func jsonErrorText(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}
