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
// nullable fields a null box, optional booleans a "not sent" box, a
// multi-choice group is named by its label, and errors sit at their
// fields.
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
		"when": {"type": "string", "format": "date"},
		"tags": {"type": "array", "items": {"enum": ["x", "y"]}, "uniqueItems": true}
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
		`<label id="f-tags-label">`,
		`role="group" aria-labelledby="f-tags-label"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the form lacks %s", want)
		}
	}
	if t.Failed() {
		t.Logf("the form:\n%s", html)
	}
}

// TestSchemaFormDefaultNamesChoices says an enum's and a multi-choice's
// default by the names the choices show (enumNames, titled consts), not by
// their values, which the form never shows; other defaults stay JSON.
func TestSchemaFormDefaultNamesChoices(t *testing.T) {
	form := schemaform.Parse(json.RawMessage(`{"type": "object", "properties": {
		"hero": {"type": "string", "oneOf": [{"const": "hero-1", "title": "Superman"}, {"const": "hero-2", "title": "Wonder Woman"}], "default": "hero-2"},
		"pet": {"type": "string", "enum": ["pet-1", "pet-2"], "enumNames": ["Cats", "Dogs"], "default": "pet-1"},
		"fish": {"type": "array", "items": {"anyOf": [{"const": "fish-1", "title": "Tuna"}, {"const": "fish-2", "title": "Salmon"}, {"const": "fish-3", "title": "Trout"}]}, "default": ["fish-3", "fish-1"]},
		"odd": {"type": "string", "enum": ["a", "b"], "default": "z"},
		"line": {"type": "string", "default": "It was a dark night."}
	}}`))
	want := map[string]string{"hero": "default Wonder Woman", "pet": "default Cats", "fish": "default Tuna, Trout",
		"odd": `default "z"`, "line": `default "It was a dark night."`}
	for _, f := range form.Root.Fields {
		if got := sfConstraints(f); got != want[f.Name] {
			t.Errorf("%s's limits read %q, want %q", f.Name, got, want[f.Name])
		}
	}
}
