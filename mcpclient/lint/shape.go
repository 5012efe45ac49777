package lint

import (
	"encoding/json"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Validating a message against its definition costs more than anything
// else a Linter does, and a session's messages mostly repeat a few shapes
// with other values. So a spec remembers the shapes of the values it found
// valid, and a value of a remembered shape is valid without validating it
// again. A shape is remembered by a 64-bit hash of it under a seed drawn
// for the process, so that no sender can aim two shapes at one hash.
//
// A shape keeps of a value everything the version's schema can tell
// apart: the structure (every member name, every array's length), the
// booleans and nulls, a string only when the schema names it (in a const
// or an enum: a method, a content type, a log level), an integer only as
// where it falls among the numbers the schema names (its minimum, maximum,
// const and enum values), and any other number whole. The schemas use no
// keyword that looks at more (checked as a spec is read: no pattern,
// length bound, uniqueItems or multipleOf; formats are annotations, see
// loadSpec), so two values of one shape match the same definitions. Only
// valid verdicts are kept: an invalid value is validated every time, for
// its own message.

// maxShapes bounds the shapes a spec remembers; past it, it starts over.
const maxShapes = 4096

// shapeKeywords are the keywords of a schema whose verdict shapes keep.
var shapeKeywords = map[string]bool{
	"$schema": true, "$defs": true, "definitions": true, "$ref": true, "description": true, "title": true,
	"type": true, "properties": true, "required": true, "additionalProperties": true, "items": true,
	"anyOf": true, "oneOf": true, "allOf": true, "const": true, "enum": true, "minimum": true, "maximum": true,
	"maxItems": true, "minItems": true, "format": true, "default": true, "examples": true, "deprecated": true,
}

// shapeRules gathers from a schema document the strings and numbers it
// names, and reports whether it uses only shapeKeywords.
type shapeRules struct {
	names   map[string]bool
	numbers []float64 // sorted
}

func newShapeRules(doc any) (*shapeRules, bool) {
	r := &shapeRules{names: map[string]bool{}}
	if !r.gather(doc, false) {
		return nil, false
	}
	slices.Sort(r.numbers)
	r.numbers = slices.Compact(r.numbers)
	return r, true
}

// gather walks a schema (or, with named, a const or enum value).
func (r *shapeRules) gather(v any, named bool) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, sub := range v {
			switch {
			case named:
				r.names[k] = true
				if !r.gather(sub, true) {
					return false
				}
			case k == "properties" || k == "$defs" || k == "definitions":
				for _, p := range objectOf(sub) {
					if !r.gather(p, false) {
						return false
					}
				}
			case !shapeKeywords[k]:
				return false
			case k == "const" || k == "enum" || k == "minimum" || k == "maximum":
				if !r.gather(sub, true) {
					return false
				}
			case k == "description" || k == "title" || k == "default" || k == "examples" || k == "required" || k == "type" || k == "format":
			default:
				if !r.gather(sub, false) {
					return false
				}
			}
		}
	case []any:
		for _, sub := range v {
			if !r.gather(sub, named) {
				return false
			}
		}
	case string:
		if named {
			r.names[v] = true
		}
	case json.Number:
		if f, err := v.Float64(); err == nil && named {
			r.numbers = append(r.numbers, f)
		}
	}
	return true
}

// shapeSeed is the seed of every shape hash.
var shapeSeed = maphash.MakeSeed()

// shapeOf is the hash of the shape of v under def, as a map key.
func (r *shapeRules) shapeOf(def string, v any) uint64 {
	var h maphash.Hash
	h.SetSeed(shapeSeed)
	h.WriteString(def)
	h.WriteByte(0)
	r.write(&h, v)
	return h.Sum64()
}

func (r *shapeRules) write(b *maphash.Hash, v any) {
	switch v := v.(type) {
	case map[string]any:
		var stack [8]string
		keys := stack[:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for _, k := range keys {
			writeText(b, k)
			r.write(b, v[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for _, e := range v {
			r.write(b, e)
		}
		b.WriteByte(']')
	case string:
		if r.names[v] {
			b.WriteByte('=')
			writeText(b, v)
		} else {
			b.WriteByte('s')
		}
	case json.Number:
		r.writeNumber(b, v)
	case bool:
		b.WriteByte("ft"[boolIndex(v)])
	default:
		b.WriteByte('z')
	}
}

// writeNumber writes an integer that float64 holds exactly as its place
// among the schema's numbers: 2i when it lies between the i-th and the
// next, 2i+1 when it equals the i-th; any other number whole.
func (r *shapeRules) writeNumber(b *maphash.Hash, n json.Number) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || strings.ContainsAny(string(n), ".eE") || math.Abs(f) > 1<<53 {
		b.WriteByte('n')
		writeText(b, string(n))
		return
	}
	i, found := slices.BinarySearch(r.numbers, f)
	place := 2 * i
	if found {
		place++
	}
	b.WriteByte('i')
	var digits [20]byte
	b.Write(strconv.AppendInt(digits[:0], int64(place), 10))
	b.WriteByte(';')
}

// writeText writes s with its length first, so that no two texts run
// together alike.
func writeText(b *maphash.Hash, s string) {
	var digits [20]byte
	b.Write(strconv.AppendInt(digits[:0], int64(len(s)), 10))
	b.WriteByte(':')
	b.WriteString(s)
}

func boolIndex(v bool) int {
	if v {
		return 1
	}
	return 0
}
