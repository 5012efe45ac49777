package schemaform_test

import (
	"encoding/json"
	"maps"
	"reflect"
	"testing"

	"github.com/mcp-playground/playground/backend/schemaform"
)

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(t *testing.T, got json.RawMessage, want string) bool {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got invalid JSON %s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want invalid JSON %s: %v", want, err)
	}
	return reflect.DeepEqual(g, w)
}

func TestArguments(t *testing.T) {
	form := tripForm()
	tests := []struct {
		name   string
		values map[string]string
		want   string
	}{
		{"nested object and array of objects by path",
			map[string]string{"traveler.name": "Ada", "traveler.email": "ada@example.com", "itinerary.stops.0.city": "Paris", "itinerary.stops.0.nights": "2",
				"itinerary.stops.1.city": "Rome", "itinerary.stops.1.nights": ""},
			`{"traveler": {"name": "Ada", "email": "ada@example.com"}, "itinerary": {"stops": [{"city": "Paris", "nights": 2}, {"city": "Rome"}]}}`},
		{"items in index order, a blank object item kept for its required fields",
			map[string]string{"itinerary.stops.1.city": "B", "itinerary.stops.0?item": "", "itinerary.tags.1": "y", "itinerary.tags.0": "x"},
			`{"itinerary": {"stops": [{}, {"city": "B"}], "tags": ["x", "y"]}}`},
		{"a blank string item is an empty string", map[string]string{"itinerary.tags.0?item": "", "itinerary.tags.0": ""},
			`{"itinerary": {"tags": [""]}}`},
		{"blank optional object left out", map[string]string{"traveler.name": "", "notes": ""}, `{}`},
		{"null only when chosen", map[string]string{"notes": "typed", "notes?null": "on", "budget": "12.5"}, `{"notes": null, "budget": 12.5}`},
		{"booleans: checked, unchecked, not sent", map[string]string{"flexible": "false"}, `{"flexible": false}`},
		{"optional boolean left out", map[string]string{"flexible": "false", "flexible?unset": "on"}, `{}`},
		{"checking the box overrides not sent", map[string]string{"flexible": "true", "flexible?unset": "on"}, `{"flexible": true}`},
		{"union: the chosen branch's fields only", map[string]string{"transport?choice": "1", "transport.mode": `"car"`, "transport.seats": "4", "transport.class": `"first"`},
			`{"transport": {"mode": "car", "seats": 4}}`},
		{"union: the first branch by default", map[string]string{"transport.mode": `"train"`, "transport.class": `"first"`},
			`{"transport": {"mode": "train", "class": "first"}}`},
		{"JSON view adds only keys the form lacks", map[string]string{"traveler.name": "Ada",
			schemaform.RawField: `{"traveler": {"name": "Bob", "age": 3}, "notes": "from json", "extra": [1]}`},
			`{"traveler": {"name": "Ada", "age": 3}, "extra": [1]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args, errs := schemaform.Arguments(form, tt.values)
			if errs != nil {
				t.Fatalf("errors %v", errs)
			}
			if !sameJSON(t, args, tt.want) {
				t.Errorf("Arguments = %s, want %s", args, tt.want)
			}
		})
	}
}

func TestArgumentsScalarsAndErrors(t *testing.T) {
	form := schemaform.Parse(json.RawMessage(`{"type": "object", "properties": {
		"n": {"type": "integer"}, "x": {"type": "number"}, "b": {"type": "boolean"},
		"e": {"enum": ["a", 2]}, "m": {"type": "array", "items": {"enum": ["p", "q", "r"]}},
		"j": {"type": ["string", "number"]}, "s": {"type": "string"}
	}}`))
	args, errs := schemaform.Arguments(form, map[string]string{"n": " 7 ", "x": "1e3", "b": "true", "e": "2", "m": `["r","p"]`, "j": "4", "s": " padded "})
	if errs != nil || !sameJSON(t, args, `{"n": 7, "x": 1000, "b": true, "e": 2, "m": ["p", "r"], "j": 4, "s": "padded"}`) {
		t.Errorf("Arguments = %s, %v", args, errs)
	}
	_, errs = schemaform.Arguments(form, map[string]string{"n": "1.5", "x": "many", "b": "yes", "e": `"z"`, "m": `["z"]`, "j": "{", schemaform.RawField: "[1]"})
	want := map[string]string{
		"n": "Enter a whole number.", "x": "Enter a number.", "b": "Choose true or false.", "e": "Choose one of the listed values.",
		"m": "Choose among the listed values.", "j": "Enter valid JSON: the text ends before the value does", schemaform.RawField: "The arguments must be a JSON object.",
	}
	if !maps.Equal(errs, want) {
		t.Errorf("errors\n%v\nwant\n%v", errs, want)
	}
	_, errs = schemaform.Arguments(schemaform.Parse(json.RawMessage(`{"type": "object", "properties": {"l": {"type": "array", "items": {"type": "integer"}}}}`)),
		map[string]string{"l.0?item": "", "l.1": "x"})
	if want := map[string]string{"l.0": "Fill in this item or remove it.", "l.1": "Enter a whole number."}; !maps.Equal(errs, want) {
		t.Errorf("blank and invalid number items: %v, want %v", errs, want)
	}
	_, errs = schemaform.Arguments(form, map[string]string{schemaform.RawField: `{"a":`})
	if errs[schemaform.RawField] == "" {
		t.Errorf("invalid JSON view: no error")
	}
}
