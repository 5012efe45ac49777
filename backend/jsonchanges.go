package backend

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// JSONChange is one structural difference between two JSON values: at
// Path (members joined by ".", array indexes as "[i]"; "" for the whole
// value) a value was added, removed or changed. Old and New are canonical
// JSON, nil on the side that has no value.
type JSONChange struct {
	Path string
	Op   string // "added", "removed" or "changed"
	Old  json.RawMessage
	New  json.RawMessage
}

// JSONChanges is a minimal structural diff of two JSON values: objects are
// compared member by member, arrays element by element by index, and any
// other difference (a scalar, or a change of type) is one "changed" at
// that path. Changes come in path order, objects' members sorted by name.
// A side that is not valid JSON is compared as a whole. Interface drift
// uses it per item; it is kept small on purpose so that one structural
// diff (for replay and snapshots too) can replace it.
func JSONChanges(old, new json.RawMessage) []JSONChange {
	var a, b any
	if json.Unmarshal(old, &a) != nil || json.Unmarshal(new, &b) != nil {
		if bytes.Equal(old, new) {
			return nil
		}
		return []JSONChange{{Op: "changed", Old: old, New: new}}
	}
	var out []JSONChange
	diffValues("", a, b, &out)
	return out
}

func diffValues(path string, a, b any, out *[]JSONChange) {
	switch av := a.(type) {
	case map[string]any:
		if bv, ok := b.(map[string]any); ok {
			diffObjects(path, av, bv, out)
			return
		}
	case []any:
		if bv, ok := b.([]any); ok {
			diffArrays(path, av, bv, out)
			return
		}
	}
	ea, eb := encode(a), encode(b)
	if !bytes.Equal(ea, eb) {
		*out = append(*out, JSONChange{Path: path, Op: "changed", Old: ea, New: eb})
	}
}

func diffObjects(path string, a, b map[string]any, out *[]JSONChange) {
	names := make([]string, 0, len(a)+len(b))
	for k := range a {
		names = append(names, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		p := k
		if path != "" {
			p = path + "." + k
		}
		av, inA := a[k]
		bv, inB := b[k]
		switch {
		case !inB:
			*out = append(*out, JSONChange{Path: p, Op: "removed", Old: encode(av)})
		case !inA:
			*out = append(*out, JSONChange{Path: p, Op: "added", New: encode(bv)})
		default:
			diffValues(p, av, bv, out)
		}
	}
}

func diffArrays(path string, a, b []any, out *[]JSONChange) {
	for i := range max(len(a), len(b)) {
		p := path + "[" + strconv.Itoa(i) + "]"
		switch {
		case i >= len(b):
			*out = append(*out, JSONChange{Path: p, Op: "removed", Old: encode(a[i])})
		case i >= len(a):
			*out = append(*out, JSONChange{Path: p, Op: "added", New: encode(b[i])})
		default:
			diffValues(p, a[i], b[i], out)
		}
	}
}

// encode marshals a decoded JSON value back to canonical JSON.
func encode(v any) json.RawMessage {
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // a value decoded from JSON always encodes
	return json.RawMessage(strings.TrimSuffix(buf.String(), "\n"))
}
