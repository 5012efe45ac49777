package schemaform

import (
	"bytes"
	"encoding/json"
	"errors"
)

// object is a decoded JSON object that remembers its keys' order, which
// is the order a form shows properties in.
type object struct {
	keys []string
	m    map[string]any
}

func (o *object) get(k string) any {
	if o == nil {
		return nil
	}
	return o.m[k]
}

func (o *object) obj(k string) *object {
	v, _ := o.get(k).(*object)
	return v
}

func (o *object) str(k string) string {
	v, _ := o.get(k).(string)
	return v
}

func (o *object) list(k string) []any {
	v, _ := o.get(k).([]any)
	return v
}

func (o *object) set(k string, v any) {
	if _, ok := o.m[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.m[k] = v
}

// clone copies o's top level.
func (o *object) clone() *object {
	c := &object{keys: append([]string(nil), o.keys...), m: make(map[string]any, len(o.m))}
	for k, v := range o.m {
		c.m[k] = v
	}
	return c
}

// decodeOrdered decodes JSON text with objects as *object and numbers as
// json.Number.
func decodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("schemaform: trailing data after the schema")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		o := &object{m: map[string]any{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o.set(k, v)
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		var l []any
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		_, err := dec.Token()
		if l == nil {
			l = []any{}
		}
		return l, err
	}
	return t, nil
}

// encode writes a decoded value back as compact JSON.
func encode(v any) json.RawMessage {
	var b bytes.Buffer
	writeValue(&b, v)
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case *object:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			writeValue(b, x.m[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(b, e)
		}
		b.WriteByte(']')
	default:
		vb, err := json.Marshal(x)
		if err != nil {
			vb = []byte("null")
		}
		b.Write(vb)
	}
}
