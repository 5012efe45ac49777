package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserEverythingElicitation answers server-everything's
// trigger-elicitation-request form, which uses every kind of field an
// elicitation may ask for: each label shows the schema's title beside the
// property name; the enums show their names (plain enum members, legacy
// enumNames, titled oneOf consts) and send their const values; the
// multi-selects are checkboxes of which several may be chosen; the
// defaults are filled in from the start, and the hints name the choices'
// defaults as the choices show them. An email that is no email keeps
// Accept disabled; sent anyway, it shows its error at the email field and
// nothing is sent; once fixed, Accept
// sends exactly what was chosen, and the tool's result names it. When
// PLAYGROUND_SCREENSHOT_DIR is set, everything-elicit-form.png,
// everything-elicit-error.png and everything-elicit-result.png are saved
// there. It needs PLAYGROUND_CHROMIUM and server-everything in
// node_modules.
func TestBrowserEverythingElicitation(t *testing.T) {
	everything := filepath.Join(e2eNodeModules(), "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(everything); err != nil {
		t.Skipf("needs @modelcontextprotocol/server-everything in node_modules: %v", err)
	}
	srv, p := e2eBrowse(t)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	id := srv.apiCreateServer(t, map[string]any{"name": "everything", "transport": "stdio", "command": "node", "args": []string{everything, "stdio"}})
	p.do("open server-everything and connect", "main", chromedp.Navigate(fmt.Sprintf("%s/servers/%d", srv.URL, id)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
	const tool = "trigger-elicitation-request"
	p.openTool(tool)
	p.startTool(tool)
	card := p.waitInput("elicit-form", "")
	if got := p.text(card + ` [data-testid="input-message"]`); got != "Please provide inputs for the following fields:" {
		t.Errorf("the elicitation's message reads %q", got)
	}
	field := func(path string) string { return card + ` [data-sf-path="` + path + `"]` }
	input := func(path string) string { return card + ` [name="arg.` + path + `"]` }
	boxes := func(path string) string { return card + ` input[type=checkbox][name="arg.` + path + `[]"]` }

	// Each label names the field by its title, the property name beside it.
	titles := map[string]string{
		"name": "String", "check": "Boolean", "firstLine": "String with default", "email": "String with email format",
		"homepage": "String with uri format", "birthdate": "String with date format", "integer": "Integer",
		"number": "Number in range 1-1000", "untitledSingleSelectEnum": "Untitled Single Select Enum",
		"untitledMultipleSelectEnum": "Untitled Multiple Select Enum", "titledSingleSelectEnum": "Titled Single Select Enum",
		"titledMultipleSelectEnum": "Titled Multiple Select Enum", "legacyTitledEnum": "Legacy Titled Single Select Enum",
	}
	for path, title := range titles {
		label := strings.Join(strings.Fields(p.text(field(path)+` > label`)), " ")
		if !strings.HasPrefix(label, title+" "+path) {
			t.Errorf("the %s field's label reads %q, want the title %q and then the name", path, label, title)
		}
	}
	if got := p.value(input("email")); got != "" {
		t.Errorf("the email field starts with %q", got)
	}
	if typ := e2eEval[string](p, "read the email input's type", card, `document.querySelector(`+e2eJS(input("email"))+`).type`); typ != "email" {
		t.Errorf("the email input is of type %q", typ)
	}

	// The enums show names and hold the members' JSON text; the defaults
	// are chosen.
	type choice struct {
		Value   string `json:"value"`
		Label   string `json:"label"`
		Chosen  bool   `json:"chosen"`
		Visible bool   `json:"visible"`
	}
	selectOptions := func(path string) []choice {
		t.Helper()
		return e2eEval[[]choice](p, "read the options of "+path, field(path), `Array.from(document.querySelector(`+e2eJS(input(path))+`).options).slice(1)
			.map(o => ({value: o.value, label: o.textContent.trim(), chosen: o.selected, visible: true}))`)
	}
	checkboxes := func(path string) []choice {
		t.Helper()
		return e2eEval[[]choice](p, "read the checkboxes of "+path, field(path), `Array.from(document.querySelectorAll(`+e2eJS(boxes(path))+`))
			.map(b => ({value: b.value, label: b.closest("label").textContent.trim(), chosen: b.checked, visible: b.getClientRects().length > 0}))`)
	}
	opts := func(chosen int, pairs ...string) []choice {
		var out []choice
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, choice{Value: `"` + pairs[i] + `"`, Label: pairs[i+1], Chosen: i/2 == chosen, Visible: true})
		}
		return out
	}
	for _, c := range []struct {
		path string
		read func(string) []choice
		want []choice
	}{
		{"untitledSingleSelectEnum", selectOptions, opts(0, "Monica", "Monica", "Rachel", "Rachel", "Joey", "Joey", "Chandler", "Chandler", "Ross", "Ross", "Phoebe", "Phoebe")},
		{"titledSingleSelectEnum", selectOptions, opts(0, "hero-1", "Superman", "hero-2", "Green Lantern", "hero-3", "Wonder Woman")},
		{"legacyTitledEnum", selectOptions, opts(0, "pet-1", "Cats", "pet-2", "Dogs", "pet-3", "Birds", "pet-4", "Fish", "pet-5", "Reptiles")},
		{"untitledMultipleSelectEnum", checkboxes, opts(0, "Guitar", "Guitar", "Piano", "Piano", "Violin", "Violin", "Drums", "Drums", "Bass", "Bass")},
		{"titledMultipleSelectEnum", checkboxes, opts(0, "fish-1", "Tuna", "fish-2", "Salmon", "fish-3", "Trout")},
	} {
		if got := c.read(c.path); !reflect.DeepEqual(got, c.want) {
			t.Errorf("the %s field offers\n%+v\nwant\n%+v", c.path, got, c.want)
		}
	}
	for path, want := range map[string]string{"firstLine": "It was a dark and stormy night.", "integer": "42", "number": "3.14"} {
		if got := p.value(input(path)); got != want {
			t.Errorf("the %s field starts with %q, want its default %q", path, got, want)
		}
	}
	// The hints name the choices' defaults as the choices show them.
	for path, want := range map[string]string{"titledSingleSelectEnum": "default Superman", "legacyTitledEnum": "default Cats",
		"titledMultipleSelectEnum": "1 to 3 items · default Tuna", "untitledMultipleSelectEnum": "1 to 3 items · default Guitar"} {
		if got := p.text(field(path) + ` > .sf-limits`); got != want {
			t.Errorf("the %s field's limits read %q, want %q", path, got, want)
		}
	}
	if shots != "" {
		p.screenshot(shots, "everything-elicit-form", card)
	}

	// Fill it in, with an email that is none.
	p.typeInto(input("name"), "Ada Lovelace")
	p.do("check Boolean", card, chromedp.Click(chromedp.CSS(card+` input[type=checkbox][name="arg.check"]`)))
	p.typeInto(input("email"), "not-an-email")
	p.typeInto(input("integer"), "7")
	p.choose(input("titledSingleSelectEnum"), "Wonder Woman")
	p.choose(input("legacyTitledEnum"), "Dogs")
	p.choose(input("untitledSingleSelectEnum"), "Joey")
	check := func(path, member string) {
		t.Helper()
		p.do("choose "+member, card, chromedp.Click(chromedp.CSS(boxes(path)+`[value='"`+member+`"']`)))
	}
	check("titledMultipleSelectEnum", "fish-3")
	check("untitledMultipleSelectEnum", "Piano")
	check("untitledMultipleSelectEnum", "Drums")
	accept := func() {
		t.Helper()
		p.accept("Accept", card)
	}
	// The browser knows the email is none: Accept stays disabled. Sent
	// anyway (as a page whose script did not run would), the server
	// refuses it at the field.
	acceptButton := card + ` [data-testid="input-accept"]`
	p.waitJS("wait for Accept to be disabled", card, `document.querySelector(`+e2eJS(acceptButton)+`).disabled`)
	if why := e2eEval[string](p, "read Accept's title", card, `document.querySelector(`+e2eJS(acceptButton)+`).title`); why == "" {
		t.Error("the disabled Accept does not say why")
	}
	e2eEval[bool](p, "enable and click Accept", card, `(() => { const b = document.querySelector(`+e2eJS(acceptButton)+`); b.disabled = false; b.click(); return true; })()`)
	emailErr := card + ` [data-testid="error-email"]`
	p.do("wait for the email's error", card, chromedp.WaitVisible(chromedp.CSS(emailErr)))
	if !e2eEval[bool](p, "find the error at the email field", card, `document.querySelector(`+e2eJS(emailErr)+`).closest("[data-sf-node]").dataset.sfPath === "email"`) {
		t.Errorf("the email error is not at the email field\n%s", p.dump(card))
	}
	if msg := p.text(emailErr); !strings.Contains(msg, "email") {
		t.Errorf("the email error reads %q", msg)
	}
	if n := e2eEval[int](p, "count the errors", card, `document.querySelectorAll(`+e2eJS(card+` [data-testid^="error-"]`)+`).length`); n != 1 {
		t.Errorf("the refused form shows %d errors, want only the email's\n%s", n, p.dump(card))
	}
	if got := p.outcome(tool); got != "" {
		t.Errorf("the tool shows the outcome %q while its elicitation is unanswered", got)
	}
	if n := e2eCountMethod(p.frames(), "out", "result", "elicitation/create"); n != 0 {
		t.Errorf("the invalid form sent %d answers, want none", n)
	}
	// What was chosen stays chosen.
	for path, want := range map[string]string{"name": "Ada Lovelace", "titledSingleSelectEnum": `"hero-3"`, "legacyTitledEnum": `"pet-2"`, "integer": "7"} {
		if got := p.value(input(path)); got != want {
			t.Errorf("after the refusal %s holds %q, want %q", path, got, want)
		}
	}
	chosen := func(path string) []string {
		var out []string
		for _, c := range checkboxes(path) {
			if c.Chosen {
				out = append(out, c.Label)
			}
		}
		return out
	}
	if got := chosen("titledMultipleSelectEnum"); !reflect.DeepEqual(got, []string{"Tuna", "Trout"}) {
		t.Errorf("after the refusal the fish chosen are %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "everything-elicit-error", field("email"))
	}

	p.typeInto(input("email"), "ada@example.com")
	accept()
	p.awaitTool(tool)
	p.wantOutcome(tool, "result")
	want := map[string]any{
		"name": "Ada Lovelace", "check": true, "firstLine": "It was a dark and stormy night.", "email": "ada@example.com",
		"integer": 7.0, "number": 3.14, "untitledSingleSelectEnum": "Joey", "untitledMultipleSelectEnum": []any{"Guitar", "Piano", "Drums"},
		"titledSingleSelectEnum": "hero-3", "titledMultipleSelectEnum": []any{"fish-1", "fish-3"}, "legacyTitledEnum": "pet-2",
	}
	var sent map[string]any
	p.waitFrames("our answer to elicitation/create", func(frames []e2eDOMFrame) (bool, string) {
		for _, f := range frames {
			if f.Direction != "out" || f.RPCType != "result" || f.Method != "elicitation/create" {
				continue
			}
			var answer struct {
				Result struct {
					Action  string         `json:"action"`
					Content map[string]any `json:"content"`
				} `json:"result"`
			}
			if err := json.Unmarshal([]byte(f.Body), &answer); err != nil || answer.Result.Action != "accept" {
				return false, fmt.Sprintf("the answer is not an accept (%v):\n%s", err, f.Body)
			}
			sent = answer.Result.Content
			return true, ""
		}
		return false, "no out/result elicitation/create frame"
	})
	if !reflect.DeepEqual(sent, want) {
		t.Errorf("the answer's content is\n%v\nwant\n%v", sent, want)
	}
	result := p.text(e2eCard(tool) + ` [data-testid="outcome"]`)
	for _, line := range []string{"- Name: Ada Lovelace", "- Agreed to terms: true", "- Email: ada@example.com", "- Favorite Integer: 7",
		"- Favorite Number: 3.14", `"titledSingleSelectEnum": "hero-3"`, `"legacyTitledEnum": "pet-2"`, `"fish-3"`, `"Drums"`} {
		if !strings.Contains(result, line) {
			t.Errorf("the result does not say %q:\n%s", line, result)
		}
	}
	if shots != "" {
		p.screenshot(shots, "everything-elicit-result", e2eCard(tool)+` [data-testid="outcome"]`)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
