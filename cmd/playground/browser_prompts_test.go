package main

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// e2ePromptCard is the CSS selector of a prompt's card.
func e2ePromptCard(name string) string {
	return `[data-testid="prompt"][data-prompt="` + name + `"]`
}

// e2eSuggestionJS finds the suggestion want in the list under the input
// sel, once the list shows the answer for what the input holds; null
// until then.
func e2eSuggestionJS(sel, want string) string {
	return `(() => {
		const input = document.querySelector(` + e2eJS(sel) + `);
		const list = input && document.getElementById(input.getAttribute("aria-controls") || "");
		if (!list || list.hidden || list.dataset.completeFor !== input.value) return null;
		return Array.from(list.querySelectorAll("[data-complete-value]")).find(o => o.textContent === ` + e2eJS(want) + `) || null;
	})()`
}

// pickSuggestion types text into the completable input sel, waits until
// the suggestions under it offer want, clicks it, and checks that the
// input holds it and the list has closed.
func (p *e2ePage) pickSuggestion(sel, text, want string) {
	p.t.Helper()
	p.typeInto(sel, text)
	option := e2eSuggestionJS(sel, want)
	p.waitJS("wait for the suggestion "+want+" under "+sel, sel+` ~ [data-complete-list]`, `!!`+option)
	e2eEval[bool](p, "mark the suggestion "+want, sel, `(`+option+`).toggleAttribute("data-e2e-pick", true)`)
	p.do("click the suggestion "+want, sel, chromedp.Click(chromedp.CSS(sel+` ~ [data-complete-list] [data-e2e-pick]`)))
	p.wantChosen(sel, want)
}

// wantChosen waits until the input sel holds want and checks that the
// suggestions under it have closed.
func (p *e2ePage) wantChosen(sel, want string) {
	p.t.Helper()
	p.waitJS("wait for "+sel+" to hold "+want, sel, `document.querySelector(`+e2eJS(sel)+`).value === `+e2eJS(want))
	if e2eEval[bool](p, "look at the list after choosing", sel, `!!(() => { const l = document.querySelector(`+e2eJS(sel+` ~ [data-complete-list]`)+`); return l && !l.hidden; })()`) {
		p.t.Errorf("the suggestions under %s stay open after choosing %s", sel, want)
	}
}

// TestBrowserPrompts opens the demo server's Prompts section: a prompt by
// its URL, a required argument left empty (a field error, nothing sent),
// an argument completed from the server's suggestions as the user types,
// and the prompt's messages shown by role, shown again after a reload
// with the arguments that made them; a resource template's variable
// is completed too, and a failure shows under the field. With server-everything in
// node_modules, its completable prompt's second argument is completed
// from values that depend on the first.
func TestBrowserPrompts(t *testing.T) {
	srv, p := e2eBrowse(t)
	p.connectDemoServer(srv.URL)
	serverPath := e2eEval[string](p, "read the server's path", "", `location.pathname`)
	shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR")

	p.do("open the Prompts section", "main",
		chromedp.Click(chromedp.CSS(`[data-testid="tab-prompts"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="section-prompts"] [data-testid="item-list"]`)))
	review := e2ePromptCard("code_review")
	e2eNavigate(p, "open code_review by its URL", srv.URL+serverPath+"/prompts/code_review", review)

	// A required argument left empty: a field error, no request.
	p.typeInto(review+` [name="arg.code"]`, "x = 1")
	p.do("mark the card", review, chromedp.SetAttributeValue(chromedp.CSS(review), "data-e2e-stale", ""))
	p.do("get code_review without a language", review,
		chromedp.Click(chromedp.CSS(review+` [data-testid="get-prompt"]`)),
		chromedp.WaitVisible(chromedp.CSS(review+`:not([data-e2e-stale]) [data-testid="error-language"]`)))
	if got := p.value(review + ` [name="arg.code"]`); got != "x = 1" {
		t.Errorf("the code field holds %q after the field error", got)
	}

	p.pickSuggestion(review+` [name="arg.language"]`, "py", "python")
	p.do("mark the card", review, chromedp.SetAttributeValue(chromedp.CSS(review), "data-e2e-stale", ""))
	p.do("get code_review", review,
		chromedp.Click(chromedp.CSS(review+` [data-testid="get-prompt"]`)),
		chromedp.WaitVisible(chromedp.CSS(review+`:not([data-e2e-stale]) [data-testid="outcome"]`)))
	if got := p.text(review + ` [data-testid="prompt-message"][data-role="user"] [data-testid="message-text"]`); !strings.Contains(got, "```python\nx = 1\n```") {
		t.Errorf("code_review's user message reads %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "prompt-code-review", review)
	}

	// Opening another prompt from the list swaps only the card.
	greeting := e2ePromptCard("greeting")
	p.do("open greeting from the list", `[data-testid="item-list"]`,
		chromedp.Click(chromedp.CSS(`[data-testid="item-link"][data-item="greeting"]`)),
		chromedp.WaitVisible(chromedp.CSS(greeting)))
	p.typeInto(greeting+` [name="arg.name"]`, "Gr")
	p.waitJS("wait for the suggestions", greeting, `(() => {
		const l = document.querySelector(`+e2eJS(greeting+` [data-complete-list]`)+`);
		return !!l && !l.hidden && l.textContent.includes("Grace Hopper");
	})()`)
	if shots != "" {
		p.screenshot(shots, "prompt-suggestions", greeting)
	}
	p.pickSuggestion(greeting+` [name="arg.name"]`, "a", "Alan Turing")
	p.do("mark the card", greeting, chromedp.SetAttributeValue(chromedp.CSS(greeting), "data-e2e-stale", ""))
	p.do("get greeting", greeting,
		chromedp.Click(chromedp.CSS(greeting+` [data-testid="get-prompt"]`)),
		chromedp.WaitVisible(chromedp.CSS(greeting+`:not([data-e2e-stale]) [data-testid="outcome"]`)))
	roles := e2eEval[string](p, "read the roles", greeting, `Array.from(document.querySelectorAll(`+e2eJS(greeting+` [data-testid="prompt-message"]`)+`), m => m.dataset.role).join(",")`)
	if roles != "user,assistant" {
		t.Errorf("greeting's messages have the roles %q, want user,assistant", roles)
	}
	if got := p.text(greeting + ` [data-role="assistant"] [data-testid="message-text"]`); !strings.Contains(got, "Hello, Alan Turing!") {
		t.Errorf("the assistant says %q", got)
	}
	// The bubbles sit on either side.
	if e2eEval[bool](p, "measure the bubbles", greeting, `(() => {
		const [u, a] = document.querySelectorAll(`+e2eJS(greeting+` [data-testid="prompt-message"]`)+`);
		return u.getBoundingClientRect().right <= a.getBoundingClientRect().right;
	})()`) {
		t.Error("the user's message is not on the right of the assistant's")
	}
	p.waitFrames("completion/complete in the traffic panel", func(fs []e2eDOMFrame) (bool, string) {
		n := e2eCountMethod(fs, "out", "request", "completion/complete")
		return n >= 2, fmt.Sprintf("%d completion requests", n)
	})
	if shots != "" {
		p.screenshot(shots, "prompt-greeting", greeting)
	}

	// The prompt's answer is saved to a collection like a tool's.
	save := greeting + ` [data-testid="save-to-collection"]`
	p.fillSaveToCollection(save, "Prompts", "greet Alan", true)
	if shots != "" {
		p.screenshot(shots, "prompt-save-form", save)
	}
	if got := p.submitSaveToCollection(save); !strings.Contains(got, "greet Alan") || !strings.Contains(got, "Prompts") {
		t.Errorf("saving the prompt's answer says %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "prompt-saved", save)
	}

	// After a reload the card shows the prompt's last get: its arguments,
	// its messages, and when and on which session it ran.
	e2eNavigate(p, "reload greeting", srv.URL+serverPath+"/prompts/greeting", greeting+` [data-testid="outcome-from"]`)
	if got := p.value(greeting + ` [name="arg.name"]`); got != "Alan Turing" {
		t.Errorf("after a reload greeting's name holds %q", got)
	}
	if got := p.text(greeting + ` [data-role="assistant"] [data-testid="message-text"]`); !strings.Contains(got, "Hello, Alan Turing!") {
		t.Errorf("after a reload the assistant says %q", got)
	}
	if got := p.text(greeting + ` [data-testid="outcome-from"]`); !strings.Contains(got, "Last call, from") || !strings.Contains(got, "session "+p.liveSessionID()) {
		t.Errorf("after a reload the origin line reads %q", got)
	}
	if shots != "" {
		p.screenshot(shots, "prompt-reloaded", greeting)
	}

	// A failure shows under the field: here the page's CSRF token is
	// wrong, so the dashboard refuses to ask the server.
	e2eEval[bool](p, "spoil the page's CSRF token", "body", `(document.body.setAttribute("hx-headers", '{"X-CSRF-Token":"AAAAAAAAAAAAAAAAAAAAAAAAAA"}'), true)`)
	p.typeInto(greeting+` [name="arg.name"]`, "L")
	p.waitJS("wait for the error under the field", greeting, `(() => {
		const e = document.querySelector(`+e2eJS(greeting+` [data-complete-error]`)+`);
		return !!e && !e.hidden && e.textContent.includes("403");
	})()`)
	if e2eEval[bool](p, "look at the list after the failure", greeting, `(() => { const l = document.querySelector(`+e2eJS(greeting+` [data-complete-list]`)+`); return !!l && !l.hidden; })()`) {
		t.Error("the suggestions stay open after a failure")
	}
	if shots != "" {
		p.screenshot(shots, "prompt-complete-error", greeting)
	}
	p.forgetConsole(srv.URL + "/sessions/" + p.liveSessionID() + "/complete")

	// A resource template's variable is completed the same way (the page loads afresh, with a good token).
	e2eNavigate(p, "open the users template", srv.URL+serverPath+"/resources?template="+url.QueryEscape("demo://users/{id}"), `[data-testid="template-form"]`)
	p.pickSuggestion(`[data-testid="template-var"][data-var="id"]`, "gr", "grace")
	if shots != "" {
		p.screenshot(shots, "template-completed", `[data-testid="template-form"]`)
	}
	for _, m := range p.consoleErrors() {
		t.Errorf("browser console: %s", m)
	}

	t.Run("server-everything", func(t *testing.T) {
		everything := filepath.Join(e2eNodeModules(), "@modelcontextprotocol", "server-everything", "dist", "index.js")
		if _, err := os.Stat(everything); err != nil {
			t.Skipf("needs @modelcontextprotocol/server-everything in node_modules: %v", err)
		}
		var created struct {
			ID int64 `json:"id"`
		}
		e2ePostJSON(t, srv.URL+"/api/v1/servers", map[string]any{"name": "everything", "transport": "stdio",
			"command": "node", "args": []string{everything, "stdio"}}, http.StatusCreated, &created)
		p.do("open server-everything and connect", "main", chromedp.Navigate(fmt.Sprintf("%s/servers/%d", srv.URL, created.ID)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="connect"]`)),
			chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="overview"]`)))
		card := e2ePromptCard("completable-prompt")
		e2eNavigate(p, "open completable-prompt by its URL", fmt.Sprintf("%s/servers/%d/prompts/completable-prompt", srv.URL, created.ID), card)
		p.pickSuggestion(card+` [name="arg.department"]`, "E", "Engineering")
		// The name's suggestions depend on the department chosen; this one
		// is chosen with the keyboard, and Enter does not submit the form.
		name := card + ` [name="arg.name"]`
		p.typeInto(name, "A")
		p.waitJS("wait for Alice under the name", card, `!!`+e2eSuggestionJS(name, "Alice"))
		p.do("choose Alice with the keyboard", card, chromedp.SendKeys(chromedp.CSS(name), kb.ArrowDown+kb.Enter))
		p.wantChosen(name, "Alice")
		if e2eEval[bool](p, "look for an outcome", card, `!!document.querySelector(`+e2eJS(card+` [data-testid="outcome"]`)+`)`) {
			t.Error("Enter on a suggestion submitted the form")
		}
		p.do("mark the card", card, chromedp.SetAttributeValue(chromedp.CSS(card), "data-e2e-stale", ""))
		p.do("get completable-prompt", card,
			chromedp.Click(chromedp.CSS(card+` [data-testid="get-prompt"]`)),
			chromedp.WaitVisible(chromedp.CSS(card+`:not([data-e2e-stale]) [data-testid="outcome"]`)))
		if got := p.text(card + ` [data-role="user"] [data-testid="message-text"]`); got != "Please promote Alice to the head of the Engineering team." {
			t.Errorf("the user message reads %q", got)
		}
		if shots != "" {
			p.screenshot(shots, "prompt-everything", card)
		}
		for _, m := range p.consoleErrors() {
			t.Errorf("browser console: %s", m)
		}
	})
}
