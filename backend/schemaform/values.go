package schemaform

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// ValuesOf returns the form values that show args (a JSON object, such as
// arguments used before) in the form, keyed like the values Arguments
// reads: every value that has a field fills it, arrays get one item per
// element, a union's branch is the one whose fields cover args best.
// values[RawField] holds args itself, indented, for the JSON view. Values
// of the wrong type for their field are left to the JSON view.
func ValuesOf(form Form, args json.RawMessage) map[string]string {
	values := map[string]string{}
	v, err := decodeOrdered(args)
	if err != nil {
		return values
	}
	fill(&form.Root, "", v, values)
	values[RawField] = indent(args)
	return values
}

// Defaults returns the values of a form nobody has filled in yet: the
// schema's defaults, to be seen, changed and sent, and the arguments they
// make in the JSON view.
func (f Form) Defaults() map[string]string {
	values := map[string]string{}
	defaults(&f.Root, "", values)
	if args, errs := Arguments(f, values); errs == nil {
		values[RawField] = indent(args)
	}
	return values
}

// FieldDefaults returns the values that show f's defaults at path: what
// a new array item starts with.
func FieldDefaults(f *Field, path string) map[string]string {
	values := map[string]string{}
	defaults(f, path, values)
	return values
}

// BranchDefaults returns the values that show the defaults of the fields
// of branch i of the union object f at path: what the branch starts with
// when the user chooses it.
func BranchDefaults(f *Field, path string, i int) map[string]string {
	values := map[string]string{}
	for _, c := range f.Branches[i].Fields {
		defaults(c, Join(path, c.Name), values)
	}
	return values
}

func defaults(f *Field, path string, values map[string]string) {
	if f.Default != nil {
		if v, err := decodeOrdered(f.Default); err == nil {
			fill(f, path, v, values)
			return
		}
	}
	if f.Kind != KindObject {
		return
	}
	for _, c := range f.Fields {
		defaults(c, Join(path, c.Name), values)
	}
	if len(f.Branches) > 0 {
		for _, c := range f.Branches[0].Fields {
			defaults(c, Join(path, c.Name), values)
		}
	}
}

// fill sets the values that show v in field f at path.
func fill(f *Field, path string, v any, values map[string]string) {
	if v == nil {
		if f.Nullable {
			values[path+NullSuffix] = "on"
		}
		return
	}
	switch f.Kind {
	case KindObject:
		o, ok := v.(*object)
		if !ok {
			return
		}
		for _, c := range f.Fields {
			if cv, ok := o.m[c.Name]; ok {
				fill(c, Join(path, c.Name), cv, values)
			}
		}
		if len(f.Branches) > 0 {
			b := bestBranch(f, o)
			values[path+ChoiceSuffix] = strconv.Itoa(b)
			for _, c := range f.Branches[b].Fields {
				if cv, ok := o.m[c.Name]; ok {
					fill(c, Join(path, c.Name), cv, values)
				}
			}
		}
	case KindArray:
		items, ok := v.([]any)
		if !ok {
			return
		}
		for i, item := range items {
			ip := Index(path, i)
			if item == nil || f.Item.Kind == KindObject || f.Item.Kind == KindArray {
				values[ip+ItemSuffix] = "" // the item is there even when nothing in it is filled in
			}
			fill(f.Item, ip, item, values)
		}
	case KindString:
		if s, ok := v.(string); ok {
			values[path] = s
		}
	case KindNumber, KindInteger:
		if n, ok := v.(json.Number); ok {
			values[path] = n.String()
		}
	case KindBoolean:
		if b, ok := v.(bool); ok {
			values[path] = strconv.FormatBool(b)
		}
	case KindEnum, KindMulti, KindJSON:
		values[path] = string(encode(v))
	}
}

// bestBranch picks the branch of a union whose fields hold the most of
// o's keys, preferring one whose single-choice (const) fields match.
func bestBranch(f *Field, o *object) int {
	best, bestScore := 0, -1
	for i, b := range f.Branches {
		score := 0
		for _, c := range b.Fields {
			v, ok := o.m[c.Name]
			if !ok {
				continue
			}
			score++
			if c.Kind == KindEnum && len(c.Options) == 1 {
				if c.Options[0].Value == string(encode(v)) {
					score += 100
				} else {
					score -= 100
				}
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

func indent(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}
