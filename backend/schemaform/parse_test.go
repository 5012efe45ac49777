package schemaform_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcp-playground/playground/backend/schemaform"
)

func ptr[T any](v T) *T { return &v }

// field finds the field at a dotted path of names (array items as "[]",
// a union's branch fields by name).
func field(t *testing.T, form schemaform.Form, names ...string) *schemaform.Field {
	t.Helper()
	cur := &form.Root
	for _, n := range names {
		if n == "[]" {
			if cur.Item == nil {
				t.Fatalf("%v: %q has no items", names, cur.Name)
			}
			cur = cur.Item
			continue
		}
		var next *schemaform.Field
		all := append([]*schemaform.Field(nil), cur.Fields...)
		for _, b := range cur.Branches {
			all = append(all, b.Fields...)
		}
		for _, f := range all {
			if f.Name == n {
				next = f
				break
			}
		}
		if next == nil {
			t.Fatalf("%v: no field %q", names, n)
		}
		cur = next
	}
	return cur
}

func TestParseScalarsEnumsAndLimits(t *testing.T) {
	form := schemaform.Parse(json.RawMessage(`{
		"type": "object",
		"properties": {
			"zeta":  {"type": "string", "title": "Zeta", "description": "first although it sorts last", "minLength": 2, "maxLength": 9, "pattern": "^z"},
			"count": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
			"ratio": {"type": "number", "exclusiveMinimum": 0},
			"loud":  {"type": "boolean"},
			"color": {"enum": ["red", "green", 3], "enumNames": ["Red", "Green", "Three"], "default": "green"},
			"size":  {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
			"level": {"anyOf": [{"const": 1, "title": "Low"}, {"const": 2}]},
			"tags":  {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 1},
			"when":  {"type": "string", "format": "date-time"},
			"either": {"type": ["string", "number"]}
		},
		"required": ["zeta", "count"]
	}`))
	var names []string
	for _, f := range form.Root.Fields {
		names = append(names, f.Name)
	}
	if want := []string{"zeta", "count", "ratio", "loud", "color", "size", "level", "tags", "when", "either"}; !reflect.DeepEqual(names, want) {
		t.Errorf("field order %v, want the schema's %v", names, want)
	}
	tests := []struct {
		name string
		got  *schemaform.Field
		want schemaform.Field
	}{
		{"string with lengths and pattern", field(t, form, "zeta"), schemaform.Field{Name: "zeta", Title: "Zeta", Description: "first although it sorts last",
			Kind: schemaform.KindString, Required: true, MinLength: ptr(2), MaxLength: ptr(9), Pattern: "^z"}},
		{"integer with range and default", field(t, form, "count"), schemaform.Field{Name: "count", Kind: schemaform.KindInteger, Required: true,
			Default: json.RawMessage("3"), Minimum: ptr(1.0), Maximum: ptr(10.0)}},
		{"exclusive minimum as a bound", field(t, form, "ratio"), schemaform.Field{Name: "ratio", Kind: schemaform.KindNumber, Minimum: ptr(0.0)}},
		{"boolean", field(t, form, "loud"), schemaform.Field{Name: "loud", Kind: schemaform.KindBoolean}},
		{"enum labelled by enumNames", field(t, form, "color"), schemaform.Field{Name: "color", Kind: schemaform.KindEnum, Default: json.RawMessage(`"green"`),
			Options: []schemaform.Option{{`"red"`, "Red"}, {`"green"`, "Green"}, {"3", "Three"}}}},
		{"titled oneOf consts", field(t, form, "size"), schemaform.Field{Name: "size", Kind: schemaform.KindEnum,
			Options: []schemaform.Option{{`"s"`, "Small"}, {`"l"`, "Large"}}}},
		{"anyOf consts, one untitled", field(t, form, "level"), schemaform.Field{Name: "level", Kind: schemaform.KindEnum,
			Options: []schemaform.Option{{"1", "Low"}, {"2", "2"}}}},
		{"array of choices is a multi-select", field(t, form, "tags"), schemaform.Field{Name: "tags", Kind: schemaform.KindMulti, MinItems: ptr(1),
			Options: []schemaform.Option{{`"a"`, "a"}, {`"b"`, "b"}}}},
		{"format", field(t, form, "when"), schemaform.Field{Name: "when", Kind: schemaform.KindString, Format: "date-time"}},
		{"several types: JSON", field(t, form, "either"), schemaform.Field{Name: "either", Kind: schemaform.KindJSON,
			Note: "The value may be any of string, number; enter it as JSON."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !reflect.DeepEqual(*tt.got, tt.want) {
				t.Errorf("got\n%+v\nwant\n%+v", *tt.got, tt.want)
			}
		})
	}
}

// tripSchema (2020-12) has every structure a form builds: $defs and $ref,
// allOf, nested objects, an array of objects, a union, nullable fields.
const tripSchema = `{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"type": "object",
	"$defs": {
		"person": {"type": "object", "properties": {"name": {"type": "string", "minLength": 1}}, "required": ["name"]},
		"stop": {"type": "object", "properties": {"city": {"type": "string", "minLength": 1}, "nights": {"type": "integer", "minimum": 1, "default": 1}}, "required": ["city"]}
	},
	"properties": {
		"traveler": {"allOf": [{"$ref": "#/$defs/person"}, {"properties": {"email": {"type": "string", "format": "email"}}, "required": ["email"]}]},
		"itinerary": {"type": "object", "properties": {
			"start": {"type": "string", "format": "date"},
			"stops": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/stop"}},
			"tags": {"type": "array", "items": {"type": "string"}}
		}, "required": ["stops"]},
		"transport": {"type": "object", "oneOf": [
			{"title": "Train", "properties": {"mode": {"const": "train"}, "class": {"enum": ["first", "second"], "default": "second"}}, "required": ["mode"]},
			{"title": "Car", "properties": {"mode": {"const": "car"}, "seats": {"type": "integer", "minimum": 1}}, "required": ["mode", "seats"]}
		]},
		"notes": {"type": ["string", "null"]},
		"budget": {"anyOf": [{"type": "number", "minimum": 0}, {"type": "null"}], "description": "In euros."},
		"flexible": {"type": "boolean", "default": true}
	},
	"required": ["traveler", "itinerary"]
}`

func tripForm() schemaform.Form { return schemaform.Parse(json.RawMessage(tripSchema)) }

func TestParseStructures(t *testing.T) {
	form := tripForm()
	traveler := field(t, form, "traveler")
	if traveler.Kind != schemaform.KindObject || len(traveler.Fields) != 2 || !field(t, form, "traveler", "name").Required ||
		!field(t, form, "traveler", "email").Required || field(t, form, "traveler", "email").Format != "email" {
		t.Errorf("allOf of a $ref and an object: not merged into name and email, both required: %+v", traveler)
	}
	stops := field(t, form, "itinerary", "stops")
	if stops.Kind != schemaform.KindArray || stops.MinItems == nil || *stops.MinItems != 1 || stops.Item.Kind != schemaform.KindObject {
		t.Errorf("array of $ref objects: %+v", stops)
	}
	if city := field(t, form, "itinerary", "stops", "[]", "city"); city.Kind != schemaform.KindString || !city.Required {
		t.Errorf("a stop's city: %+v", city)
	}
	if tags := field(t, form, "itinerary", "tags"); tags.Kind != schemaform.KindArray || tags.Item.Kind != schemaform.KindString {
		t.Errorf("array of strings: %+v", tags)
	}
	transport := field(t, form, "transport")
	if len(transport.Branches) != 2 || transport.Branches[0].Title != "Train" || transport.Branches[1].Title != "Car" {
		t.Fatalf("oneOf of objects: branches %+v", transport.Branches)
	}
	if mode := transport.Branches[1].Fields[0]; mode.Kind != schemaform.KindEnum || string(mode.Default) != `"car"` || !mode.Required {
		t.Errorf("a branch's const: an enum of one, pre-filled: %+v", mode)
	}
	if notes := field(t, form, "notes"); notes.Kind != schemaform.KindString || !notes.Nullable {
		t.Errorf("type [string, null]: %+v", notes)
	}
	if budget := field(t, form, "budget"); budget.Kind != schemaform.KindNumber || !budget.Nullable || budget.Description != "In euros." || *budget.Minimum != 0 {
		t.Errorf("anyOf [number, null]: %+v", budget)
	}
}

func TestParseDraft07(t *testing.T) {
	form := schemaform.Parse(json.RawMessage(`{
		"$schema": "http://json-schema.org/draft-07/schema#",
		"type": "object",
		"definitions": {"point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"]}},
		"properties": {
			"at": {"$ref": "#/definitions/point"},
			"pair": {"type": "array", "items": [{"type": "string"}, {"type": "number"}]}
		}
	}`))
	if at := field(t, form, "at"); at.Kind != schemaform.KindObject || len(at.Fields) != 2 || !field(t, form, "at", "y").Required {
		t.Errorf("draft-07 definitions $ref: %+v", at)
	}
	if pair := field(t, form, "pair"); pair.Kind != schemaform.KindJSON {
		t.Errorf("draft-07 tuple items: want a JSON field, got %+v", pair)
	}
}

func TestParseReferencesStayLocal(t *testing.T) {
	form := schemaform.Parse(json.RawMessage(`{
		"type": "object",
		"$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}, "v": {"type": "string"}}}},
		"properties": {
			"remote": {"$ref": "https://example.com/schema.json"},
			"list": {"$ref": "#/$defs/node"},
			"missing": {"$ref": "#/$defs/nowhere"}
		}
	}`))
	remote := field(t, form, "remote")
	if remote.Kind != schemaform.KindJSON || remote.Note == "" {
		t.Errorf("network $ref: want a JSON field with a note, got %+v", remote)
	}
	if missing := field(t, form, "missing"); missing.Kind != schemaform.KindJSON {
		t.Errorf("dangling $ref: %+v", missing)
	}
	// A recursive schema ends in a JSON field instead of looping.
	f := field(t, form, "list")
	depth := 0
	for f.Kind == schemaform.KindObject {
		f = f.Fields[0]
		depth++
	}
	if f.Kind != schemaform.KindJSON || depth < 3 {
		t.Errorf("recursive $ref: ended at depth %d with %+v", depth, f)
	}
}

func TestParseUnreadable(t *testing.T) {
	for _, schema := range []string{``, `nope`, `[]`, `{"type": "object"}`} {
		if form := schemaform.Parse(json.RawMessage(schema)); len(form.Root.Fields) != 0 {
			t.Errorf("Parse(%q) has fields %+v", schema, form.Root.Fields)
		}
	}
}
