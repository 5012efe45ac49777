package lint

import (
	"bytes"
	"encoding/json"
	"strconv"

	sjson "github.com/segmentio/encoding/json"
)

// A frame's body is decoded once, by decode, into the values
// jsonschema.UnmarshalJSON would give (objects as map[string]any, arrays
// as []any, numbers as json.Number), and every rule and the schema
// validation read that one tree. segmentio/encoding's parser builds it
// several times faster than encoding/json, which matters on the
// recorder's path; its strings and numbers share the body's memory, which
// never changes once recorded (Frame.Body).

// decode parses a body; ok is false when it is not one JSON value.
func decode(body []byte) (any, bool) {
	var v any
	rest, err := sjson.Parse(body, &v, sjson.UseNumber|sjson.DontCopyString|sjson.DontCopyNumber)
	return v, err == nil && len(bytes.TrimLeft(rest, " \t\r\n")) == 0
}

// kindOf names the JSON kind of a decoded value.
func kindOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return "number"
}

// objectOf is v as an object, nil when it is none.
func objectOf(v any) map[string]any {
	o, _ := v.(map[string]any)
	return o
}

// stringOf is v as a string, "" when it is none.
func stringOf(v any) string {
	s, _ := v.(string)
	return s
}

// validID reports whether id is a JSON string or integer.
func validID(id any) bool {
	switch v := id.(type) {
	case string:
		return true
	case json.Number:
		_, err := strconv.ParseInt(string(v), 10, 64)
		return err == nil
	}
	return false
}

// idKind names the kind of an id for a message, with a number's text.
func idKind(id any) string {
	if n, ok := id.(json.Number); ok {
		return "number " + string(n)
	}
	return kindOf(id)
}

// textOf is a valid id (or progress token) as its JSON text, `1` or
// `"a"`: the key the two sides' ids are matched by.
func textOf(v any) string {
	switch v := v.(type) {
	case json.Number:
		return string(v)
	case string:
		return strconv.Quote(v)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}
