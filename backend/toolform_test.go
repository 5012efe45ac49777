package backend_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// toolSchema has one property of every kind a form knows, plus two that
// need the raw box; its properties are deliberately not in name order.
const toolSchema = `{
	"type": "object",
	"properties": {
		"zeta":    {"type": "string", "title": "Zeta", "description": "comes first although it sorts last"},
		"count":   {"type": "integer", "minimum": 1, "maximum": 10, "default": 3},
		"ratio":   {"type": "number"},
		"loud":    {"type": ["boolean", "null"], "default": false},
		"color":   {"enum": ["red", "green", 3], "default": "green"},
		"options": {"type": "object", "properties": {"depth": {"type": "integer"}}},
		"tags":    {"type": "array", "items": {"type": "string"}},
		"either":  {"type": ["string", "number"]},
		"alpha":   {"type": "string", "default": "hi"}
	},
	"required": ["zeta", "count", "options"]
}`

func mustForm(t *testing.T) backend.ToolForm {
	t.Helper()
	return backend.ParseToolForm(json.RawMessage(toolSchema))
}

func TestParseToolForm(t *testing.T) {
	form := mustForm(t)
	want := backend.ToolForm{
		Fields: []backend.FormField{
			{Name: "zeta", Title: "Zeta", Description: "comes first although it sorts last", Type: backend.FieldString, Required: true},
			{Name: "count", Type: backend.FieldInteger, Default: "3", Required: true},
			{Name: "ratio", Type: backend.FieldNumber},
			{Name: "loud", Type: backend.FieldBoolean, Default: "false"},
			{Name: "color", Type: backend.FieldEnum, Default: `"green"`, Options: []backend.EnumOption{
				{Value: `"red"`, Label: "red"}, {Value: `"green"`, Label: "green"}, {Value: "3", Label: "3"},
			}},
			{Name: "alpha", Type: backend.FieldString, Default: "hi"},
		},
		RawOnly: []backend.FormField{
			{Name: "options", Required: true},
			{Name: "tags"},
			{Name: "either"},
		},
	}
	if !reflect.DeepEqual(form, want) {
		t.Errorf("ParseToolForm =\n%+v\nwant\n%+v", form, want)
	}

	t.Run("degenerate schemas", func(t *testing.T) {
		tests := []struct {
			name   string
			schema string
		}{
			{"empty", ``},
			{"not JSON", `{"type":`},
			{"not an object", `[1, 2]`},
			{"no properties", `{"type": "object"}`},
			{"null properties", `{"type": "object", "properties": null}`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				f := backend.ParseToolForm(json.RawMessage(tt.schema))
				if len(f.Fields) != 0 || len(f.RawOnly) != 0 {
					t.Errorf("ParseToolForm(%s) = %+v, want an empty form", tt.schema, f)
				}
			})
		}
	})

	t.Run("order of many properties", func(t *testing.T) {
		names := []string{"q", "b", "z", "a", "m", "c", "y", "d"}
		var props []string
		for _, n := range names {
			props = append(props, `"`+n+`": {"type": "string"}`)
		}
		f := backend.ParseToolForm(json.RawMessage(`{"properties": {` + strings.Join(props, ",") + `}}`))
		var got []string
		for _, fld := range f.Fields {
			got = append(got, fld.Name)
		}
		if !reflect.DeepEqual(got, names) {
			t.Errorf("field order = %v, want document order %v", got, names)
		}
	})
}

func TestArgumentsFromForm(t *testing.T) {
	form := mustForm(t)
	tests := []struct {
		name   string
		values map[string]string
		want   string            // expected arguments as JSON; "" when errors are expected
		errs   map[string]string // expected field errors: key → substring of the message
	}{
		{
			name:   "typed conversion",
			values: map[string]string{"zeta": "  text  ", "count": "5", "ratio": "2.5", "loud": "true", "color": `"red"`, backend.RawField: `{"options": {"depth": 1}}`},
			want:   `{"zeta": "text", "count": 5, "ratio": 2.5, "loud": true, "color": "red", "options": {"depth": 1}}`,
		},
		{
			name:   "numeric enum member and exponent number",
			values: map[string]string{"zeta": "z", "count": "-2", "ratio": "1e3", "color": "3", "loud": "false", backend.RawField: `{"options": {}}`},
			want:   `{"zeta": "z", "count": -2, "ratio": 1000, "color": 3, "loud": false, "options": {}}`,
		},
		{
			name:   "blank optional fields are left out",
			values: map[string]string{"zeta": "z", "count": "1", "ratio": " ", "alpha": "", backend.RawField: `{"options": {}}`},
			want:   `{"zeta": "z", "count": 1, "options": {}}`,
		},
		{
			name:   "required fields given in the raw box",
			values: map[string]string{backend.RawField: `{"zeta": "from raw", "count": 2, "options": {}}`},
			want:   `{"zeta": "from raw", "count": 2, "options": {}}`,
		},
		{
			name:   "form fields win over raw keys, other raw keys stay",
			values: map[string]string{"zeta": "from form", backend.RawField: `{"zeta": "from raw", "count": 2, "options": {"depth": 3}, "extra": [1]}`},
			want:   `{"zeta": "from form", "count": 2, "options": {"depth": 3}, "extra": [1]}`,
		},
		{
			name:   "required missing",
			values: map[string]string{"ratio": "1"},
			errs:   map[string]string{"zeta": "required", "count": "required", backend.RawField: `"options" is required`},
		},
		{
			name:   "bad integer",
			values: map[string]string{"zeta": "z", "count": "2.5", backend.RawField: `{"options": {}}`},
			errs:   map[string]string{"count": "whole number"},
		},
		{
			name:   "integer out of range",
			values: map[string]string{"zeta": "z", "count": "9223372036854775808", backend.RawField: `{"options": {}}`},
			errs:   map[string]string{"count": "from -9223372036854775808 to 9223372036854775807"},
		},
		{
			name:   "bad number",
			values: map[string]string{"zeta": "z", "count": "1", "ratio": "abc", backend.RawField: `{"options": {}}`},
			errs:   map[string]string{"ratio": "number"},
		},
		{
			name:   "infinite number",
			values: map[string]string{"zeta": "z", "count": "1", "ratio": "1e999", backend.RawField: `{"options": {}}`},
			errs:   map[string]string{"ratio": "number"},
		},
		{
			name:   "bad boolean",
			values: map[string]string{"zeta": "z", "count": "1", "loud": "maybe", backend.RawField: `{"options": {}}`},
			errs:   map[string]string{"loud": "true or false"},
		},
		{
			name:   "enum value not listed",
			values: map[string]string{"zeta": "z", "count": "1", "color": "red", backend.RawField: `{"options": {}}`},
			errs:   map[string]string{"color": "listed values"},
		},
		{
			name:   "raw box not JSON",
			values: map[string]string{"zeta": "z", "count": "1", backend.RawField: `{"options": `},
			errs:   map[string]string{backend.RawField: "must be a JSON object"},
		},
		{
			name:   "raw box an array",
			values: map[string]string{"zeta": "z", "count": "1", backend.RawField: `[1, 2]`},
			errs:   map[string]string{backend.RawField: "expected an object"},
		},
		{
			name:   "several errors at once",
			values: map[string]string{"count": "x", "loud": "nope", backend.RawField: `{}`},
			errs:   map[string]string{"zeta": "required", "count": "whole number", "loud": "true or false", backend.RawField: `"options"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, errs := backend.ArgumentsFromForm(form, tt.values)
			if tt.errs != nil {
				if args != nil {
					t.Errorf("arguments %s returned along with errors", args)
				}
				if len(errs) != len(tt.errs) {
					t.Errorf("errors = %v, want keys of %v", errs, tt.errs)
				}
				for k, sub := range tt.errs {
					if !strings.Contains(errs[k], sub) {
						t.Errorf("error[%q] = %q, want it to contain %q (all: %v)", k, errs[k], sub, errs)
					}
				}
				return
			}
			if errs != nil {
				t.Fatalf("unexpected errors %v", errs)
			}
			assertJSONEqual(t, args, tt.want)
		})
	}
}

// TestArgumentsFromFormRawNull: "null" is valid JSON but not an object; it
// must be refused like any other non-object, neither crash the caller nor
// become the tool's arguments.
func TestArgumentsFromFormRawNull(t *testing.T) {
	optional := backend.ParseToolForm(json.RawMessage(`{"properties": {"a": {"type": "string"}}}`))
	tests := []struct {
		name   string
		form   backend.ToolForm
		values map[string]string
	}{
		{"alone", optional, map[string]string{backend.RawField: "null"}},
		{"with a filled field", optional, map[string]string{backend.RawField: " null ", "a": "x"}},
		{"with required fields filled", mustForm(t), map[string]string{backend.RawField: "null", "zeta": "z", "count": "1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var args json.RawMessage
			var errs map[string]string
			panicked := func() (p any) {
				defer func() { p = recover() }()
				args, errs = backend.ArgumentsFromForm(tt.form, tt.values)
				return nil
			}()
			if panicked != nil {
				t.Fatalf("ArgumentsFromForm(%v) panics: %v (json.Unmarshal of \"null\" sets the args map to nil; backend/toolform.go ArgumentsFromForm)", tt.values, panicked)
			}
			if args != nil || !strings.Contains(errs[backend.RawField], "JSON object") {
				t.Fatalf("ArgumentsFromForm(%v) = %s, %v; want no arguments and a \"must be a JSON object\" error on %s", tt.values, args, errs, backend.RawField)
			}
		})
	}
}

func TestValidateArguments(t *testing.T) {
	const schema = `{
		"type": "object",
		"properties": {
			"name":    {"type": "string", "minLength": 2},
			"count":   {"type": "integer", "minimum": 1, "maximum": 10},
			"color":   {"enum": ["red", "green"]},
			"options": {"type": "object", "properties": {"depth": {"type": "integer"}}}
		},
		"required": ["name", "count"],
		"additionalProperties": false
	}`
	const nested = `{
		"type": "object",
		"properties": {
			"name":    {"type": "string"},
			"address": {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "string", "pattern": "^[0-9]+$"}}, "required": ["city"]}
		},
		"required": ["name", "address"]
	}`
	tests := []struct {
		name   string
		schema string
		args   string
		errs   map[string]string // key → substring; nil when valid
	}{
		{"valid", schema, `{"name": "ab", "count": 10, "color": "red", "options": {"depth": 2}}`, nil},
		{"below minimum", schema, `{"name": "ab", "count": 0}`, map[string]string{"count": "minimum"}},
		{"above maximum", schema, `{"name": "ab", "count": 11}`, map[string]string{"count": "maximum"}},
		{"wrong type", schema, `{"name": "ab", "count": "five"}`, map[string]string{"count": "integer"}},
		{"not in enum", schema, `{"name": "ab", "count": 1, "color": "blue"}`, map[string]string{"color": "red"}},
		{"required missing", schema, `{"color": "red"}`, map[string]string{"name": "required", "count": "required"}},
		{"nested error of a JSON-only argument goes to the raw box", schema, `{"name": "ab", "count": 1, "options": {"depth": "deep"}}`,
			map[string]string{backend.RawField: "/options/depth"}},
		{"nested required field names its path in the raw box", nested, `{"name": "a", "address": {"zip": "12"}}`,
			map[string]string{backend.RawField: `/address: "city" is required.`}},
		{"nested errors together", nested, `{"address": {"zip": "x"}}`,
			map[string]string{"name": "required", backend.RawField: `/address/zip`}},
		{"additional property goes to the raw box", schema, `{"name": "ab", "count": 1, "extra": 1}`, map[string]string{backend.RawField: "extra"}},
		{"several fields", schema, `{"name": "a", "count": 99}`, map[string]string{"name": "minLength", "count": "maximum"}},
		{"arguments not JSON", schema, `{"name":`, map[string]string{backend.RawField: "not valid JSON"}},
		{"no schema", ``, `{"anything": true}`, nil},
		{"schema not JSON", `{"type":`, `{"anything": true}`, nil},
		{"schema does not compile", `{"type": 12}`, `{"anything": true}`, nil},
		{"draft-07 schema", `{"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"n": {"type": "number", "exclusiveMaximum": 5}}}`,
			`{"n": 5}`, map[string]string{"n": "5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := backend.ValidateArguments(backend.ParseToolForm(json.RawMessage(tt.schema)), json.RawMessage(tt.schema), json.RawMessage(tt.args))
			if tt.errs == nil {
				if errs != nil {
					t.Fatalf("ValidateArguments = %v, want nil", errs)
				}
				return
			}
			if len(errs) != len(tt.errs) {
				t.Errorf("errors = %v, want keys of %v", errs, tt.errs)
			}
			for k, sub := range tt.errs {
				if !strings.Contains(errs[k], sub) {
					t.Errorf("error[%q] = %q, want it to contain %q (all: %v)", k, errs[k], sub, errs)
				}
			}
		})
	}
}

// TestFormToValidation runs the path a tool call takes: form values →
// arguments → schema validation.
func TestFormToValidation(t *testing.T) {
	form := mustForm(t)
	args, errs := backend.ArgumentsFromForm(form, map[string]string{"zeta": "z", "count": "11", backend.RawField: `{"options": {}}`})
	if errs != nil {
		t.Fatalf("ArgumentsFromForm: %v", errs)
	}
	verrs := backend.ValidateArguments(form, json.RawMessage(toolSchema), args)
	if len(verrs) != 1 || !strings.Contains(verrs["count"], "maximum") {
		t.Errorf("ValidateArguments = %v, want only a maximum error on count", verrs)
	}
}

func assertJSONEqual(t *testing.T, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("result %s is not JSON: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want %s is not JSON: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestParseToolFormChoicesFormatsAndDefaults(t *testing.T) {
	form := backend.ParseToolForm(json.RawMessage(`{
		"type": "object",
		"properties": {
			"size":  {"type": "string", "title": "Size", "enum": ["s", "m"], "enumNames": ["Small", "Medium"], "default": "m"},
			"tone":  {"type": "string", "oneOf": [{"const": "warm", "title": "Warm tone"}, {"const": "cold", "title": "Cold tone"}]},
			"level": {"anyOf": [{"const": 1, "title": "Low"}, {"const": 2}]},
			"mixed": {"oneOf": [{"const": "a"}, {"type": "number"}]},
			"email": {"type": "string", "format": "email", "default": "ada@example.com"},
			"loud":  {"type": "boolean", "default": true}
		}
	}`))
	byName := map[string]backend.FormField{}
	for _, f := range form.Fields {
		byName[f.Name] = f
	}
	tests := []struct {
		name   string
		field  string
		labels string
	}{
		{"enum labelled by enumNames", "size", `[Small Medium]`},
		{"oneOf of titled consts", "tone", `[Warm tone Cold tone]`},
		{"anyOf of consts, a missing title is the value", "level", `[Low 2]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := byName[tt.field]
			var labels []string
			for _, o := range f.Options {
				labels = append(labels, o.Label)
			}
			if !ok || f.Type != backend.FieldEnum || fmt.Sprint(labels) != tt.labels {
				t.Errorf("%s: %+v, want an enum labelled %s", tt.field, f, tt.labels)
			}
		})
	}
	if f, ok := byName["mixed"]; ok {
		t.Errorf("a oneOf that is not all consts became field %+v, want the JSON box", f)
	}
	if byName["email"].Format != "email" || byName["size"].Title != "Size" {
		t.Errorf("format or title lost: %+v %+v", byName["email"], byName["size"])
	}
	defaults := form.Defaults()
	want := map[string]string{"size": `"m"`, "email": "ada@example.com", "loud": "true"}
	if fmt.Sprint(defaults) != fmt.Sprint(want) {
		t.Errorf("Defaults() = %v, want %v", defaults, want)
	}
	args, errs := backend.ArgumentsFromForm(form, defaults)
	if errs != nil {
		t.Fatalf("the defaults do not make arguments: %v", errs)
	}
	assertJSONEqual(t, args, `{"size": "m", "email": "ada@example.com", "loud": true}`)
}

func TestValidateArgumentsFormatsAndReferences(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "schema.json")
	if err := os.WriteFile(secret, []byte(`{"type": "string", "maxLength": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		schema string
		args   string
		errs   map[string]string
	}{
		{"email format is asserted", `{"properties": {"e": {"type": "string", "format": "email"}}}`, `{"e": "not-an-email"}`, map[string]string{"e": "email"}},
		{"a good email passes", `{"properties": {"e": {"type": "string", "format": "email"}}}`, `{"e": "ada@example.com"}`, nil},
		{"date format is asserted", `{"properties": {"d": {"type": "string", "format": "date"}}}`, `{"d": "31/01/2025"}`, map[string]string{"d": "date"}},
		{"local $defs are followed", `{"$defs": {"short": {"type": "string", "maxLength": 2}}, "properties": {"s": {"$ref": "#/$defs/short"}}}`, `{"s": "long"}`, map[string]string{backend.RawField: "/s: maxLength"}},
		// The file would refuse "long"; it is never read, so the schema is not enforced.
		{"a file $ref is not read", `{"properties": {"s": {"$ref": "file://` + secret + `"}}}`, `{"s": "long"}`, nil},
		{"a network $ref is not fetched", `{"properties": {"s": {"$ref": "http://127.0.0.1:1/schema.json"}}}`, `{"s": "long"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			form := backend.ParseToolForm(json.RawMessage(tt.schema))
			errs := backend.ValidateArguments(form, json.RawMessage(tt.schema), json.RawMessage(tt.args))
			if (errs == nil) != (tt.errs == nil) {
				t.Fatalf("ValidateArguments = %v, want %v", errs, tt.errs)
			}
			for k, sub := range tt.errs {
				if !strings.Contains(errs[k], sub) {
					t.Errorf("error[%q] = %q, want it to contain %q (all: %v)", k, errs[k], sub, errs)
				}
			}
		})
	}
}

func TestMultiChoiceField(t *testing.T) {
	form := backend.ParseToolForm(json.RawMessage(`{
		"type": "object",
		"properties": {
			"colors": {"type": "array", "items": {"type": "string", "enum": ["red", "green", "blue"]}, "default": ["blue"]},
			"sizes":  {"type": ["array", "null"], "items": {"anyOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]}},
			"free":   {"type": "array", "items": {"type": "string"}}
		},
		"required": ["colors"]
	}`))
	if len(form.Fields) != 2 || form.Fields[0].Type != backend.FieldMulti || form.Fields[1].Type != backend.FieldMulti ||
		form.Fields[1].Options[1].Label != "Large" || form.Fields[0].Default != `["blue"]` {
		t.Fatalf("fields = %+v, want two multi-choice fields", form.Fields)
	}
	if len(form.RawOnly) != 1 || form.RawOnly[0].Name != "free" {
		t.Errorf("an array of free strings should stay in the JSON box: %+v", form.RawOnly)
	}
	tests := []struct {
		name   string
		values map[string]string
		args   string
		err    string
	}{
		{"picked in the listed order, each once", map[string]string{"colors": `["blue","red","blue"]`}, `{"colors": ["red", "blue"]}`, ""},
		{"the default as filled in", form.Defaults(), `{"colors": ["blue"]}`, ""},
		{"an empty pick of a required field", map[string]string{"colors": ``}, "", "required"},
		{"a member not listed", map[string]string{"colors": `["pink"]`}, "", "listed"},
		{"not an array", map[string]string{"colors": `red`}, "", "listed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, errs := backend.ArgumentsFromForm(form, tt.values)
			if tt.err != "" {
				if !strings.Contains(errs["colors"], tt.err) {
					t.Errorf("errors = %v, want colors to say %q", errs, tt.err)
				}
				return
			}
			if errs != nil {
				t.Fatalf("errors = %v", errs)
			}
			assertJSONEqual(t, args, tt.args)
		})
	}
}
