package mcpclient

import (
	"bytes"
	"encoding/json"
	"errors"
)

// message is any decoded JSON-RPC 2.0 message. Fields that were absent on
// the wire are nil; a field sent as null is the raw bytes "null".
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// isRequest reports whether m is a request: a method and a non-null id.
func (m *message) isRequest() bool {
	return m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null"
}

// isNotification reports whether m is a notification: a method and no id.
func (m *message) isNotification() bool {
	return m.Method != "" && len(m.ID) == 0
}

// isResponse reports whether m is a response: an id and a result or error.
func (m *message) isResponse() bool {
	return m.Method == "" && len(m.ID) > 0 && (len(m.Result) > 0 || m.Error != nil)
}

// decodeMessage decodes one JSON-RPC message. It is lenient about the
// "jsonrpc" member (a playground records what servers send, it does not
// police it) but rejects anything that is not a request, notification or
// response.
func decodeMessage(body []byte) (*message, error) {
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, err
	}
	if !m.isRequest() && !m.isNotification() && !m.isResponse() {
		return nil, errors.New("not a JSON-RPC request, notification or response")
	}
	return &m, nil
}

// encodeRequest returns the wire form of a request.
func encodeRequest(id int64, method string, params any) ([]byte, error) {
	return marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", id, method, omitNil(params)})
}

// encodeNotification returns the wire form of a notification.
func encodeNotification(method string, params any) ([]byte, error) {
	return marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", method, omitNil(params)})
}

// encodeResponse returns the wire form of a response to the request with the
// given raw id: an error response when rpcErr is non-nil, else a result.
func encodeResponse(id json.RawMessage, result any, rpcErr *RPCError) ([]byte, error) {
	if rpcErr != nil {
		return marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *RPCError       `json:"error"`
		}{"2.0", id, rpcErr})
	}
	return marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
}

// omitNil turns a nil json.RawMessage into a nil interface so that
// "omitempty" drops it.
func omitNil(params any) any {
	if raw, ok := params.(json.RawMessage); ok && raw == nil {
		return nil
	}
	return params
}

// marshal encodes v as compact JSON on one line, without escaping HTML
// characters, so that strings reach the server as the caller wrote them.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
