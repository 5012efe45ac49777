package backend

import (
	"strings"

	"github.com/yosida95/uritemplate/v3"
)

// TemplateVariables returns the variables of an RFC 6570 URI template, in
// the order they first appear; an EInvalid *Error when the template is not
// valid.
func TemplateVariables(tmpl string) ([]string, error) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return nil, Errorf(EInvalid, "The URI template %q is not valid: %v", tmpl, err)
	}
	return t.Varnames(), nil
}

// ExpandTemplate expands an RFC 6570 URI template (levels 1 to 4) with
// values by variable name. A variable left blank is undefined, as the RFC
// says of a missing value: its expression expands to nothing, or drops the
// variable from a {?x,y} query. A value with commas fills an exploded or
// list variable ({/path*}) item by item when the template marks it with *.
func ExpandTemplate(tmpl string, values map[string]string) (string, error) {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return "", Errorf(EInvalid, "The URI template %q is not valid: %v", tmpl, err)
	}
	exploded := explodedVariables(tmpl)
	vals := uritemplate.Values{}
	for _, name := range t.Varnames() {
		v := values[name]
		if v == "" {
			continue
		}
		if exploded[name] {
			vals.Set(name, uritemplate.List(strings.Split(v, ",")...))
		} else {
			vals.Set(name, uritemplate.String(v))
		}
	}
	out, err := t.Expand(vals)
	if err != nil {
		return "", Errorf(EInvalid, "The URI template %q could not be expanded: %v", tmpl, err)
	}
	return out, nil
}

// explodedVariables returns the names that the template marks with the
// explode modifier (*).
func explodedVariables(tmpl string) map[string]bool {
	out := map[string]bool{}
	for {
		open := strings.IndexByte(tmpl, '{')
		if open < 0 {
			return out
		}
		end := strings.IndexByte(tmpl[open:], '}')
		if end < 0 {
			return out
		}
		expr := strings.TrimLeft(tmpl[open+1:open+end], "+#./;?&=,!@|")
		for _, spec := range strings.Split(expr, ",") {
			if name, ok := strings.CutSuffix(spec, "*"); ok {
				out[name] = true
			}
		}
		tmpl = tmpl[open+end+1:]
	}
}
