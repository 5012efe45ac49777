package mcpclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// member is one member of a JSON object, in wire order.
type member struct {
	key   string
	value json.RawMessage
}

// checkObject returns obj compacted, or nil for nil; anything but a JSON
// object is an error.
func checkObject(obj json.RawMessage) (json.RawMessage, error) {
	if obj == nil {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, obj); err != nil {
		return nil, err
	}
	if buf.Len() == 0 || buf.Bytes()[0] != '{' {
		return nil, errors.New("not a JSON object")
	}
	return buf.Bytes(), nil
}

// members splits a JSON object into its members, keeping their order. nil
// has none.
func members(obj json.RawMessage) ([]member, error) {
	if obj == nil {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var ms []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		ms = append(ms, member{key, v})
	}
	return ms, nil
}

// joinMembers encodes members as one compact JSON object.
func joinMembers(ms []member) json.RawMessage {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := marshal(m.key)
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(m.value)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

// getMember returns the value of key in the JSON object obj (nil: none).
func getMember(obj json.RawMessage, key string) (json.RawMessage, bool, error) {
	ms, err := members(obj)
	if err != nil {
		return nil, false, err
	}
	for _, m := range ms {
		if m.key == key {
			return m.value, true, nil
		}
	}
	return nil, false, nil
}

// setMember returns obj (nil: {}) with key set to value: replaced in place
// when present and replace is true, left alone when present and replace is
// false, appended otherwise.
func setMember(obj json.RawMessage, key string, value json.RawMessage, replace bool) (json.RawMessage, error) {
	ms, err := members(obj)
	if err != nil {
		return nil, err
	}
	for i, m := range ms {
		if m.key == key {
			if !replace {
				return obj, nil
			}
			if !json.Valid(value) {
				return nil, fmt.Errorf("%s: invalid JSON value", key)
			}
			ms[i].value = value
			return joinMembers(ms), nil
		}
	}
	return joinMembers(append(ms, member{key, value})), nil
}

// deleteMember returns obj without key (obj itself when it has none).
func deleteMember(obj json.RawMessage, key string) (json.RawMessage, error) {
	ms, err := members(obj)
	if err != nil {
		return nil, err
	}
	for i, m := range ms {
		if m.key == key {
			return joinMembers(append(ms[:i], ms[i+1:]...)), nil
		}
	}
	return obj, nil
}
