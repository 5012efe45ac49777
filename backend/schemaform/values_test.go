package schemaform_test

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend/schemaform"
)

func TestValuesOfRoundTrip(t *testing.T) {
	form := tripForm()
	args := `{"traveler": {"name": "Ada", "email": "ada@example.com"},
		"itinerary": {"start": "2026-05-01", "stops": [{"city": "Paris", "nights": 2}, {}], "tags": ["a", "b"]},
		"transport": {"mode": "car", "seats": 3}, "notes": null, "budget": 9.5, "flexible": false}`
	values := schemaform.ValuesOf(form, json.RawMessage(args))
	for k, want := range map[string]string{
		"traveler.name": "Ada", "itinerary.stops.0.city": "Paris", "itinerary.stops.0.nights": "2", "itinerary.stops.1?item": "",
		"itinerary.tags.1": "b", "transport?choice": "1", "transport.mode": `"car"`, "transport.seats": "3",
		"notes?null": "on", "budget": "9.5", "flexible": "false",
	} {
		if got, ok := values[k]; !ok || got != want {
			t.Errorf("values[%q] = %q (set %t), want %q", k, got, ok, want)
		}
	}
	if !strings.Contains(values[schemaform.RawField], `"seats": 3`) {
		t.Errorf("JSON view: %s", values[schemaform.RawField])
	}
	delete(values, schemaform.RawField) // the form alone gives the arguments back
	back, errs := schemaform.Arguments(form, values)
	if errs != nil || !sameJSON(t, back, args) {
		t.Errorf("Arguments(ValuesOf(args)) = %s, %v; want %s", back, errs, args)
	}
}

func TestValuesOfPicksTheMatchingBranch(t *testing.T) {
	form := tripForm()
	for args, want := range map[string]string{
		`{"transport": {"mode": "train"}}`:  "0",
		`{"transport": {"mode": "car"}}`:    "1",
		`{"transport": {"seats": 2}}`:       "1",
		`{"transport": {"class": "first"}}`: "0",
	} {
		if got := schemaform.ValuesOf(form, json.RawMessage(args))["transport?choice"]; got != want {
			t.Errorf("ValuesOf(%s) chooses branch %q, want %q", args, got, want)
		}
	}
}

func TestValuesOfUnreadable(t *testing.T) {
	if values := schemaform.ValuesOf(tripForm(), json.RawMessage(`{`)); len(values) != 0 {
		t.Errorf("ValuesOf of invalid JSON = %v", values)
	}
	// A value of the wrong type has no field to show it; the JSON view has it.
	values := schemaform.ValuesOf(tripForm(), json.RawMessage(`{"flexible": "yes", "traveler": [1]}`))
	if _, ok := values["flexible"]; ok || !strings.Contains(values[schemaform.RawField], `"yes"`) {
		t.Errorf("ValuesOf of mistyped values = %v", values)
	}
}

func TestDefaults(t *testing.T) {
	form := tripForm()
	values := form.Defaults()
	want := map[string]string{"flexible": "true", "transport.mode": `"train"`, "transport.class": `"second"`,
		schemaform.RawField: "{\n  \"transport\": {\n    \"mode\": \"train\",\n    \"class\": \"second\"\n  },\n  \"flexible\": true\n}"}
	if !maps.Equal(values, want) {
		t.Errorf("Defaults =\n%q\nwant\n%q", values, want)
	}
	item := schemaform.FieldDefaults(form.Root.Fields[1].Fields[1].Item, "itinerary.stops.__i0__")
	if !maps.Equal(item, map[string]string{"itinerary.stops.__i0__.nights": "1"}) {
		t.Errorf("a new stop's defaults = %v", item)
	}
	car := schemaform.BranchDefaults(form.Root.Fields[2], "transport", 1)
	if !maps.Equal(car, map[string]string{"transport.mode": `"car"`}) {
		t.Errorf("the car branch's defaults = %v", car)
	}
}
