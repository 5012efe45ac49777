package lint

import (
	"errors"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// maxToolSchemas bounds how many tools' output schemas a Linter keeps.
const maxToolSchemas = 512

// toolSchemas are the outputSchemas the server's tools/list results
// declared, by tool name, compiled when first used (nil when a schema
// does not compile: it is not judged).
type toolSchemas struct {
	declared map[string]any
	compiled map[string]*jsonschema.Schema
}

// learnTools notes the outputSchema of each tool of a tools/list result;
// a later list replaces what an earlier one said of a tool.
func (l *Linter) learnTools(m *msg) {
	tools, _ := objectOf(m.m["result"])["tools"].([]any)
	ts := &l.tools
	if ts.declared == nil {
		ts.declared, ts.compiled = map[string]any{}, map[string]*jsonschema.Schema{}
	}
	for _, t := range tools {
		tool := objectOf(t)
		name, ok := tool["name"].(string)
		if !ok {
			continue
		}
		delete(ts.compiled, name)
		schema, has := tool["outputSchema"]
		switch {
		case !has:
			delete(ts.declared, name)
		case len(ts.declared) < maxToolSchemas:
			ts.declared[name] = schema
		}
	}
}

// outputSchema is the compiled outputSchema of tool, nil when it
// declared none or it does not compile. Schemas reach nothing outside
// themselves: a $ref to another document fails to compile.
func (ts *toolSchemas) outputSchema(tool string) *jsonschema.Schema {
	declared, ok := ts.declared[tool]
	if !ok {
		return nil
	}
	if sch, ok := ts.compiled[tool]; ok {
		return sch
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(jsonschema.SchemeURLLoader{})
	url := "urn:mcp-playground:tool-output"
	var sch *jsonschema.Schema
	if c.AddResource(url, declared) == nil {
		sch, _ = c.Compile(url)
	}
	ts.compiled[tool] = sch
	return sch
}

// structured checks a tools/call result against the outputSchema its
// tool declared: a result that is not an error carries structuredContent
// that matches it.
func (l *Linter) structured(m *msg, out *findings) {
	sch := l.tools.outputSchema(m.target)
	r := objectOf(m.m["result"])
	if sch == nil || r["isError"] == true {
		return
	}
	sc, ok := r["structuredContent"]
	if !ok {
		out.add(ruleStructured, m.ptr("result"), fmt.Sprintf("The tool %q declares an outputSchema, but its result has no structuredContent.", m.target))
		return
	}
	var ve *jsonschema.ValidationError
	if err := sch.Validate(sc); !errors.As(err, &ve) {
		return
	}
	leaf := deepest(ve)
	ptr := m.ptr("result", "structuredContent") + pointerOf(leaf.InstanceLocation...)
	out.add(ruleStructured, ptr, fmt.Sprintf("The structuredContent does not match the outputSchema of the tool %q: %s.", m.target,
		leaf.ErrorKind.LocalizedString(message.NewPrinter(language.English))))
}
