package backend

import "encoding/json"

// isRPCID reports whether raw, the JSON text of a message's id, is an id
// JSON-RPC allows a request to have: a string or a number. null (the id of
// an answer to a request that could not be read), an object, an array or
// a boolean names no request.
func isRPCID(raw []byte) bool {
	if len(raw) == 0 || !json.Valid(raw) {
		return false
	}
	c := raw[0]
	return c == '"' || c == '-' || c >= '0' && c <= '9'
}
