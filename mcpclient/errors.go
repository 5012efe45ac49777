package mcpclient

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrClosed is the cause reported to calls that were pending, or made, after
// Close.
var ErrClosed = errors.New("mcpclient: connection closed")

// RPCError is a JSON-RPC error response from the server.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error returns "jsonrpc error <code>: <message>".
func (e *RPCError) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// codeMethodNotFound is the JSON-RPC error code for an unknown method.
const codeMethodNotFound = -32601
