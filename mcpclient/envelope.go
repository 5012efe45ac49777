package mcpclient

import (
	"bytes"
	"encoding/json"

	sjson "github.com/segmentio/encoding/json"
)

// The recorder decodes the envelope of every frame it stores, so the
// decoding here is segmentio/encoding's, which gives encoding/json's
// results several times faster.

// Envelope is a JSON-RPC 2.0 message as it was on the wire, for code that
// reads recorded traffic rather than taking part in it: unlike the
// client's own decoding it accepts any shape and leaves every member raw,
// so that a malformed message is described, not refused. A member absent
// on the wire is nil; one sent as null is the raw bytes "null".
type Envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	// Method is nil when the message has no method member.
	Method *string         `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// DecodeEnvelope decodes body as a JSON object with JSON-RPC's members. It
// fails only when body is not a JSON object or a member has a type no
// message can have (a method that is not a string).
func DecodeEnvelope(body []byte) (Envelope, error) {
	var env Envelope
	err := sjson.Unmarshal(body, &env)
	return env, err
}

// RPCError decodes the message's error member; false when it has none or
// it is not an error object.
func (e Envelope) RPCError() (*RPCError, bool) {
	if len(e.Error) == 0 {
		return nil, false
	}
	var rpcErr RPCError
	if sjson.Unmarshal(e.Error, &rpcErr) != nil {
		return nil, false
	}
	return &rpcErr, true
}

// IsToolError reports whether result, a JSON-RPC result, is a tool's
// failure: an object whose isError member is true. It is the one place
// that decides it; recorded frames store its answer.
func IsToolError(result json.RawMessage) bool {
	if !bytes.Contains(result, []byte(`"isError"`)) && !bytes.Contains(result, []byte(`\u`)) {
		return false // most results: no second decode (an escape may spell the name)
	}
	var r struct {
		IsError bool `json:"isError"`
	}
	return sjson.Unmarshal(result, &r) == nil && r.IsError
}
