package collections

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Variables are the values a run substitutes for {{name}} in the params of
// its examples: an environment's values (JSON strings) and values captured
// from earlier answers (any JSON).
type Variables map[string]json.RawMessage

// variableName is what a variable may be called.
var variableName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)
})

// placeholder finds {{name}} (spaces inside the braces allowed).
var placeholder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}`)
})

// Substitute replaces the placeholders in the string values (and object
// keys) of params: a string that is one placeholder alone becomes the
// variable's JSON value (so a captured number stays a number); a
// placeholder inside longer text becomes the value's text (a string
// unquoted, anything else as JSON). A placeholder without a value is an
// error naming every missing variable; params without placeholders come
// back unchanged, byte for byte.
func (v Variables) Substitute(params json.RawMessage) (json.RawMessage, error) {
	if len(params) == 0 || !placeholder().Match(params) {
		return params, nil
	}
	var doc any
	if err := json.Unmarshal(params, &doc); err != nil {
		return nil, fmt.Errorf("the params are not JSON: %v", err)
	}
	var missing []string
	out := v.substitute(doc, &missing)
	if len(missing) > 0 {
		slices.Sort(missing)
		missing = slices.Compact(missing)
		return nil, fmt.Errorf("no value for %s: define it in the environment, or capture it in an earlier example", strings.Join(missing, ", "))
	}
	return json.Marshal(out)
}

func (v Variables) substitute(doc any, missing *[]string) any {
	switch d := doc.(type) {
	case string:
		if m := placeholder().FindStringSubmatch(d); m != nil && m[0] == d {
			val, ok := v[m[1]]
			if !ok {
				*missing = append(*missing, "{{"+m[1]+"}}")
				return d
			}
			return val
		}
		return v.text(d, missing)
	case map[string]any:
		out := make(map[string]any, len(d))
		for k, e := range d {
			out[v.text(k, missing)] = v.substitute(e, missing)
		}
		return out
	case []any:
		out := make([]any, len(d))
		for i, e := range d {
			out[i] = v.substitute(e, missing)
		}
		return out
	}
	return doc
}

// text replaces every placeholder within s by its value's text.
func (v Variables) text(s string, missing *[]string) string {
	return placeholder().ReplaceAllStringFunc(s, func(p string) string {
		name := placeholder().FindStringSubmatch(p)[1]
		val, ok := v[name]
		if !ok {
			*missing = append(*missing, "{{"+name+"}}")
			return p
		}
		var str string
		if json.Unmarshal(val, &str) == nil {
			return str
		}
		return string(val)
	})
}
