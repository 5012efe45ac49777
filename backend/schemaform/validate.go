package schemaform

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Validate checks args against the form's schema (JSON Schema 2020-12
// unless the schema names another draft, such as draft-07), formats
// asserted. It returns errors keyed by the path of the field each belongs
// to, a missing property's at the property's own field ("address.city");
// errors at a place the form has no field for go under RawField, prefixed
// with their JSON pointer. It returns nil when args are valid. References
// outside the schema are never loaded; a schema that cannot be compiled
// is not enforced, the server is the judge then.
func Validate(form Form, args []byte) map[string]string {
	if len(bytes.TrimSpace(form.Schema)) == 0 {
		return nil
	}
	sch, err := Compile(form.Schema)
	if err != nil {
		return nil
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return map[string]string{RawField: "The arguments are not valid JSON."}
	}
	problems := Problems(sch, inst)
	if problems == nil {
		return nil
	}
	errs := map[string]string{}
	for _, pr := range problems {
		path := ""
		for _, seg := range pr.At {
			path = Join(path, seg)
		}
		if path != "" && form.has(path) {
			addError(errs, path, pr.Message)
			continue
		}
		addError(errs, RawField, pr.Pointer()+": "+pr.Message)
	}
	return errs
}

// Problem is one reason an instance does not match a schema: where it is
// (the instance location's segments) and why, in English.
type Problem struct {
	At      []string
	Message string
}

// Pointer is the problem's place as a JSON pointer ("/" for the root).
func (p Problem) Pointer() string { return "/" + strings.Join(p.At, "/") }

// Problems validates instance (as jsonschema.UnmarshalJSON reads it)
// against sch and returns why it does not match, nil when it does. Only
// the innermost errors are kept (see collectLeaves); a missing required
// property is reported at the property itself.
func Problems(sch *jsonschema.Schema, instance any) []Problem {
	var verr *jsonschema.ValidationError
	if err := sch.Validate(instance); !errors.As(err, &verr) {
		return nil
	}
	p := message.NewPrinter(language.English)
	var out []Problem
	collectLeaves(verr, func(e *jsonschema.ValidationError) {
		if r, ok := e.ErrorKind.(*kind.Required); ok {
			for _, m := range r.Missing {
				out = append(out, Problem{At: append(append([]string(nil), e.InstanceLocation...), m), Message: "This field is required."})
			}
			return
		}
		out = append(out, Problem{At: e.InstanceLocation, Message: e.ErrorKind.LocalizedString(p)})
	})
	if len(out) == 0 {
		out = append(out, Problem{Message: verr.Error()})
	}
	return out
}

// has reports whether the form has a field at path (array items at any
// index, the fields of every branch).
func (f Form) has(path string) bool {
	cur := []*Field{&f.Root}
	for _, seg := range splitPath(path) {
		var next []*Field
		for _, c := range cur {
			switch c.Kind {
			case KindArray:
				next = append(next, c.Item)
			case KindObject:
				for _, fields := range branchFields(c) {
					for _, g := range fields {
						if g.Name == seg {
							next = append(next, g)
						}
					}
				}
			}
		}
		if len(next) == 0 {
			return false
		}
		cur = next
	}
	return true
}

// branchFields lists an object's own fields and each branch's.
func branchFields(f *Field) [][]*Field {
	out := [][]*Field{f.Fields}
	for _, b := range f.Branches {
		out = append(out, b.Fields)
	}
	return out
}

// collectLeaves visits the innermost errors. Of a oneOf or anyOf that no
// alternative passed it visits only the alternative that came closest
// (see countLeaves), so that a form shows what its chosen branch lacks
// rather than what every other branch would need.
func collectLeaves(e *jsonschema.ValidationError, visit func(*jsonschema.ValidationError)) {
	if len(e.Causes) == 0 {
		visit(e)
		return
	}
	switch e.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		best, bestN := e.Causes[0], -1
		for _, c := range e.Causes {
			if n := countLeaves(c); bestN < 0 || n < bestN {
				best, bestN = c, n
			}
		}
		collectLeaves(best, visit)
		return
	}
	for _, c := range e.Causes {
		collectLeaves(c, visit)
	}
}

// countLeaves weighs an error tree: a const or enum mismatch, which says
// the instance is not of that alternative at all, outweighs any number of
// missing or wrong values.
func countLeaves(e *jsonschema.ValidationError) int {
	if len(e.Causes) == 0 {
		switch e.ErrorKind.(type) {
		case *kind.Const, *kind.Enum:
			return 1000
		}
		return 1
	}
	n := 0
	for _, c := range e.Causes {
		n += countLeaves(c)
	}
	return n
}

func addError(errs map[string]string, key, msg string) {
	if prev, ok := errs[key]; ok {
		if !strings.Contains(prev, msg) {
			errs[key] = prev + "; " + msg
		}
		return
	}
	errs[key] = msg
}

// Compile compiles a JSON Schema a server sent (2020-12 unless it names
// another draft). Formats are asserted, and no $ref leaves the schema
// (noLoader): a schema must not make the playground read files or fetch
// URLs.
func Compile(schema []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseLoader(noLoader{})
	const url = "urn:playground:schema"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}

// noLoader refuses every $ref outside the schema itself: a schema comes
// from a server, and must not make the playground read its host's files
// (the library's default) or fetch URLs.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema references %s: only references within the schema are followed", url)
}
