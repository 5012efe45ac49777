package demoserver

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The Go SDK ends a stdio session on the first frame it cannot decode as a
// JSON-RPC message, and answers such an HTTP body with plain text. The demo
// server exists to be probed with bad frames, so checkFrame refuses them
// first and the transports answer each with a JSON-RPC error, then go on.

// maxFrameDepth is how deeply a frame's JSON may nest: the SDK refuses
// deeper input.
const maxFrameDepth = 1000

// frameError is why a frame was refused, as the JSON-RPC error that answers
// it.
type frameError struct {
	id      json.RawMessage // the request's id; nil when unknown
	code    int64
	message string
}

func (e *frameError) Error() string { return "demoserver: " + e.message }

// response is the JSON-RPC error response, without a newline. The id is
// null when the frame was not a request with a valid id.
func (e *frameError) response() []byte {
	id := e.id
	if id == nil {
		id = json.RawMessage("null")
	}
	type rpcError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{e.code, e.message}})
	if err != nil { // cannot happen: id is a checked JSON value
		panic(err)
	}
	return b
}

func parseError(format string, args ...any) *frameError {
	return &frameError{code: jsonrpc.CodeParseError, message: "Parse error: " + fmt.Sprintf(format, args...)}
}

func invalidRequest(id json.RawMessage, format string, args ...any) *frameError {
	return &frameError{id: id, code: jsonrpc.CodeInvalidRequest, message: "Invalid Request: " + fmt.Sprintf(format, args...)}
}

// tooLarge refuses a frame longer than limit bytes.
func tooLarge(limit int) *frameError {
	return invalidRequest(nil, "a message may be at most %d bytes", limit)
}

// checkFrame reports why frame, one JSON text, is not a message the SDK can
// take: JSON nested deeper than maxFrameDepth or not well formed
// (-32700), a value other than an object (batches included: MCP has none
// since 2025-06-18, and the SDK ends the session on one), a "jsonrpc" other
// than "2.0", an id other than a string, an integer or null, a "method"
// other than a string, or, without a method, not a response with an id and
// one of result and error (-32600). It returns nil for a frame the SDK can
// take; what the frame asks is the server's to judge.
func checkFrame(frame []byte) *frameError {
	if jsonDepth(frame) > maxFrameDepth {
		return parseError("JSON nested deeper than %d levels", maxFrameDepth)
	}
	m, err := readMembers(frame)
	if err != nil {
		var v json.RawMessage
		if err := json.Unmarshal(frame, &v); err != nil {
			return parseError("%v", err)
		}
		if v[0] == '[' {
			return invalidRequest(nil, "batches are not supported")
		}
		return invalidRequest(nil, "a message must be a JSON object")
	}
	id, hasID := m.id, m.id != nil
	idValid := !hasID || isJSONNull(id) || isJSONString(id) || isJSONInt64(id)
	if m.method != nil { // a request or a notification
		var replyID json.RawMessage
		if hasID && idValid {
			replyID = id
		}
		switch {
		case !idValid:
			return invalidRequest(nil, `"id" must be a string, an integer or null`)
		case !isJSONString(m.method):
			return invalidRequest(replyID, `"method" must be a string`)
		case !isVersion2(m.jsonrpc):
			return invalidRequest(replyID, `"jsonrpc" must be "2.0"`)
		}
		return nil
	}
	hasResult, hasError := m.result != nil, m.err != nil
	switch {
	case !isVersion2(m.jsonrpc):
		return invalidRequest(nil, `"jsonrpc" must be "2.0"`)
	case !hasID || isJSONNull(id) || !idValid || hasResult == hasError:
		return invalidRequest(nil, `a message without "method" must be a response: an "id" and one of "result" and "error"`)
	case hasError && !isWireError(m.err):
		return invalidRequest(nil, `"error" must be an object with an integer "code" and a string "message"`)
	}
	return nil
}

// jsonDepth returns how deeply the objects and arrays of a JSON text nest,
// counted as the SDK counts them; it does not check the syntax.
func jsonDepth(data []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth = max(depth-1, 0)
		}
	}
	return deepest
}

// The is* functions judge one value of a well-formed JSON text.

func isJSONString(raw json.RawMessage) bool { return len(raw) > 0 && raw[0] == '"' }

// isJSONInt64 reports whether raw is a JSON number written as an integer
// that fits in an int64, as the SDK keeps ids.
func isJSONInt64(raw json.RawMessage) bool {
	_, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil
}

func isVersion2(raw json.RawMessage) bool {
	if string(raw) == `"2.0"` {
		return true
	}
	var s string
	return isJSONString(raw) && json.Unmarshal(raw, &s) == nil && s == "2.0"
}

// isWireError reports whether raw is a JSON-RPC error object the SDK can
// decode: an integer code in int64 and, if present, a string message.
func isWireError(raw json.RawMessage) bool {
	var e map[string]json.RawMessage
	if json.Unmarshal(raw, &e) != nil || e == nil {
		return false
	}
	code, ok := e["code"]
	if !ok || !isJSONInt64(code) {
		return false
	}
	msg, ok := e["message"]
	return !ok || isJSONString(msg)
}
