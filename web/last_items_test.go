package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// sliceFrom returns body from the first marker on, failing when there is
// none.
func sliceFrom(tb testing.TB, body, marker string) string {
	tb.Helper()
	i := strings.Index(body, marker)
	if i < 0 {
		tb.Fatalf("no %s in:\n%s", marker, body)
	}
	return body[i:]
}

// TestReloadShowsLastPrompt gets prompts from their cards, then loads the
// prompt pages again: each card shows its prompt's last get, rebuilt from
// the stored response, with when and on which session it ran and its
// arguments in the form; a second get replaces the first, and a JSON-RPC
// error is remembered too.
func TestReloadShowsLastPrompt(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	serverID, sessionID := d.mustPromptSession(t, token, false)
	getPath := fmt.Sprintf("/sessions/%d/prompts/get", sessionID)
	get := func(values url.Values, outcome string) {
		t.Helper()
		r := d.htmxPost(t, getPath, token, values)
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="`+outcome+`"`) || strings.Contains(r.Body, "remember-error") ||
			strings.Contains(r.Body, "outcome-from") {
			t.Fatalf("get %v: %d\n%s", values, r.Status, r.Body)
		}
	}
	get(url.Values{"_prompt": {"greet"}, "arg.name": {"Ann"}, "arg.style": {"warm"}}, "result")
	get(url.Values{"_prompt": {"greet"}, "arg.name": {"<u>Bea</u>"}, "arg.style": {"dry"}}, "result")
	get(url.Values{"_prompt": {"broken"}}, "rpc-error")

	page := func(name string) string {
		t.Helper()
		r := d.get(t, fmt.Sprintf("/servers/%d/prompts/%s", serverID, url.PathEscape(name)))
		if r.Status != http.StatusOK {
			t.Fatalf("the page of prompt %s: %d\n%s", name, r.Status, r.Body)
		}
		card := sliceFrom(t, r.Body, `data-prompt="`+name+`"`)
		if end := strings.Index(card, `data-live-panel`); end >= 0 {
			card = card[:end]
		}
		return card
	}
	greet := page("greet")
	for _, want := range []string{`data-outcome="result"`, `data-testid="outcome-from"`, fmt.Sprintf(`href="/sessions/%d"`, sessionID),
		"Hello, &lt;u&gt;Bea&lt;/u&gt; (dry)", `name="arg.name" value="&lt;u&gt;Bea&lt;/u&gt;"`, `name="arg.style" value="dry"`,
		`data-testid="message-resource-link"`, `data-testid="result-json"`} {
		if !strings.Contains(greet, want) {
			t.Errorf("after a reload the greet card lacks %q:\n%s", want, greet)
		}
	}
	if n := strings.Count(greet, `data-testid="prompt-message"`); n != 5 {
		t.Errorf("after a reload the greet card shows %d messages, want 5", n)
	}
	if strings.Contains(greet, "Ann") || strings.Contains(greet, "<u>Bea") {
		t.Error("the greet card shows the first get, or unescaped server text")
	}
	if broken := page("broken"); !strings.Contains(broken, `data-outcome="rpc-error"`) || !strings.Contains(broken, "broken on purpose") ||
		!strings.Contains(broken, `data-testid="outcome-from"`) {
		t.Errorf("after a reload the broken card lacks its JSON-RPC error:\n%s", broken)
	}
	if odd := page(oddPromptName); strings.Contains(odd, `data-testid="outcome"`) {
		t.Error("a prompt never got shows an outcome")
	}
}

// TestReloadShowsLastRead reads resources from their cards, then opens
// them again: each card's read slot shows the resource's last read,
// rebuilt from the stored response, with when and on which session it ran;
// a failed read is remembered, a template read is remembered under its
// expanded URI, and a read from elsewhere (a result's resource link) is
// not remembered.
func TestReloadShowsLastRead(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "res", "transport": "http", "url": mustResourceServer(t, false).url})
	sess := d.MustAPISession(t, srv.ID)
	readPath := fmt.Sprintf("/sessions/%d/resources/read", sess.ID)
	read := func(values url.Values) {
		t.Helper()
		r := d.htmxPost(t, readPath, token, values)
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="resource-read-result"`) || strings.Contains(r.Body, "remember-error") {
			t.Fatalf("read %v: %d\n%s", values, r.Status, r.Body)
		}
	}
	read(url.Values{"uri": {"test://a-notes"}, "_remember": {"1"}})
	read(url.Values{"uri": {"test://nope"}, "_remember": {"1"}})
	read(url.Values{"uri": {"test://d-four"}}) // as a resource link reads
	if r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/resources/template", sess.ID), token, url.Values{
		"_template": {"test://items/{id}{?format}"}, "var.id": {"7"}}); !strings.Contains(r.Body, "item at test://items/7") {
		t.Fatalf("template read: %d\n%s", r.Status, r.Body)
	}

	slot := func(uri string) string {
		t.Helper()
		r := d.get(t, fmt.Sprintf("/servers/%d/resources?uri=%s", srv.ID, url.QueryEscape(uri)))
		if r.Status != http.StatusOK {
			t.Fatalf("the page of %s: %d\n%s", uri, r.Status, r.Body)
		}
		s := sliceFrom(t, r.Body, `id="resource-contents"`)
		if end := strings.Index(s, `data-live-panel`); end >= 0 {
			s = s[:end]
		}
		return s
	}
	notes := slot("test://a-notes")
	for _, want := range []string{`data-testid="resource-read-result"`, `hello &lt;world&gt;</pre>`, `data-testid="outcome-from"`,
		fmt.Sprintf(`href="/sessions/%d"`, sess.ID)} {
		if !strings.Contains(notes, want) {
			t.Errorf("after a reload the notes card's read slot lacks %q:\n%s", want, notes)
		}
	}
	if nope := slot("test://nope"); !strings.Contains(nope, `data-testid="resource-read-error"`) || !strings.Contains(nope, "JSON-RPC error") ||
		!strings.Contains(nope, `data-testid="outcome-from"`) {
		t.Errorf("after a reload the unknown resource's card lacks its failed read:\n%s", nope)
	}
	if item := slot("test://items/7"); !strings.Contains(item, "item at test://items/7") || !strings.Contains(item, `data-testid="outcome-from"`) {
		t.Errorf("the expanded URI's card lacks the template read:\n%s", item)
	}
	if four := slot("test://d-four"); strings.Contains(four, "resource-read-result") {
		t.Errorf("a read from a resource link was remembered:\n%s", four)
	}
}
