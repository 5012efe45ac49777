package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserInputDialogSubmitWaitsForRequiredFields calls the demo
// server's ask_name and summarize: each server request opens by itself in
// a modal dialog with the cursor in it, and its Accept (Send reply) stays
// disabled until the required field is filled in, going back to disabled
// when it is emptied; Decline is always there. The answers reach the tools.
func TestBrowserInputDialogSubmitWaitsForRequiredFields(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	disabled := func(sel string) bool {
		return e2eEval[bool](p, "read whether "+sel+" is disabled", sel, `document.querySelector(`+e2eJS(sel)+`).disabled`)
	}

	p.openTool("ask_name")
	p.startTool("ask_name")
	ask := p.waitInput("elicit-form", "")
	p.waitJS("wait for the modal dialog with the elicitation", "body", `(() => {
		const d = document.querySelector(`+e2eJS(e2eInputDialog)+`);
		return !!d && d.matches(":modal") && !!d.querySelector(`+e2eJS(ask)+`) && d.contains(document.activeElement);
	})()`)
	accept, decline := e2eInputDialog+" "+ask+` [data-testid="input-accept"]`, e2eInputDialog+" "+ask+` [data-testid="input-decline"]`
	if !disabled(accept) || disabled(decline) {
		t.Errorf("with the required name empty, Accept disabled %t and Decline disabled %t, want true and false", disabled(accept), disabled(decline))
	}
	if why := e2eEval[string](p, "read Accept's title", accept, `document.querySelector(`+e2eJS(accept)+`).title`); !strings.Contains(why, "required") {
		t.Errorf("the disabled Accept says %q, want why", why)
	}
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "input-dialog-accept-disabled", ask)
	}
	name := ask + ` [name="arg.name"]`
	p.typeInto(name, "Ada")
	p.waitJS("wait for Accept to be enabled", ask, `!document.querySelector(`+e2eJS(accept)+`).disabled`)
	if dir := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); dir != "" {
		p.screenshot(dir, "input-dialog-accept-enabled", ask)
	}
	p.do("empty the name", name, chromedp.Focus(chromedp.CSS(name)), chromedp.KeyEvent("\b\b\b"))
	p.waitJS("wait for Accept to be disabled again", ask, `document.querySelector(`+e2eJS(accept)+`).disabled`)
	p.typeInto(name, "Grace")
	p.waitJS("wait for Accept to be enabled", ask, `!document.querySelector(`+e2eJS(accept)+`).disabled`)
	p.do("click Accept", ask, chromedp.Click(chromedp.CSS(accept)))
	p.waitJS("wait for the dialog to close", "body", `!document.querySelector(`+e2eJS(e2eInputDialog)+`)`)
	p.awaitTool("ask_name")
	if got := p.text(e2eCard("ask_name") + ` [data-testid="content-text"]`); got != "Hi Grace!" {
		t.Errorf("ask_name answers %q, want the name from the dialog", got)
	}

	p.openTool("summarize")
	p.typeInto(e2eCard("summarize")+` [name="arg.text"]`, "the sea")
	p.startTool("summarize")
	sample := p.waitInput("sample", "")
	p.inDialog(sample)
	send := e2eInputDialog + " " + sample + ` [data-testid="input-accept"]`
	if !disabled(send) {
		t.Error("Send reply is enabled before a reply is written")
	}
	p.typeInto(sample+` textarea[name="reply"]`, "A calm sea.")
	p.waitJS("wait for Send reply to be enabled", sample, `!document.querySelector(`+e2eJS(send)+`).disabled`)
	p.do("click Send reply", sample, chromedp.Click(chromedp.CSS(send)))
	p.awaitTool("summarize")
	if got := p.text(e2eCard("summarize") + ` [data-testid="content-text"]`); !strings.Contains(got, "A calm sea.") {
		t.Errorf("summarize answers %q, want the reply from the dialog", got)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}
}
