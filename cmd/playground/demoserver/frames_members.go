package demoserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// members are the members of a frame's top-level object that checkFrame
// judges, each as its JSON text; nil when the object has no such member.
// When a name appears more than once, the last one counts, as when
// decoding into a map.
type members struct {
	jsonrpc, id, method, result, err json.RawMessage
}

// errNotObject is readMembers' answer for a frame that is not one JSON
// object.
var errNotObject = errors.New("demoserver: not a JSON object")

// readMembers returns the members of frame, a JSON text, or errNotObject
// when it is not well formed or not an object. It reads what it may in
// place, and decodes into a map only a frame with an escaped member name.
func readMembers(frame []byte) (members, error) {
	if !json.Valid(frame) {
		return members{}, errNotObject
	}
	if m, ok := scanMembers(frame); ok {
		return m, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(frame, &fields); err != nil || fields == nil {
		return members{}, errNotObject
	}
	return members{fields["jsonrpc"], fields["id"], fields["method"], fields["result"], fields["error"]}, nil
}

// scanMembers reads the members of frame, a well-formed JSON text, in
// place. It reports false when frame is not an object or a member's name
// has an escape, which only decoding can read.
func scanMembers(frame []byte) (m members, ok bool) {
	rest := skipSpace(frame)
	if len(rest) == 0 || rest[0] != '{' {
		return members{}, false
	}
	rest = skipSpace(rest[1:])
	if rest[0] == '}' {
		return members{}, true
	}
	for {
		// rest starts with a member's name.
		end := stringEnd(rest)
		name := rest[1 : end-1]
		if bytes.IndexByte(name, '\\') >= 0 {
			return members{}, false
		}
		rest = skipSpace(skipSpace(rest[end:])[1:]) // the colon
		end = valueEnd(rest)
		value := json.RawMessage(rest[:end:end])
		switch string(name) {
		case "jsonrpc":
			m.jsonrpc = value
		case "id":
			m.id = value
		case "method":
			m.method = value
		case "result":
			m.result = value
		case "error":
			m.err = value
		}
		rest = skipSpace(rest[end:])
		if rest[0] == '}' {
			return m, true
		}
		rest = skipSpace(rest[1:]) // the comma
	}
}

// skipSpace returns b without its leading JSON whitespace.
func skipSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

// stringEnd returns the length of the JSON string that b starts with,
// quotes included; b must start with a well-formed one.
func stringEnd(b []byte) int {
	for i := 1; ; i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
}

// valueEnd returns the length of the JSON value that b starts with; b must
// start with a well-formed one.
func valueEnd(b []byte) int {
	switch b[0] {
	case '"':
		return stringEnd(b)
	case '{', '[':
		depth := 0
		for i := 0; ; i++ {
			switch b[i] {
			case '"':
				i += stringEnd(b[i:]) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
	default: // a number, true, false or null
		i := 0
		for i < len(b) && strings.IndexByte(",}] \t\n\r", b[i]) < 0 {
			i++
		}
		return i
	}
}
