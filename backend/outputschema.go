package backend

import (
	"bytes"
	"encoding/json"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcp-playground/playground/backend/schemaform"
)

// VerdictKind says how a tool result's structuredContent relates to the
// tool's outputSchema.
type VerdictKind string

const (
	VerdictNoSchema      VerdictKind = "no-schema"      // the tool declares no outputSchema
	VerdictMatch         VerdictKind = "match"          // structuredContent matches the outputSchema
	VerdictMismatch      VerdictKind = "mismatch"       // structuredContent does not match; Errors say why
	VerdictMissing       VerdictKind = "missing"        // the tool has an outputSchema but the result no structuredContent
	VerdictBadSchema     VerdictKind = "bad-schema"     // the outputSchema cannot be compiled; Errors say why
	VerdictNotApplicable VerdictKind = "not-applicable" // an isError result, which the spec exempts
)

// SchemaVerdict is the check of a result's structuredContent against the
// tool's outputSchema.
type SchemaVerdict struct {
	Kind   VerdictKind
	Errors []string // "/path: message", for VerdictMismatch and VerdictBadSchema
}

// CheckStructuredContent validates a tools/call result's structuredContent
// against the tool's outputSchema. A tool error (isError) need not carry
// structuredContent, so its missing content is VerdictNotApplicable.
func CheckStructuredContent(outputSchema, structured json.RawMessage, isError bool) SchemaVerdict {
	if len(bytes.TrimSpace(outputSchema)) == 0 || string(bytes.TrimSpace(outputSchema)) == "null" {
		return SchemaVerdict{Kind: VerdictNoSchema}
	}
	if len(bytes.TrimSpace(structured)) == 0 || string(bytes.TrimSpace(structured)) == "null" {
		if isError {
			return SchemaVerdict{Kind: VerdictNotApplicable}
		}
		return SchemaVerdict{Kind: VerdictMissing}
	}
	sch, err := schemaform.Compile(outputSchema)
	if err != nil {
		return SchemaVerdict{Kind: VerdictBadSchema, Errors: []string{err.Error()}}
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(structured))
	if err != nil {
		return SchemaVerdict{Kind: VerdictMismatch, Errors: []string{"structuredContent is not valid JSON"}}
	}
	problems := schemaform.Problems(sch, inst)
	if problems == nil {
		return SchemaVerdict{Kind: VerdictMatch}
	}
	msgs := make([]string, len(problems))
	for i, pr := range problems {
		msgs[i] = pr.Pointer() + ": " + pr.Message
	}
	return SchemaVerdict{Kind: VerdictMismatch, Errors: msgs}
}
