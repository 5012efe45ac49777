package schemaform

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// maxDepth bounds $ref chains and nesting: a recursive schema becomes a
// JSON field below it instead of an endless form.
const maxDepth = 12

// Parse builds the form of an object schema. Fields keep the order of the
// schema's properties. Local $ref ("#/$defs/…", "#/definitions/…", any
// JSON pointer into the schema) are followed; any other reference is
// never loaded, and its field is entered as JSON. allOf members are merged.
// An unreadable schema yields a form without fields.
func Parse(schema json.RawMessage) Form {
	form := Form{Root: Field{Kind: KindObject}, Schema: schema}
	doc, err := decodeOrdered(schema)
	root, ok := doc.(*object)
	if err != nil || !ok {
		return form
	}
	p := parser{root: root}
	s := p.resolve(root, 0)
	form.Root.Fields, form.Root.Branches = p.object(s, 0), p.branches(s, 0)
	return form
}

type parser struct{ root *object }

// resolve follows s's $ref and merges its allOf, returning a schema
// without either (nil when a reference cannot be followed).
func (p parser) resolve(s *object, depth int) *object {
	if s == nil || depth > maxDepth {
		return nil
	}
	if ref, ok := s.get("$ref").(string); ok {
		target := p.pointer(ref)
		if target == nil {
			return nil
		}
		merged := p.resolve(target, depth+1)
		if merged == nil {
			return nil
		}
		rest := s.clone()
		delete(rest.m, "$ref")
		rest.keys = slices.DeleteFunc(rest.keys, func(k string) bool { return k == "$ref" })
		s = mergeSchemas(merged, rest)
	}
	if all := s.list("allOf"); len(all) > 0 {
		out := s.clone()
		delete(out.m, "allOf")
		out.keys = slices.DeleteFunc(out.keys, func(k string) bool { return k == "allOf" })
		for _, m := range all {
			sub, _ := m.(*object)
			r := p.resolve(sub, depth+1)
			if r == nil {
				return nil
			}
			out = mergeSchemas(out, r)
		}
		s = out
	}
	return s
}

// pointer finds the schema a local reference names, or nil.
func (p parser) pointer(ref string) *object {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	var cur any = p.root
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch c := cur.(type) {
		case *object:
			cur = c.get(tok)
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	o, _ := cur.(*object)
	return o
}

// mergeSchemas returns a with b's keywords added: properties are united
// (a property in both is merged), required lists joined, other keywords
// of b fill what a lacks.
func mergeSchemas(a, b *object) *object {
	out := a.clone()
	for _, k := range b.keys {
		v := b.m[k]
		switch k {
		case "properties":
			props := &object{m: map[string]any{}}
			if ap := a.obj("properties"); ap != nil {
				props = ap.clone()
			}
			if bp, ok := v.(*object); ok {
				for _, name := range bp.keys {
					ao, aok := props.get(name).(*object)
					bo, bok := bp.m[name].(*object)
					if aok && bok {
						props.set(name, mergeSchemas(ao, bo))
					} else {
						props.set(name, bp.m[name])
					}
				}
			}
			out.set("properties", props)
		case "required":
			req := append([]any(nil), a.list("required")...)
			for _, r := range b.list("required") {
				if !slices.Contains(req, r) {
					req = append(req, r)
				}
			}
			out.set("required", req)
		default:
			if _, ok := out.m[k]; !ok {
				out.set(k, v)
			}
		}
	}
	return out
}

// object returns the fields of an object schema's properties.
func (p parser) object(s *object, depth int) []*Field {
	if s == nil {
		return nil
	}
	props := s.obj("properties")
	if props == nil {
		return nil
	}
	required := map[string]bool{}
	for _, r := range s.list("required") {
		if name, ok := r.(string); ok {
			required[name] = true
		}
	}
	fields := make([]*Field, 0, len(props.keys))
	for _, name := range props.keys {
		sub, _ := props.m[name].(*object)
		f := p.field(sub, depth+1)
		f.Name, f.Required = name, required[name]
		fields = append(fields, f)
	}
	return fields
}

// field builds the field of one schema.
func (p parser) field(raw *object, depth int) *Field {
	s := p.resolve(raw, depth)
	if s == nil {
		note := "The schema of this value could not be followed"
		if raw != nil {
			if ref, ok := raw.get("$ref").(string); ok {
				note = "The schema refers to " + ref + ", outside itself, which is never loaded"
			}
		}
		return &Field{Kind: KindJSON, Note: note + "; enter the value as JSON."}
	}
	if depth > maxDepth {
		return &Field{Kind: KindJSON, Note: "Nested too deeply for a form; enter the value as JSON."}
	}
	f := &Field{Title: s.str("title"), Description: s.str("description"), Format: s.str("format"), Pattern: s.str("pattern")}
	if d, ok := s.m["default"]; ok {
		f.Default = encode(d)
	}
	f.Minimum, f.Maximum = number(s, "minimum", "exclusiveMinimum"), number(s, "maximum", "exclusiveMaximum")
	f.MinLength, f.MaxLength = count(s, "minLength"), count(s, "maxLength")
	f.MinItems, f.MaxItems = count(s, "minItems"), count(s, "maxItems")

	types := typeList(s.get("type"))
	if i := slices.Index(types, "null"); i >= 0 {
		f.Nullable = true
		types = slices.Delete(types, i, i+1)
	}
	// {"anyOf": [X, {"type": "null"}]} is a nullable X.
	for _, key := range []string{"anyOf", "oneOf"} {
		if alts := s.list(key); len(alts) == 2 && len(types) == 0 {
			for i, alt := range alts {
				if o, ok := alt.(*object); ok && slices.Equal(typeList(o.get("type")), []string{"null"}) && len(o.keys) == 1 {
					other, _ := alts[1-i].(*object)
					inner := p.field(other, depth)
					inner.Nullable = true
					inner.Name, inner.Title, inner.Description = "", firstNonEmpty(f.Title, inner.Title), firstNonEmpty(f.Description, inner.Description)
					if f.Default != nil {
						inner.Default = f.Default
					}
					return inner
				}
			}
		}
	}

	if opts := options(s); opts != nil {
		f.Kind, f.Options = KindEnum, opts
		if _, isConst := s.m["const"]; isConst && f.Default == nil {
			f.Default = json.RawMessage(opts[0].Value) // the only value there is
		}
		return f
	}
	if len(types) > 1 {
		f.Kind, f.Note = KindJSON, "The value may be any of "+strings.Join(types, ", ")+"; enter it as JSON."
		return f
	}
	t := ""
	if len(types) == 1 {
		t = types[0]
	} else if s.get("properties") != nil || s.get("oneOf") != nil || s.get("anyOf") != nil {
		t = "object"
	}
	switch t {
	case "string", "number", "integer", "boolean":
		f.Kind = Kind(t)
	case "object":
		f.Kind = KindObject
		f.Fields = p.object(s, depth)
		f.Branches = p.branches(s, depth)
		if f.Branches == nil && (s.get("oneOf") != nil || s.get("anyOf") != nil) {
			f.Kind, f.Note = KindJSON, "The value is one of several schemas that a form cannot tell apart; enter it as JSON."
		}
	case "array":
		items, ok := s.get("items").(*object)
		if !ok || s.get("prefixItems") != nil {
			f.Kind, f.Note = KindJSON, "A list whose items have no single schema; enter it as JSON."
			return f
		}
		item := p.field(items, depth+1)
		if item.Kind == KindEnum && !item.Nullable {
			f.Kind, f.Options = KindMulti, item.Options
			return f
		}
		f.Kind, f.Item = KindArray, item
	default:
		f.Kind, f.Note = KindJSON, "The schema gives no type a form can offer; enter the value as JSON."
	}
	return f
}

// branches returns the alternatives of an object's oneOf or anyOf when
// every one of them is an object schema with properties; nil otherwise.
func (p parser) branches(s *object, depth int) []Branch {
	for _, key := range []string{"oneOf", "anyOf"} {
		alts := s.list(key)
		if len(alts) == 0 {
			continue
		}
		out := make([]Branch, 0, len(alts))
		for i, alt := range alts {
			o, _ := alt.(*object)
			r := p.resolve(o, depth)
			if r == nil || r.obj("properties") == nil {
				return nil
			}
			title := r.str("title")
			if title == "" {
				title = "Option " + strconv.Itoa(i+1)
			}
			out = append(out, Branch{Title: title, Fields: p.object(r, depth)})
		}
		return out
	}
	return nil
}

// options returns the choices of a schema given as enum (labelled by
// enumNames when it has one name per member), as a const, or as a oneOf
// or anyOf of titled consts; nil when it has none.
func options(s *object) []Option {
	if enum := s.list("enum"); len(enum) > 0 {
		names := s.list("enumNames")
		opts := make([]Option, len(enum))
		for i, v := range enum {
			label := labelOf(v)
			if len(names) == len(enum) {
				if n, ok := names[i].(string); ok && n != "" {
					label = n
				}
			}
			opts[i] = Option{Value: string(encode(v)), Label: label}
		}
		return opts
	}
	if c, ok := s.m["const"]; ok {
		return []Option{{Value: string(encode(c)), Label: firstNonEmpty(s.str("title"), labelOf(c))}}
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		alts := s.list(key)
		if len(alts) == 0 {
			continue
		}
		opts := make([]Option, 0, len(alts))
		for _, alt := range alts {
			o, _ := alt.(*object)
			if o == nil {
				return nil
			}
			c, has := o.m["const"]
			if !has {
				return nil
			}
			opts = append(opts, Option{Value: string(encode(c)), Label: firstNonEmpty(o.str("title"), labelOf(c))})
		}
		return opts
	}
	return nil
}

func labelOf(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return string(encode(v))
}

func typeList(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// number returns the first of keys that holds a number (a draft-04 style
// boolean exclusiveMinimum is skipped).
func number(s *object, keys ...string) *float64 {
	for _, k := range keys {
		if n, ok := s.get(k).(json.Number); ok {
			if f, err := n.Float64(); err == nil {
				return &f
			}
		}
	}
	return nil
}

func count(s *object, key string) *int {
	if n, ok := s.get(key).(json.Number); ok {
		if i, err := n.Int64(); err == nil && i >= 0 {
			v := int(i)
			return &v
		}
	}
	return nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
