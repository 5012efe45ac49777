package backend

import (
	"encoding/json"

	"github.com/mcp-playground/playground/mcpclient"
)

// Params returns the params member of the frame's JSON-RPC message as it
// was sent, nil when it has none or the body is not a JSON-RPC message (as
// a body read cut short is not).
func (f Frame) Params() json.RawMessage {
	env, err := mcpclient.DecodeEnvelope(f.Body)
	if err != nil {
		return nil
	}
	return env.Params
}

// rpcError returns the error member of the frame's JSON-RPC message; false
// when it has none, or it is null or not an error object.
func (f Frame) rpcError() (*mcpclient.RPCError, bool) {
	env, err := mcpclient.DecodeEnvelope(f.Body)
	if err != nil || string(env.Error) == "null" {
		return nil, false
	}
	return env.RPCError()
}
