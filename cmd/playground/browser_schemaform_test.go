package main

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserSchemaForm fills the demo server's plan_trip form, whose
// itinerary object holds an array of stop objects: a stop without its
// required city fails validation at that stop's city input and nothing is
// sent; typing in the form updates the JSON view, editing the JSON view
// updates the form (adding items and choosing the union's branch), invalid
// JSON shows an error and leaves the form alone; items are added, moved and
// removed; the union's selector swaps its branch's fields and keeps what
// was typed in each; the fixed form is called with exactly the arguments
// shown. When
// PLAYGROUND_SCREENSHOT_DIR is set, schemaform-error.png,
// schemaform-json.png and schemaform-result.png are saved there.
func TestBrowserSchemaForm(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	p.openTool("plan_trip")
	sessionID := p.liveSessionID()
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	card := e2eCard("plan_trip")
	stops := card + ` [data-testid="sf-array-itinerary.stops"]`
	field := func(path string) string { return card + ` [name="arg.` + path + `"]` }
	jsonView := func() map[string]any {
		t.Helper()
		var v map[string]any
		text := p.value(card + ` [data-testid="raw-args"]`)
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Fatalf("the JSON view holds invalid JSON %q: %v", text, err)
		}
		return v
	}
	itemCount := func() int {
		return e2eEval[int](p, "count the stops", stops, `document.querySelectorAll(`+e2eJS(stops+` > ol > [data-testid="sf-item"]`)+`).length`)
	}
	click := func(what, sel string) { p.do(what, sel, chromedp.Click(chromedp.CSS(sel))) }

	if n := len(p.frames()); n == 0 {
		t.Fatal("no frames in the traffic panel after connecting")
	}
	if got := e2eEval[[]string](p, "read the badges", card, `Array.from(document.querySelectorAll(`+e2eJS(card+` [data-testid="tool-badge"]`)+`), b => b.textContent)`); !reflect.DeepEqual(got, []string{"non-destructive", "idempotent", "closed world"}) {
		t.Errorf("plan_trip badges = %q", got)
	}
	// The defaults are in the form and in the JSON view from the start.
	if v := jsonView(); !reflect.DeepEqual(v["transport"], map[string]any{"mode": "train", "class": "second"}) {
		t.Errorf("the JSON view before any typing: %v", v)
	}

	// Typing in the form: the JSON view follows.
	p.typeInto(field("traveler.name"), "Ada")
	p.typeInto(field("traveler.email"), "ada@example.com")
	click("add a stop", stops+` > [data-testid="sf-add"]`)
	p.typeInto(field("itinerary.stops.0.city"), "Paris")
	click("add a second stop", stops+` > [data-testid="sf-add"]`)
	p.setValue(field("itinerary.stops.1.nights"), "2")
	want := map[string]any{"name": "Ada", "email": "ada@example.com"}
	if v := jsonView(); !reflect.DeepEqual(v["traveler"], want) ||
		!reflect.DeepEqual(v["itinerary"], map[string]any{"stops": []any{map[string]any{"city": "Paris", "nights": 1.0}, map[string]any{"nights": 2.0}}}) {
		t.Errorf("the JSON view after typing: %v", v)
	}

	// The second stop has no city: the error shows at its city, and no
	// tools/call goes out.
	before := e2eCountFrames(srv.apiFrames(t, sessionID), "out", "request", "tools/call")
	p.submitTool("plan_trip")
	cityErr := card + ` [data-testid="error-itinerary.stops.1.city"]`
	p.do("wait for the second stop's city error", card, chromedp.WaitVisible(chromedp.CSS(cityErr)))
	if !e2eEval[bool](p, "find the error next to its input", card, `(() => {
		const err = document.querySelector(`+e2eJS(cityErr)+`);
		return err.closest("[data-sf-node]").querySelector("input").name === "arg.itinerary.stops.1.city";
	})()`) {
		t.Errorf("the city error is not at the second stop's city input\n%s", p.dump(stops))
	}
	if got := p.outcome("plan_trip"); got != "" {
		t.Errorf("an invalid plan_trip shows an outcome %q", got)
	}
	if after := e2eCountFrames(srv.apiFrames(t, sessionID), "out", "request", "tools/call"); after != before {
		t.Errorf("the invalid form sent %d tools/call requests, want none", after-before)
	}
	if got := p.value(field("itinerary.stops.0.city")); got != "Paris" {
		t.Errorf("the re-rendered form lost the first city: %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "schemaform-error", stops)
	}

	// Fix it, then reorder: the moved item keeps its values under its new index.
	p.typeInto(field("itinerary.stops.1.city"), "Rome")
	click("move Rome up", stops+` > ol > [data-testid="sf-item"]:nth-child(2) [data-testid="sf-up"]`)
	if a, b := p.value(field("itinerary.stops.0.city")), p.value(field("itinerary.stops.1.city")); a != "Rome" || b != "Paris" {
		t.Errorf("after moving Rome up the cities are %q, %q", a, b)
	}
	if got := p.value(field("itinerary.stops.0.nights")); got != "2" {
		t.Errorf("Rome's nights after the move: %q, want 2", got)
	}
	click("add a third stop", stops+` > [data-testid="sf-add"]`)
	p.typeInto(field("itinerary.stops.2.city"), "Oslo")
	click("move Paris down", stops+` > ol > [data-testid="sf-item"]:nth-child(2) [data-testid="sf-down"]`)
	if got := p.value(field("itinerary.stops.1.city")); got != "Oslo" {
		t.Errorf("after moving Paris down the second city is %q", got)
	}
	click("remove Oslo", stops+` > ol > [data-testid="sf-item"]:nth-child(2) [data-testid="sf-remove"]`)
	if n := itemCount(); n != 2 {
		t.Errorf("%d stops after removing one, want 2", n)
	}
	if got := p.value(field("itinerary.stops.1.city")); got != "Paris" {
		t.Errorf("after removing Oslo the second city is %q", got)
	}
	if v := jsonView(); !reflect.DeepEqual(v["itinerary"], map[string]any{"stops": []any{map[string]any{"city": "Rome", "nights": 2.0}, map[string]any{"city": "Paris", "nights": 1.0}}}) {
		t.Errorf("the JSON view after moves and removal: %v", v["itinerary"])
	}

	// The transport selector swaps the branch's fields; switching back
	// restores what was typed.
	p.choose(field("transport?choice"), "Car")
	p.typeInto(field("transport.seats"), "5")
	if v := jsonView(); !reflect.DeepEqual(v["transport"], map[string]any{"mode": "car", "seats": 5.0}) {
		t.Errorf("the JSON view's transport after choosing Car: %v", v["transport"])
	}
	p.choose(field("transport?choice"), "Train")
	if got := p.value(field("transport.class")); got != `"second"` {
		t.Errorf("the train's class after switching back: %q", got)
	}
	p.choose(field("transport?choice"), "Car")
	if got := p.value(field("transport.seats")); got != "5" {
		t.Errorf("the car's seats after switching back: %q, want what was typed", got)
	}
	// "send null" sends null.
	click("send null as notes", card+` [data-testid="sf-null-notes"]`)
	if v, ok := jsonView()["notes"]; !ok || v != nil {
		t.Errorf("the JSON view's notes after checking send null: %v (set %t)", v, ok)
	}

	// Invalid JSON: an error under the box, the form untouched.
	p.setValue(card+` [data-testid="raw-args"]`, `{"traveler": {"name": "Bo"`)
	p.do("wait for the JSON error", card, chromedp.WaitVisible(chromedp.CSS(card+` [data-testid="json-error"]`)))
	if got := p.value(field("traveler.name")); got != "Ada" {
		t.Errorf("invalid JSON changed the name to %q", got)
	}

	// Editing the JSON view: the form follows, items added and the branch chosen.
	edited := `{"traveler": {"name": "Bo", "email": "bo@example.com"},
		"itinerary": {"start": "2026-06-01", "stops": [{"city": "Lyon", "nights": 3}, {"city": "Nice"}, {"city": "Bern", "nights": 1}]},
		"transport": {"mode": "car", "seats": 4}, "notes": null, "extra": true}`
	p.setValue(card+` [data-testid="raw-args"]`, edited)
	if e2eEval[bool](p, "look at the JSON error", card, `!document.querySelector(`+e2eJS(card+` [data-testid="json-error"]`)+`).hidden`) {
		t.Error("the JSON error stays after the JSON was fixed")
	}
	if n := itemCount(); n != 3 {
		t.Errorf("%d stops after the JSON named 3", n)
	}
	for path, want := range map[string]string{"traveler.name": "Bo", "itinerary.start": "2026-06-01", "itinerary.stops.2.city": "Bern",
		"itinerary.stops.0.nights": "3", "itinerary.stops.1.nights": "", "transport?choice": "1", "transport.seats": "4"} {
		if got := p.value(field(path)); got != want {
			t.Errorf("after editing the JSON, %s holds %q, want %q", path, got, want)
		}
	}
	if !e2eEval[bool](p, "read the null box", card, `document.querySelector(`+e2eJS(card+` [data-testid="sf-null-notes"]`)+`).checked`) {
		t.Error(`"notes": null did not check the notes' null box`)
	}
	if shots != "" {
		p.screenshot(shots, "schemaform-json", card+` [data-testid="raw-args"]`)
	}

	p.submitTool("plan_trip")
	p.wantOutcome("plan_trip", "result")
	var sent map[string]any
	p.waitFrames("the plan_trip call in the traffic panel", func(frames []e2eDOMFrame) (bool, string) {
		for _, f := range frames {
			var m e2eRPC
			if f.Direction == "out" && f.Method == "tools/call" && json.Unmarshal([]byte(f.Body), &m) == nil && m.Params.Name == "plan_trip" {
				sent = m.Params.Arguments
				return true, ""
			}
		}
		return false, "no tools/call of plan_trip"
	})
	var wantArgs map[string]any
	if err := json.Unmarshal([]byte(edited), &wantArgs); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sent, wantArgs) {
		t.Errorf("plan_trip was sent\n%v\nwant\n%v", sent, wantArgs)
	}
	if after := e2eCountFrames(srv.apiFrames(t, sessionID), "out", "request", "tools/call"); after != before+1 {
		t.Errorf("%d tools/call requests after the fixed call, want %d", after, before+1)
	}
	if shots != "" {
		p.screenshot(shots, "schemaform-result", card+` [data-testid="outcome"]`)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
