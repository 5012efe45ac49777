package schemaform_test

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcp-playground/playground/backend/schemaform"
)

func TestValidate(t *testing.T) {
	form := tripForm()
	tests := []struct {
		name string
		args string
		want map[string]string // nil: valid
	}{
		{"valid", `{"traveler": {"name": "Ada", "email": "ada@example.com"}, "itinerary": {"stops": [{"city": "Paris"}]}}`, nil},
		{"missing top-level objects at their fields", `{}`, map[string]string{"traveler": "This field is required.", "itinerary": "This field is required."}},
		{"missing nested field at its own field", `{"traveler": {"name": "Ada", "email": "ada@example.com"}, "itinerary": {"stops": [{"city": "Paris"}, {"nights": 2}]}}`,
			map[string]string{"itinerary.stops.1.city": "This field is required."}},
		{"allOf members both enforced", `{"traveler": {}, "itinerary": {"stops": [{"city": "P"}]}}`,
			map[string]string{"traveler.name": "This field is required.", "traveler.email": "This field is required."}},
		{"format, minimum and minItems", `{"traveler": {"name": "Ada", "email": "not-an-email"}, "itinerary": {"start": "someday", "stops": []}, "budget": -1}`,
			map[string]string{"traveler.email": "'not-an-email' is not valid email: missing @", "itinerary.start": "'someday' is not valid date: parsing time \"someday\" as \"2006-01-02\": cannot parse \"someday\" as \"2006\"",
				"itinerary.stops": "minItems: got 0, want 1", "budget": "minimum: got -1, want 0"}},
		{"union: the closest branch's errors", `{"traveler": {"name": "A", "email": "a@b.c"}, "itinerary": {"stops": [{"city": "P"}]}, "transport": {"mode": "car"}}`,
			map[string]string{"transport.seats": "This field is required."}},
		{"errors at an array item's field and a nullable field", `{"traveler": {"name": "A", "email": "a@b.c"}, "itinerary": {"stops": [{"city": "P", "nights": 0}]}, "notes": 5}`,
			map[string]string{"itinerary.stops.0.nights": "minimum: got 0, want 1", "notes": "got number, want null or string"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := schemaform.Validate(form, []byte(tt.args)); !maps.Equal(got, tt.want) {
				t.Errorf("Validate =\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestValidatePlacesUnknownPathsInTheJSONView(t *testing.T) {
	form := schemaform.Parse(json.RawMessage(`{"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}}`))
	got := schemaform.Validate(form, []byte(`{"a": "x", "b": "y"}`))
	if want := map[string]string{schemaform.RawField: "/b: got string, want integer"}; !maps.Equal(got, want) {
		t.Errorf("Validate = %q, want %q", got, want)
	}
}

func TestValidateDraft07(t *testing.T) {
	form := schemaform.Parse(json.RawMessage(`{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"type": "object",
		"definitions": {"point": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}},
		"properties": {"at": {"$ref": "#/definitions/point"}, "n": {"type": "integer", "exclusiveMaximum": 10}},
		"required": ["at"]
	}`))
	got := schemaform.Validate(form, []byte(`{"at": {}, "n": 10}`))
	want := map[string]string{"at.x": "This field is required.", "n": "exclusiveMaximum: got 10, want 10"}
	if !maps.Equal(got, want) {
		t.Errorf("Validate = %q, want %q", got, want)
	}
}

// A schema that refers to a network address is never fetched: the loader
// refuses, so the schema is not enforced and the server judges.
func TestValidateNeverLoadsNetworkReferences(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"type": "integer"}`))
	}))
	defer srv.Close()
	schema := `{"type": "object", "properties": {"n": {"$ref": "` + srv.URL + `/n.json"}, "local": {"type": "string"}}}`
	form := schemaform.Parse(json.RawMessage(schema))
	if got := schemaform.Validate(form, []byte(`{"n": "not an integer", "local": 1}`)); got != nil {
		t.Errorf("Validate with a network $ref = %v, want nil (not enforced)", got)
	}
	if hits.Load() != 0 {
		t.Errorf("the network $ref was fetched %d times", hits.Load())
	}
	if n := form.Root.Fields[0]; n.Kind != schemaform.KindJSON || !strings.Contains(n.Note, srv.URL) {
		t.Errorf("the network $ref's field: %+v", n)
	}
}

func TestValidateInvalidJSON(t *testing.T) {
	if got := schemaform.Validate(tripForm(), []byte(`{`)); got[schemaform.RawField] == "" {
		t.Errorf("Validate of invalid JSON = %v", got)
	}
	if got := schemaform.Validate(schemaform.Form{}, []byte(`{}`)); got != nil {
		t.Errorf("Validate without a schema = %v", got)
	}
}
