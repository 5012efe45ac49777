package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserCollectionChecks saves three demo-server calls (weather for
// Paris, a 2-second slow call and an echo) into one collection; gives the
// weather example an assertion that holds, one that fails and a capture
// of the city; makes the echo example send {{city}} and {{unit}} and be
// judged by an assertion alone; creates an environment with a secret and
// a plain value; runs the collection with it and watches the report go
// from "Running… n of 3" to the final counts, with the failing
// assertion's message. The secret never shows in a page. When
// PLAYGROUND_SCREENSHOT_DIR is set, checks-edit.png, checks-environments.png,
// checks-running.png and checks-report.png are saved there.
func TestBrowserCollectionChecks(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")
	const secret = "s3cr3t-VALUE"

	saveCall := func(tool, name string, args map[string]string, first bool) {
		t.Helper()
		p.saveToCollection(p.callForSaving(tool, args), "Checks", name, first)
	}
	saveCall("weather", "Paris weather", map[string]string{"city": "Paris"}, true)
	saveCall("slow", "slow", map[string]string{"seconds": "2", "steps": "1"}, false)
	saveCall("echo", "echo city", map[string]string{"message": "x"}, false)

	p.do("open the collection", "main",
		chromedp.Click(chromedp.CSS(e2eCard("echo")+` [data-testid="saved-collection-link"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="example"][data-example-name="echo city"]`)))

	// The weather example: an assertion that holds, one that fails, a capture.
	weather := `[data-testid="example"][data-example-name="Paris weather"]`
	row := func(ex string, n int) string {
		return ex + ` [data-testid="assertion-rows"] > [data-testid="assertion-row"]:nth-child(` + string(rune('0'+n)) + `)`
	}
	p.do("open the weather example's checks", weather,
		chromedp.Click(chromedp.CSS(weather+` [data-testid="checks-editor"] > summary`)),
		chromedp.WaitVisible(chromedp.CSS(row(weather, 1)+` [data-testid="assertion-kind"]`)))
	p.choose(row(weather, 1)+` [data-testid="assertion-kind"]`, "equals")
	p.typeInto(row(weather, 1)+` [data-testid="assertion-path"]`, "$.structuredContent.city")
	p.typeInto(row(weather, 1)+` [data-testid="assertion-value"]`, `"Paris"`)
	if d := e2eEval[string](p, "read the pattern input's display", weather, `getComputedStyle(document.querySelector(`+e2eJS(row(weather, 1)+` [data-testid="assertion-pattern"]`)+`)).display`); d != "none" {
		t.Errorf("an equals row shows its pattern input (display %q)", d)
	}
	p.do("add an assertion row", weather,
		chromedp.Click(chromedp.CSS(weather+` [data-testid="add-assertion"]`)),
		chromedp.WaitVisible(chromedp.CSS(row(weather, 2)+` [data-testid="assertion-kind"]`)))
	p.choose(row(weather, 2)+` [data-testid="assertion-kind"]`, "matches pattern")
	p.typeInto(row(weather, 2)+` [data-testid="assertion-path"]`, "$.structuredContent.conditions")
	p.typeInto(row(weather, 2)+` [data-testid="assertion-pattern"]`, "^tornado$")
	p.typeInto(weather+` [data-testid="capture-name"]`, "city")
	p.typeInto(weather+` [data-testid="capture-path"]`, "$.structuredContent.city")
	if shots != "" {
		p.screenshot(shots, "checks-edit", weather+` [data-testid="checks-editor"]`)
	}
	p.do("save the weather example", "main",
		chromedp.Click(chromedp.CSS(weather+` [data-testid="example-save"]`)),
		chromedp.WaitVisible(chromedp.CSS(weather+` [data-testid="example-capture"]`)))
	if got := p.text(weather + ` [data-testid="example-checks"]`); !strings.Contains(got, `$.structuredContent.city equals "Paris"`) ||
		!strings.Contains(got, "$.structuredContent.conditions matches /^tornado$/") || !strings.Contains(got, "{{city}}") {
		t.Errorf("the weather example's checks read %q", got)
	}

	// The echo example uses the capture and the environment, judged by an assertion alone.
	echo := `[data-testid="example"][data-example-name="echo city"]`
	p.setValue(echo+` [data-testid="example-params"]`, `{"name":"echo","arguments":{"message":"{{city}} in {{unit}}"}}`)
	p.do("open the echo example's checks", echo,
		chromedp.Click(chromedp.CSS(echo+` [data-testid="checks-editor"] > summary`)),
		chromedp.Click(chromedp.CSS(echo+` [data-testid="example-compare"]`)))
	p.choose(row(echo, 1)+` [data-testid="assertion-kind"]`, "equals")
	p.typeInto(row(echo, 1)+` [data-testid="assertion-path"]`, "$.content[0].text")
	p.typeInto(row(echo, 1)+` [data-testid="assertion-value"]`, `"Paris in celsius"`)
	p.do("save the echo example", "main",
		chromedp.Click(chromedp.CSS(echo+` [data-testid="example-save"]`)),
		chromedp.WaitVisible(chromedp.CSS(echo+` [data-testid="example-assertion"]`)))

	// An environment with a secret and a plain value.
	envNew := `[data-testid="new-environment"]`
	p.do("open New environment", envNew,
		chromedp.Click(chromedp.CSS(envNew+` > summary`)),
		chromedp.WaitVisible(chromedp.CSS(envNew+` [data-testid="environment-name"]`)))
	p.typeInto(envNew+` [data-testid="environment-name"]`, "staging")
	p.typeInto(envNew+` [data-testid="env-row"]:nth-child(1) [data-testid="env-var-name"]`, "token")
	p.typeInto(envNew+` [data-testid="env-row"]:nth-child(1) [data-testid="env-var-value"]`, secret)
	p.do("mark it secret", envNew, chromedp.Click(chromedp.CSS(envNew+` [data-testid="env-row"]:nth-child(1) [data-testid="env-var-secret"]`)))
	p.do("add a variable row", envNew,
		chromedp.Click(chromedp.CSS(envNew+` [data-testid="add-env-row"]`)),
		chromedp.WaitVisible(chromedp.CSS(envNew+` [data-testid="env-row"]:nth-child(2) [data-testid="env-var-name"]`)))
	p.typeInto(envNew+` [data-testid="env-row"]:nth-child(2) [data-testid="env-var-name"]`, "unit")
	p.typeInto(envNew+` [data-testid="env-row"]:nth-child(2) [data-testid="env-var-value"]`, "celsius")
	p.typeInto(envNew+` [data-testid="environment-origins"]`, "stdio") // the demo server's
	p.do("create the environment", "main",
		chromedp.Click(chromedp.CSS(envNew+` [data-testid="environment-save"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="environment"][data-env-name="staging"]`)))
	if got := p.text(`[data-testid="environment"]`); !strings.Contains(got, "•••• (secret)") || !strings.Contains(got, "celsius") || !strings.Contains(got, "Secrets go only to stdio") {
		t.Errorf("the environment reads %q", got)
	}
	if e2eEval[bool](p, "look for the secret", "", `document.documentElement.outerHTML.includes(`+e2eJS(secret)+`)`) {
		t.Error("the collection page holds the secret")
	}
	if shots != "" {
		p.screenshot(shots, "checks-environments", `[data-testid="environments"]`)
	}

	// Run with the environment and watch it go.
	p.choose(`[data-testid="run-environment"]`, "staging")
	p.do("run all", "main",
		chromedp.Click(chromedp.CSS(`[data-testid="run-all"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="run-progress"]`)))
	// The weather example is judged at once, the slow one takes 2 s.
	p.waitJS("the report shows the first result while the run goes", "main",
		`(() => { const e = document.querySelector('[data-testid="run-progress"]'); return !!e && /Running… 1 of 3/.test(e.textContent) && !!document.querySelector('[data-testid="run-result"]'); })()`)
	if got := strings.Join(strings.Fields(p.text(`[data-testid="run-progress"]`)), " "); got != "Running… 1 of 3 (1 failed so far)" {
		t.Errorf("the running report reads %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "checks-running", `[data-testid="run-report"]`)
	}
	p.do("wait for the report", "main", chromedp.WaitVisible(chromedp.CSS(`[data-testid="run-summary"]`)))
	if got := strings.Join(strings.Fields(p.text(`[data-testid="run-summary"]`)), " "); got != "2 passed, 1 failed" {
		t.Errorf("the run's summary reads %q\n%s", got, p.dump("main"))
	}
	if got := p.text(`[data-testid="run-environment-name"]`); got != "staging" {
		t.Errorf("the report names the environment %q", got)
	}
	failed := `[data-testid="run-result"][data-outcome="fail"]`
	if got := p.text(failed + ` [data-passed="false"]`); !strings.Contains(got, "✗") || !strings.Contains(got, "$.structuredContent.conditions matches /^tornado$/") ||
		!strings.Contains(got, "$.structuredContent.conditions is") {
		t.Errorf("the failed check reads %q", got)
	}
	if got := p.text(failed + ` [data-passed="true"]`); !strings.Contains(got, "✓") {
		t.Errorf("the check that held reads %q", got)
	}
	if e2eEval[bool](p, "look for the trigger", "", `!!document.querySelector('[hx-trigger]#run-report')`) {
		t.Error("the finished report still polls")
	}
	if e2eEval[bool](p, "look for the secret", "", `document.documentElement.outerHTML.includes(`+e2eJS(secret)+`)`) {
		t.Error("the report holds the secret")
	}
	if shots != "" {
		p.screenshot(shots, "checks-report", `[data-testid="run-summary"]`)
	}
}
