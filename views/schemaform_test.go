package views

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend/schemaform"
)

// TestSchemaFormRenders renders a form filled from arguments: every input
// is named by its path, arrays have one item per element plus a template
// for new ones, a union shows the chosen branch with a template for each,
// nullable fields a null box, optional booleans a "not sent" box, and
// errors sit at their fields.
func TestSchemaFormRenders(t *testing.T) {
	form := schemaform.Parse(json.RawMessage(`{"type": "object", "properties": {
		"trip": {"type": "object", "properties": {
			"stops": {"type": "array", "items": {"type": "object", "properties": {"city": {"type": "string", "format": "email"}, "n": {"type": "integer", "minimum": 1}}, "required": ["city"]}}
		}},
		"go": {"type": "object", "oneOf": [
			{"title": "Walk", "properties": {"by": {"const": "walk"}}},
			{"title": "Ride", "properties": {"by": {"const": "ride"}, "speed": {"type": "number"}}}
		]},
		"note": {"type": ["string", "null"]},
		"quiet": {"type": "boolean"},
		"when": {"type": "string", "format": "date"}
	}}`))
	values := schemaform.ValuesOf(form, json.RawMessage(`{"trip": {"stops": [{"city": "a@b.c"}, {"n": 2}]}, "go": {"by": "ride", "speed": 3}, "note": null}`))
	errs := map[string]string{"trip.stops.1.city": "This field is required."}
	var b strings.Builder
	if err := SchemaForm("f", form, values, errs, "JSON").Render(t.Context(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		`<input type="email" id="f-trip.stops.0.city" name="arg.trip.stops.0.city" value="a@b.c"`,
		`name="arg.trip.stops.1.n" value="2"`,
		`<input type="hidden" name="arg.trip.stops.1?item" value="">`,
		`data-sf-placeholder="__i0__"`,
		`name="arg.trip.stops.__i0__.city"`,
		`<p class="field-error" data-testid="error-trip.stops.1.city">This field is required.</p>`,
		`name="arg.go?choice" data-sf-choice data-testid="sf-choice"><option value="0">Walk</option><option value="1" selected>Ride</option>`,
		`name="arg.go.speed" value="3"`,
		`<template data-sf-branch="0">`,
		`name="arg.note?null" checked`,
		`name="arg.quiet?unset" checked`,
		`<input type="date" id="f-when" name="arg.when"`,
		`min="1"`,
		`data-sf-names="[&#34;by&#34;,&#34;by&#34;,&#34;speed&#34;]"`,
		`name="_raw"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the form lacks %s", want)
		}
	}
	if t.Failed() {
		t.Logf("the form:\n%s", html)
	}
}
