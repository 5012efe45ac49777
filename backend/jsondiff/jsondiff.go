// Package jsondiff compares two JSON documents structurally: objects key by
// key, arrays index by index, scalars by value. It reports each difference
// at its JSON Pointer (RFC 6901) and can ignore volatile paths.
package jsondiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Kind says how a value differs.
type Kind string

const (
	Added   Kind = "added"   // only the new document has the path
	Removed Kind = "removed" // only the old document has the path
	Changed Kind = "changed" // both have it, with different values or types
)

// Change is one difference. Old is nil for Added, New is nil for Removed;
// both hold the JSON text of the values at Path.
type Change struct {
	Path string          `json:"path"`
	Kind Kind            `json:"kind"`
	Old  json.RawMessage `json:"old,omitempty"`
	New  json.RawMessage `json:"new,omitempty"`
}

// Diff returns the differences from old to new, in path order (object keys
// sorted, array indexes ascending), leaving out every path that ignore
// matches, and everything under it. ignore holds JSON Pointers whose
// segments may be "*", which matches any one key or index: "/_meta",
// "/content/*/text". An invalid document is an error; a nil or empty
// document is JSON null.
func Diff(old, new json.RawMessage, ignore []string) ([]Change, error) {
	o, err := decode(old)
	if err != nil {
		return nil, fmt.Errorf("jsondiff: old document: %w", err)
	}
	n, err := decode(new)
	if err != nil {
		return nil, fmt.Errorf("jsondiff: new document: %w", err)
	}
	d := differ{ignore: parsePatterns(ignore)}
	d.walk(nil, o, n)
	return d.changes, nil
}

// ValidPointer reports whether p is a pattern Diff accepts: "" (the whole
// document) or a string that starts with "/".
func ValidPointer(p string) bool { return p == "" || strings.HasPrefix(p, "/") }

func decode(doc json.RawMessage) (any, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

type differ struct {
	ignore  [][]string
	changes []Change
}

func (d *differ) walk(path []string, o, n any) {
	if d.ignored(path) {
		return
	}
	switch ov := o.(type) {
	case map[string]any:
		if nv, ok := n.(map[string]any); ok {
			d.objects(path, ov, nv)
			return
		}
	case []any:
		if nv, ok := n.([]any); ok {
			d.arrays(path, ov, nv)
			return
		}
	default:
		if sameScalar(o, n) {
			return
		}
	}
	d.add(path, Changed, o, n)
}

func (d *differ) objects(path []string, o, n map[string]any) {
	keys := make([]string, 0, len(o)+len(n))
	for k := range o {
		keys = append(keys, k)
	}
	for k := range n {
		if _, ok := o[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := append(path[:len(path):len(path)], k)
		ov, inOld := o[k]
		nv, inNew := n[k]
		switch {
		case !inNew:
			if !d.ignored(p) {
				d.add(p, Removed, ov, nil)
			}
		case !inOld:
			if !d.ignored(p) {
				d.add(p, Added, nil, nv)
			}
		default:
			d.walk(p, ov, nv)
		}
	}
}

func (d *differ) arrays(path []string, o, n []any) {
	for i := range max(len(o), len(n)) {
		p := append(path[:len(path):len(path)], strconv.Itoa(i))
		switch {
		case i >= len(n):
			if !d.ignored(p) {
				d.add(p, Removed, o[i], nil)
			}
		case i >= len(o):
			if !d.ignored(p) {
				d.add(p, Added, nil, n[i])
			}
		default:
			d.walk(p, o[i], n[i])
		}
	}
}

// sameScalar compares two scalars (or a scalar and a container); numbers
// are equal when their values are, whatever their spelling (1 and 1.0).
func sameScalar(o, n any) bool {
	on, ok1 := o.(json.Number)
	nn, ok2 := n.(json.Number)
	if ok1 && ok2 {
		if on == nn {
			return true
		}
		of, err1 := on.Float64()
		nf, err2 := nn.Float64()
		return err1 == nil && err2 == nil && of == nf
	}
	return reflect.DeepEqual(o, n)
}

func (d *differ) add(path []string, kind Kind, o, n any) {
	c := Change{Path: pointer(path), Kind: kind}
	if kind != Added {
		c.Old = marshal(o)
	}
	if kind != Removed {
		c.New = marshal(n)
	}
	d.changes = append(d.changes, c)
}

func marshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil { // cannot happen: v came from decoding JSON
		return json.RawMessage("null")
	}
	return b
}

// ignored reports whether a pattern matches path or one of its ancestors.
func (d *differ) ignored(path []string) bool {
	for _, pat := range d.ignore {
		if len(pat) > len(path) {
			continue
		}
		match := true
		for i, seg := range pat {
			if seg != "*" && seg != path[i] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

var (
	escaper   = strings.NewReplacer("~", "~0", "/", "~1")
	unescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

func pointer(path []string) string {
	var b strings.Builder
	for _, seg := range path {
		b.WriteByte('/')
		b.WriteString(escaper.Replace(seg))
	}
	return b.String()
}

// parsePatterns splits each valid pattern into unescaped segments; invalid
// ones (not starting with "/") are skipped.
func parsePatterns(ps []string) [][]string {
	var out [][]string
	for _, p := range ps {
		if !ValidPointer(p) {
			continue
		}
		if p == "" {
			out = append(out, []string{})
			continue
		}
		segs := strings.Split(p[1:], "/")
		for i, s := range segs {
			segs[i] = unescaper.Replace(s)
		}
		out = append(out, segs)
	}
	return out
}
