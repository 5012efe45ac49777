package backend_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

func TestCheckStructuredContent(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"},"t":{"type":"number"}},"required":["city","t"]}`)
	tests := []struct {
		name       string
		schema     json.RawMessage
		structured json.RawMessage
		isError    bool
		want       backend.VerdictKind
		wantErr    string // a substring of one error
	}{
		{"no schema", nil, json.RawMessage(`{"a":1}`), false, backend.VerdictNoSchema, ""},
		{"null schema", json.RawMessage(`null`), nil, false, backend.VerdictNoSchema, ""},
		{"match", schema, json.RawMessage(`{"city":"Paris","t":21.5}`), false, backend.VerdictMatch, ""},
		{"wrong type", schema, json.RawMessage(`{"city":"Paris","t":"warm"}`), false, backend.VerdictMismatch, "/t: "},
		{"missing property", schema, json.RawMessage(`{"city":"Paris"}`), false, backend.VerdictMismatch, "t"},
		{"no structuredContent", schema, nil, false, backend.VerdictMissing, ""},
		{"tool error without structuredContent", schema, nil, true, backend.VerdictNotApplicable, ""},
		{"schema that does not compile", json.RawMessage(`{"type":12}`), json.RawMessage(`{}`), false, backend.VerdictBadSchema, ""},
		{"network $ref is not fetched", json.RawMessage(`{"$ref":"https://example.com/s.json"}`), json.RawMessage(`{}`), false, backend.VerdictBadSchema, "only references within the schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := backend.CheckStructuredContent(tt.schema, tt.structured, tt.isError)
			if v.Kind != tt.want {
				t.Fatalf("verdict = %+v, want %s", v, tt.want)
			}
			if tt.wantErr != "" && !strings.Contains(strings.Join(v.Errors, "\n"), tt.wantErr) {
				t.Errorf("errors = %q, want one with %q", v.Errors, tt.wantErr)
			}
			if (v.Kind == backend.VerdictMismatch || v.Kind == backend.VerdictBadSchema) && len(v.Errors) == 0 {
				t.Error("a failing verdict without errors")
			}
		})
	}
}
