package collections_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend/collections"
)

func TestSubstitute(t *testing.T) {
	vars := collections.Variables{"name": json.RawMessage(`"Ada \"L\""`), "n": json.RawMessage(`42`), "obj": json.RawMessage(`{"a":[1]}`)}
	tests := []struct{ in, want string }{
		{`{"a":"{{name}}"}`, `{"a":"Ada \"L\""}`},
		{`{"a":"{{n}}"}`, `{"a":42}`},
		{`{"a":"{{obj}}"}`, `{"a":{"a":[1]}}`},
		{`{"a":"id {{ n }}, {{name}}!"}`, `{"a":"id 42, Ada \"L\"!"}`},
		{`{"a":["{{n}}",{"{{name}}":1}]}`, `{"a":[42,{"Ada \"L\"":1}]}`},
		{`{"a": "no placeholders", "b": 1.50}`, `{"a": "no placeholders", "b": 1.50}`},
		{`{"a":"{{not closed}"}`, `{"a":"{{not closed}"}`},
	}
	for _, tt := range tests {
		got, err := vars.Substitute(json.RawMessage(tt.in))
		if err != nil || string(got) != tt.want {
			t.Errorf("Substitute(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	_, err := vars.Substitute(json.RawMessage(`{"a":"{{x}} {{y}} {{x}}"}`))
	if err == nil || !strings.Contains(err.Error(), "{{x}}, {{y}}") {
		t.Errorf("missing variables: %v, want both named once", err)
	}
}
