package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

var (
	saveFrameRe  = regexp.MustCompile(`/collections/save\?frame=(\d+)`)
	collectionRe = regexp.MustCompile(`href="/collections/(\d+)"`)
	exampleRe    = regexp.MustCompile(`action="/collections/\d+/examples/(\d+)"`)
)

// TestCollectionPages saves a console call into a new collection through
// the Save to collection form, runs it (pass), edits its params, runs it
// again (fail, with the diff), and covers the refusals: no name, bad
// params, no session, no CSRF token; server text is escaped.
func TestCollectionPages(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, sdkStdioServer("col-sdk"))
	sess := d.MustAPISession(t, srv.ID)
	token := d.MustCSRF(t)

	r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/console", sess.ID), token, url.Values{
		"mode": {"request"}, "method": {"tools/call"}, "params": {`{"name":"echo","arguments":{"text":"hi"}}`}})
	m := saveFrameRe.FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("the console's answer has no Save to collection control:\n%s", r.Body)
	}
	frame := m[1]
	if r := d.get(t, "/collections/save?frame="+frame); r.Status != http.StatusOK || !strings.Contains(r.Body, "A new collection") ||
		!strings.Contains(r.Body, `name="name" value="echo"`) {
		t.Fatalf("save form: %d\n%s", r.Status, r.Body)
	}
	if r := d.postForm(t, "/collections/save", url.Values{"frame": {frame}, "new_collection": {"web"}, "name": {"echo"}}); r.Status != http.StatusForbidden {
		t.Errorf("save without a CSRF token: %d, want 403", r.Status)
	}
	r = d.htmxPost(t, "/collections/save", token, url.Values{"frame": {frame}, "collection": {"0"}, "new_collection": {"web"}, "name": {""}})
	if !strings.Contains(r.Body, `data-testid="error-name"`) || !strings.Contains(r.Body, `value="web"`) {
		t.Errorf("save without a name does not say so in the form:\n%s", r.Body)
	}
	r = d.htmxPost(t, "/collections/save", token, url.Values{"frame": {frame}, "collection": {"0"}, "new_collection": {"web"}, "name": {"<b>echo</b>"}})
	m = collectionRe.FindStringSubmatch(r.Body)
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="saved-example"`) || m == nil || !strings.Contains(r.Body, "&lt;b&gt;echo&lt;/b&gt;") {
		t.Fatalf("save: %d\n%s", r.Status, r.Body)
	}
	colPath := "/collections/" + m[1]

	if r := d.get(t, "/collections"); !strings.Contains(r.Body, `data-testid="collection-row"`) || !strings.Contains(r.Body, ">web<") {
		t.Errorf("the collections page does not list the new one:\n%s", r.Body)
	}
	r = d.get(t, colPath)
	em := exampleRe.FindStringSubmatch(r.Body)
	if r.Status != http.StatusOK || em == nil || !strings.Contains(r.Body, fmt.Sprintf(`<option value="%d">`, sess.ID)) || strings.Contains(r.Body, "<b>echo</b>") {
		t.Fatalf("collection page: %d\n%s", r.Status, r.Body)
	}
	examplePath := colPath + "/examples/" + em[1]

	run := func(wantSummary string) string {
		t.Helper()
		r := d.postForm(t, colPath+"/run", url.Values{"_csrf": {token}, "session": {fmt.Sprint(sess.ID)}, "example": {"0"}})
		loc := r.Header.Get("Location")
		if r.Status != http.StatusSeeOther || !strings.HasPrefix(loc, colPath+"/runs/") {
			t.Fatalf("run: %d %q\n%s", r.Status, loc, r.Body)
		}
		body := d.finishedReport(t, loc)
		if !strings.Contains(body, wantSummary) {
			t.Fatalf("run report lacks %q:\n%s", wantSummary, body)
		}
		return body
	}
	run("1 passed, 0 failed")

	r = d.postForm(t, examplePath, url.Values{"_csrf": {token}, "compare": {"on"}, "params": {`{"name":"echo","arguments":{"text":"bye"}}`}, "volatile": {"no-slash"}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `data-testid="error-volatile"`) || !strings.Contains(r.Body, "no-slash") {
		t.Errorf("a bad volatile path: %d\n%s", r.Status, r.Body)
	}
	if r := d.postForm(t, examplePath, url.Values{"_csrf": {token}, "compare": {"on"}, "params": {`{"name":"echo","arguments":{"text":"bye"}}`}}); r.Status != http.StatusSeeOther {
		t.Fatalf("edit params: %d\n%s", r.Status, r.Body)
	}
	report := run("0 passed, 1 failed")
	for _, w := range []string{`data-testid="run-diff"`, "/content/0/text", "echo: hi", "echo: bye"} {
		if !strings.Contains(report, w) {
			t.Errorf("the failed run's report lacks %q", w)
		}
	}
	if r := d.get(t, colPath); strings.Count(r.Body, `data-testid="run-row"`) != 2 {
		t.Errorf("the collection's page does not list both runs")
	}

	r = d.postForm(t, colPath+"/run", url.Values{"_csrf": {token}, "example": {"0"}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `data-testid="run-error"`) {
		t.Errorf("a run without a session: %d\n%s", r.Status, r.Body)
	}

	if r := d.postForm(t, colPath, url.Values{"_csrf": {token}, "name": {"renamed"}}); r.Status != http.StatusSeeOther {
		t.Errorf("rename: %d\n%s", r.Status, r.Body)
	}
	if r := d.get(t, colPath); !strings.Contains(r.Body, "renamed") {
		t.Errorf("the renamed collection's page does not show its new name")
	}
	if r := d.postForm(t, colPath+"/delete", url.Values{"_csrf": {token}}); r.Status != http.StatusSeeOther {
		t.Errorf("delete: %d", r.Status)
	}
	if r := d.get(t, colPath); r.Status != http.StatusNotFound {
		t.Errorf("a deleted collection: %d, want 404", r.Status)
	}
}

// TestSaveRefusesANonResponse: a frame that is not a recorded answer
// (here, one that does not exist) is refused in the form.
func TestSaveRefusesANonResponse(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	r := d.htmxPost(t, "/collections/save", token, url.Values{"frame": {"999999"}, "collection": {"0"}, "new_collection": {"x"}, "name": {"y"}})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="save-error"`) {
		t.Errorf("saving a missing frame: %d\n%s", r.Status, r.Body)
	}
	if r := d.get(t, "/collections"); !strings.Contains(r.Body, `data-testid="no-collections"`) {
		t.Errorf("a refused save made a collection")
	}
}

var runPollRe = regexp.MustCompile(`hx-get="(/collections/\d+/runs/\d+/report)"[^>]*hx-trigger="every 500ms"|hx-trigger="every 500ms"[^>]*hx-get="(/collections/\d+/runs/\d+/report)"`)

// finishedReport loads the run page at path and follows its polling, as
// the page's htmx does, until the report of the finished run comes. It
// fails unless the report polls while the run goes and stops once done.
func (d *dashboard) finishedReport(t *testing.T, path string) string {
	t.Helper()
	r := d.get(t, path)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d\n%s", path, r.Status, r.Body)
		}
		m := runPollRe.FindStringSubmatch(r.Body)
		if m == nil {
			if !strings.Contains(r.Body, `data-testid="run-summary"`) || strings.Contains(r.Body, `data-testid="run-progress"`) {
				t.Fatalf("a report without polling is not a finished one:\n%s", r.Body)
			}
			return r.Body
		}
		if !strings.Contains(r.Body, `data-testid="run-progress"`) {
			t.Fatalf("a polling report shows no progress:\n%s", r.Body)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run did not finish:\n%s", r.Body)
		}
		time.Sleep(20 * time.Millisecond)
		path = m[1] + m[2]
		r = d.htmxGet(t, path)
	}
}
