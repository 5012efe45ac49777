package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// collectionFixture is a collection with echo examples saved from a live
// session of the SDK test server.
type collectionFixture struct {
	d       *dashboard
	token   string
	session int64
	colPath string
}

// mustCollection connects the SDK test server and saves one echo call
// (text "hi") per name into a new collection, in order.
func mustCollection(t *testing.T, names ...string) (collectionFixture, []string) {
	t.Helper()
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, sdkStdioServer("col-sdk"))
	sess := d.MustAPISession(t, srv.ID)
	f := collectionFixture{d: d, token: d.MustCSRF(t), session: sess.ID}
	var examples []string
	for _, name := range names {
		r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/console", sess.ID), f.token, url.Values{
			"mode": {"request"}, "method": {"tools/call"}, "params": {`{"name":"echo","arguments":{"text":"hi"}}`}})
		m := saveFrameRe.FindStringSubmatch(r.Body)
		if m == nil {
			t.Fatalf("no Save to collection control:\n%s", r.Body)
		}
		r = d.htmxPost(t, "/collections/save", f.token, url.Values{"frame": {m[1]}, "collection": {"0"}, "new_collection": {"web"}, "name": {name}})
		cm := collectionRe.FindStringSubmatch(r.Body)
		if cm == nil {
			t.Fatalf("save %s: %s", name, r.Body)
		}
		f.colPath = "/collections/" + cm[1]
	}
	for _, m := range exampleRe.FindAllStringSubmatch(f.d.get(t, f.colPath).Body, -1) {
		examples = append(examples, f.colPath+"/examples/"+m[1])
	}
	if len(examples) != len(names) {
		t.Fatalf("the collection lists %d examples, want %d", len(examples), len(names))
	}
	return f, examples
}

// post posts a form with the CSRF token.
func (f collectionFixture) post(t *testing.T, path string, v url.Values) response {
	t.Helper()
	v.Set("_csrf", f.token)
	return f.d.postForm(t, path, v)
}

// run runs the whole collection (with environment env, "" for none) and
// returns the finished report.
func (f collectionFixture) run(t *testing.T, env string) string {
	t.Helper()
	r := f.post(t, f.colPath+"/run", url.Values{"session": {fmt.Sprint(f.session)}, "example": {"0"}, "environment": {env}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("run: %d\n%s", r.Status, r.Body)
	}
	return f.d.finishedReport(t, r.Header.Get("Location"))
}

// TestExampleAssertionsAndCaptures edits assertions and captures through
// the example's form: refusals show at their field with what was typed;
// saved ones show on the example; a value captured by the first example
// fills the {{placeholder}} of the second; a failing assertion shows ✗ and
// its message in the run's report; typed markup is escaped.
func TestExampleAssertionsAndCaptures(t *testing.T) {
	f, ex := mustCollection(t, "first", "second")

	tests := []struct {
		name   string
		form   url.Values
		field  string
		echoes []string // what the refused form must show again
	}{
		{"bad JSONPath", url.Values{"a_kind": {"exists"}, "a_path": {"$.content[0"}}, "assertions", []string{`value="$.content[0"`, "is not a JSONPath"}},
		{"path without $", url.Values{"a_kind": {"exists"}, "a_path": {"content"}}, "assertions", []string{"starts with $"}},
		{"expected value not JSON", url.Values{"a_kind": {"equals"}, "a_path": {"$.x"}, "a_value": {"hi"}}, "assertions", []string{`value="hi"`, "not JSON"}},
		{"bad pattern", url.Values{"a_kind": {"matches"}, "a_path": {"$.x"}, "a_pattern": {"("}}, "assertions", []string{`value="("`, "not a regular expression"}},
		{"latency not a number", url.Values{"a_kind": {"latency"}, "a_maxms": {"soon"}}, "assertions", []string{`value="soon"`, "whole number"}},
		{"no kind", url.Values{"a_kind": {""}, "a_path": {"$.x"}}, "assertions", []string{"pick what it checks"}},
		{"assertions only without one", url.Values{"a_kind": {""}}, "assertions", []string{"at least one assertion"}},
		{"bad capture name", url.Values{"compare": {"on"}, "c_name": {"1st"}, "c_path": {"$.x"}}, "captures", []string{`value="1st"`}},
		{"bad capture path", url.Values{"compare": {"on"}, "c_name": {"ok"}, "c_path": {"x"}}, "captures", []string{`value="x"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.form.Set("params", `{"name":"echo","arguments":{"text":"hi"}}`)
			r := f.post(t, ex[0], tt.form)
			if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `data-testid="error-`+tt.field+`"`) {
				t.Fatalf("status %d, want 422 with the error at %s:\n%s", r.Status, tt.field, r.Body)
			}
			for _, w := range tt.echoes {
				if !strings.Contains(r.Body, w) {
					t.Errorf("the refused form lacks %q", w)
				}
			}
		})
	}

	checks := url.Values{"compare": {"on"}, "a_kind": {"exists"}, "a_path": {"$.content"}}
	if r := f.d.postForm(t, ex[0], checks); r.Status != http.StatusForbidden {
		t.Errorf("an edit without the CSRF token: %d, want 403", r.Status)
	}
	checks.Set("_csrf", f.token)
	foreign := f.d.newRequest(t, http.MethodPost, ex[0], strings.NewReader(checks.Encode()))
	foreign.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	foreign.Header.Set("Origin", "http://evil.example")
	if r := f.d.do(t, foreign); r.Status != http.StatusForbidden {
		t.Errorf("an edit from another origin: %d, want 403", r.Status)
	}
	if strings.Contains(f.d.get(t, f.colPath).Body, `data-testid="example-assertion"`) {
		t.Fatal("a refused edit added an assertion")
	}

	r := f.post(t, ex[0], url.Values{"compare": {"on"}, "params": {`{"name":"echo","arguments":{"text":"hi"}}`},
		"a_kind": {"equals", "latency", ""}, "a_path": {"$.content[0].text", "", ""}, "a_value": {`"echo: hi"`, "", ""},
		"a_pattern": {"", "", ""}, "a_maxms": {"", "60000", ""},
		"c_name": {"greeting", ""}, "c_path": {"$.content[0].text", ""}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("save the first example's checks: %d\n%s", r.Status, r.Body)
	}
	r = f.post(t, ex[1], url.Values{"params": {`{"name":"echo","arguments":{"text":"{{greeting}}"}}`},
		"a_kind": {"equals", "matches"}, "a_path": {"$.content[0].text", "$.content[0].text"}, "a_value": {`"echo: echo: hi"`, ""},
		"a_pattern": {"", "^<script>alert(1)</script>"}, "a_maxms": {"", ""}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("save the second example's checks: %d\n%s", r.Status, r.Body)
	}
	page := f.d.get(t, f.colPath).Body
	for _, w := range []string{
		`$.content[0].text equals &#34;echo: hi&#34;`, "answer within 60000 ms", "{{greeting}}",
		"matches /^&lt;script&gt;alert(1)&lt;/script&gt;/", "Judged by its assertions alone",
		`value="^&lt;script&gt;alert(1)&lt;/script&gt;"`,
	} {
		if !strings.Contains(page, w) {
			t.Errorf("the collection page lacks %q", w)
		}
	}
	if strings.Contains(page, "<script>alert") {
		t.Error("the assertion's pattern is not escaped")
	}
	if n := strings.Count(page, `value="on" checked data-testid="example-compare"`); n != 1 {
		t.Errorf("%d examples compare the snapshot, want 1", n)
	}

	report := f.run(t, "")
	if !strings.Contains(report, "1 passed, 1 failed") {
		t.Fatalf("report:\n%s", report)
	}
	for _, w := range []string{`data-passed="true"`, "✓", "✗", `is &#34;echo: echo: hi&#34;`, "1 of 2 assertions failed", "with no environment"} {
		if !strings.Contains(report, w) {
			t.Errorf("the report lacks %q", w)
		}
	}
	if strings.Contains(report, "<script>alert") {
		t.Error("the report does not escape the pattern")
	}
}

var envActionRe = regexp.MustCompile(`action="(/collections/\d+/environments/\d+)"`)

// TestEnvironments creates, edits, uses and deletes an environment: its
// secret never comes back in a page, an empty secret keeps the stored
// value, refusals show at their field, markup is escaped, and POSTs
// without the CSRF token or from another origin are refused.
func TestEnvironments(t *testing.T) {
	f, ex := mustCollection(t, "first")
	const secret = "s3cr3t-VALUE"
	envs := f.colPath + "/environments"

	refused := []struct {
		name, field string
		form        url.Values
		echo        string
	}{
		{"no name", "name", url.Values{"name": {" "}, "v_name": {"a"}, "v_value": {"1"}}, `value="a"`},
		{"duplicate variable", "values", url.Values{"name": {"dup"}, "v_name": {"city", "city"}, "v_value": {"Paris", "Rome"}}, `value="Rome"`},
		{"bad variable name", "values", url.Values{"name": {"bad"}, "v_name": {"my var"}, "v_value": {"1"}}, `value="my var"`},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			tt.form.Set("v_secret", "5")
			r := f.post(t, envs, tt.form)
			if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `data-testid="error-`+tt.field+`"`) || !strings.Contains(r.Body, tt.echo) {
				t.Errorf("status %d, want 422 with the error at %s and %q:\n%s", r.Status, tt.field, tt.echo, r.Body)
			}
		})
	}
	t.Run("a refused form does not echo a secret", func(t *testing.T) {
		r := f.post(t, envs, url.Values{"name": {""}, "v_name": {"token"}, "v_value": {secret}, "v_secret": {"0"}})
		if r.Status != http.StatusUnprocessableEntity || strings.Contains(r.Body, secret) {
			t.Errorf("status %d; the page shows the secret: %t", r.Status, strings.Contains(r.Body, secret))
		}
	})

	newEnv := url.Values{"name": {"<b>staging</b>"}, "v_name": {"token", "<i>x</i>", "text", ""}, "v_value": {secret, "", "<script>alert(2)</script>", ""}, "v_secret": {"0"}, "origins": {"stdio"}}
	if r := f.d.postForm(t, envs, newEnv); r.Status != http.StatusForbidden {
		t.Errorf("without the CSRF token: %d, want 403", r.Status)
	}
	foreign := f.d.newRequest(t, http.MethodPost, envs, strings.NewReader(url.Values{"_csrf": {f.token}, "name": {"x"}}.Encode()))
	foreign.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	foreign.Header.Set("Origin", "http://evil.example")
	if r := f.d.do(t, foreign); r.Status != http.StatusForbidden {
		t.Errorf("from another origin: %d, want 403", r.Status)
	}
	if r := f.post(t, envs, newEnv); r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "&lt;i&gt;x&lt;/i&gt;") {
		t.Errorf("a markup variable name: %d, want 422 showing it escaped", r.Status)
	}
	newEnv.Set("v_name", "token")
	newEnv["v_name"] = []string{"token", "", "text"}
	if r := f.post(t, envs, newEnv); r.Status != http.StatusSeeOther {
		t.Fatalf("create: %d\n%s", r.Status, r.Body)
	}
	page := f.d.get(t, f.colPath).Body
	for _, w := range []string{"&lt;b&gt;staging&lt;/b&gt;", "•••• (secret)", "&lt;script&gt;alert(2)&lt;/script&gt;", `placeholder="unchanged"`, ">no environment<"} {
		if !strings.Contains(page, w) {
			t.Errorf("the collection page lacks %q", w)
		}
	}
	if strings.Contains(page, secret) || strings.Contains(page, "<script>alert(2)") || strings.Contains(page, "<b>staging") {
		t.Fatalf("the collection page shows the secret or unescaped markup:\n%s", page)
	}
	m := envActionRe.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no edit form of the environment:\n%s", page)
	}
	envPath := m[1]
	envID := envPath[strings.LastIndex(envPath, "/")+1:]

	// Edit: rename, keep the secret by leaving it empty.
	if r := f.post(t, envPath, url.Values{"name": {"staging"}, "v_name": {"token", "text"}, "v_value": {"", "plain"}, "v_secret": {"0"}, "origins": {"stdio"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("edit: %d\n%s", r.Status, r.Body)
	}
	// The example sends the secret; its assertion checks it arrived.
	if r := f.post(t, ex[0], url.Values{"params": {`{"name":"echo","arguments":{"text":"{{token}} {{text}}"}}`},
		"a_kind": {"matches"}, "a_path": {"$.content[0].text"}, "a_pattern": {"^echo: s3cr3t-.* plain$"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("edit the example: %d\n%s", r.Status, r.Body)
	}
	report := f.run(t, envID)
	if !strings.Contains(report, "1 passed, 0 failed") || !strings.Contains(report, `data-testid="run-environment-name">staging<`) {
		t.Errorf("the run with the environment:\n%s", report)
	}
	if strings.Contains(report, secret) {
		t.Error("the run's report shows the secret")
	}
	// Its secrets may go only to the origins listed: a run elsewhere is
	// refused on the collection's page, and a bad origin at its field.
	if r := f.post(t, envPath, url.Values{"name": {"staging"}, "v_name": {"token", "text"}, "v_value": {"", "plain"}, "v_secret": {"0"}, "origins": {"https://prod.example\n"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("edit the origins: %d\n%s", r.Status, r.Body)
	}
	if page := f.d.get(t, f.colPath).Body; !strings.Contains(page, `Secrets go only to <span class="mono">https://prod.example</span>`) {
		t.Errorf("the environment does not say where its secrets go")
	}
	if r := f.post(t, f.colPath+"/run", url.Values{"session": {fmt.Sprint(f.session)}, "environment": {envID}}); r.Status != http.StatusUnprocessableEntity ||
		!strings.Contains(r.Body, "sends its secret values only to https://prod.example; this session&#39;s server is reached at stdio") {
		t.Errorf("a run on a server the environment does not list: %d\n%s", r.Status, r.Body)
	}
	if r := f.post(t, envPath, url.Values{"name": {"staging"}, "v_name": {"token"}, "v_value": {""}, "v_secret": {"0"}, "origins": {"<script>x</script>"}}); r.Status != http.StatusUnprocessableEntity ||
		!strings.Contains(r.Body, `data-testid="error-origins"`) || strings.Contains(r.Body, "<script>x") {
		t.Errorf("a bad origin: %d, want 422 at the field, escaped", r.Status)
	}
	if r := f.post(t, envs, url.Values{"name": {"staging"}}); r.Status != http.StatusConflict && r.Status != http.StatusUnprocessableEntity ||
		!strings.Contains(r.Body, `data-testid="error-name"`) {
		t.Errorf("a second environment named staging: %d, want the error at its name", r.Status)
	}
	if page := f.d.get(t, f.colPath).Body; strings.Contains(page, secret) || !strings.Contains(page, "<td>staging</td>") {
		t.Errorf("the collection page shows the secret, or its runs table no environment")
	}

	if r := f.post(t, f.colPath+"/run", url.Values{"session": {fmt.Sprint(f.session)}, "environment": {"999"}}); r.Status != http.StatusNotFound && r.Status != http.StatusUnprocessableEntity {
		t.Errorf("a run with a missing environment: %d", r.Status)
	}
	if r := f.d.postForm(t, envPath+"/delete", url.Values{}); r.Status != http.StatusForbidden {
		t.Errorf("delete without the CSRF token: %d, want 403", r.Status)
	}
	if r := f.post(t, envPath+"/delete", url.Values{}); r.Status != http.StatusSeeOther {
		t.Fatalf("delete: %d", r.Status)
	}
	if page := f.d.get(t, f.colPath).Body; !strings.Contains(page, `data-testid="no-environments"`) {
		t.Error("the deleted environment is still listed")
	}
}

var (
	collectionsNextRe = regexp.MustCompile(`href="(/collections\?after=[^"]+)" data-testid="collections-next"`)
	examplesNextRe    = regexp.MustCompile(`href="([^"]+)" data-testid="examples-next"`)
	runsOlderRe       = regexp.MustCompile(`href="([^"]+)" data-testid="runs-older"`)
)

// TestCollectionListingsPage: the collections list, a collection's
// examples and its runs page; the pages' links lead on and back, and an
// edit posted from a later page of examples comes back to it.
func TestCollectionListingsPage(t *testing.T) {
	names := make([]string, 51)
	for i := range names {
		names[i] = fmt.Sprintf("ex%02d", i)
	}
	f, ex := mustCollection(t, names[:1]...)
	for i := 1; i <= 50; i++ {
		if r := f.post(t, "/collections", url.Values{"name": {fmt.Sprintf("col%02d", i)}}); r.Status != http.StatusSeeOther {
			t.Fatalf("create: %d", r.Status)
		}
	}
	r := f.d.get(t, "/collections")
	m := collectionsNextRe.FindStringSubmatch(r.Body)
	if n := strings.Count(r.Body, `data-testid="collection-row"`); n != 50 || m == nil || strings.Contains(r.Body, `data-testid="collections-first"`) {
		t.Fatalf("the first page lists %d collections, next link %v", n, m)
	}
	r = f.d.get(t, strings.ReplaceAll(m[1], "&amp;", "&"))
	if n := strings.Count(r.Body, `data-testid="collection-row"`); n != 1 || !strings.Contains(r.Body, ">web<") ||
		!strings.Contains(r.Body, `data-testid="collections-first"`) || strings.Contains(r.Body, `data-testid="collections-next"`) {
		t.Errorf("the second page lists %d collections:\n%s", n, r.Body)
	}

	// 51 examples: copy the first one's call 50 times.
	for i := 1; i < 51; i++ {
		r := f.d.htmxPost(t, fmt.Sprintf("/sessions/%d/console", f.session), f.token, url.Values{
			"mode": {"request"}, "method": {"tools/call"}, "params": {`{"name":"echo","arguments":{"text":"hi"}}`}})
		frame := saveFrameRe.FindStringSubmatch(r.Body)[1]
		colID := strings.TrimPrefix(f.colPath, "/collections/")
		if r := f.d.htmxPost(t, "/collections/save", f.token, url.Values{"frame": {frame}, "collection": {colID}, "name": {names[i]}}); !strings.Contains(r.Body, "saved-example") {
			t.Fatalf("save: %s", r.Body)
		}
	}
	for range 21 {
		exID := ex[0][strings.LastIndex(ex[0], "/")+1:]
		r := f.post(t, f.colPath+"/run", url.Values{"session": {fmt.Sprint(f.session)}, "example": {exID}})
		f.d.finishedReport(t, r.Header.Get("Location"))
	}
	page := f.d.get(t, f.colPath).Body
	em, rm := examplesNextRe.FindStringSubmatch(page), runsOlderRe.FindStringSubmatch(page)
	if n := strings.Count(page, `data-testid="example"`); n != 50 || em == nil || strings.Contains(page, `data-example-name="ex50"`) {
		t.Fatalf("the first page shows %d examples, next link %v", n, em)
	}
	if n := strings.Count(page, `data-testid="run-row"`); n != 20 || rm == nil {
		t.Fatalf("the first page shows %d runs, older link %v", n, rm)
	}
	page = f.d.get(t, strings.ReplaceAll(em[1], "&amp;", "&")).Body
	if n := strings.Count(page, `data-testid="example"`); n != 1 || !strings.Contains(page, `data-example-name="ex50"`) || !strings.Contains(page, `data-testid="examples-first"`) {
		t.Errorf("the second page of examples shows %d", n)
	}
	last := exampleRe.FindStringSubmatch(page)
	after := strings.TrimPrefix(strings.ReplaceAll(em[1], "&amp;", "&"), f.colPath+"?examples_after=")
	if !strings.Contains(page, `name="examples_after" value="`+after+`"`) {
		t.Fatalf("the example's forms do not carry the page (%s)", after)
	}
	r = f.post(t, f.colPath+"/examples/"+last[1], url.Values{"compare": {"on"}, "params": {`{"name":"echo"}`}, "examples_after": {after}})
	if loc := r.Header.Get("Location"); r.Status != http.StatusSeeOther || loc != f.colPath+"?examples_after="+after {
		t.Errorf("an edit on the second page goes back to %d %q", r.Status, loc)
	}
	page = f.d.get(t, strings.ReplaceAll(rm[1], "&amp;", "&")).Body
	if n := strings.Count(page, `data-testid="run-row"`); n != 1 || !strings.Contains(page, `data-testid="runs-newest"`) {
		t.Errorf("the older runs page shows %d runs", n)
	}
	if r := f.d.get(t, f.colPath+"?runs_before=x"); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("a bad page parameter: %d, want 422", r.Status)
	}
}
