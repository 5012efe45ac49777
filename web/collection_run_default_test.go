package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var selectedSessionRe = regexp.MustCompile(`<option value="(\d+)" selected>`)

// runFormSession is the session the Run form of the collection at path
// starts on, "" when it picks none.
func runFormSession(t *testing.T, f collectionFixture, path string) string {
	t.Helper()
	body := f.d.get(t, path).Body
	i := strings.Index(body, `data-testid="run-session"`)
	if i < 0 {
		t.Fatalf("no Run form on %s:\n%s", path, body)
	}
	form := body[i:]
	form = form[:strings.Index(form, "</select>")]
	if m := selectedSessionRe.FindStringSubmatch(form); m != nil {
		return m[1]
	}
	return ""
}

// TestRunFormStartsOnTheExamplesServer connects a second server whose
// name sorts first: the Run form still starts on the session of the
// server the examples were saved from; a collection imported from a file
// starts on the server of its latest run.
func TestRunFormStartsOnTheExamplesServer(t *testing.T) {
	f, _ := mustCollection(t, "echo hi")
	other := f.d.MustAPISession(t, f.d.MustAPIServer(t, sdkStdioServer("aaa-first")).ID)
	if got := runFormSession(t, f, f.colPath); got != fmt.Sprint(f.session) {
		t.Errorf("the Run form starts on session %q, want %d (of col-sdk, where the examples come from; aaa-first is %d)", got, f.session, other.ID)
	}

	req := f.d.newRequest(t, http.MethodPost, "/api/v1/collections/import", strings.NewReader(collectionFile("from a file", 1)))
	req.Header.Set("Content-Type", "application/json")
	r := f.d.do(t, req)
	m := regexp.MustCompile(`"id":(\d+)`).FindStringSubmatch(r.Body)
	if r.Status != http.StatusCreated || m == nil {
		t.Fatalf("import: %d %s", r.Status, r.Body)
	}
	imported := "/collections/" + m[1]
	if got := runFormSession(t, f, imported); got != "" && got != fmt.Sprint(other.ID) {
		t.Errorf("before any run, the imported collection's form starts on %q, want the first session", got)
	}
	if r := f.post(t, imported+"/run", url.Values{"session": {fmt.Sprint(f.session)}, "example": {"0"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("run: %d %s", r.Status, r.Body)
	}
	if got := runFormSession(t, f, imported); got != fmt.Sprint(f.session) {
		t.Errorf("after a run on col-sdk, the imported collection's form starts on %q, want %d", got, f.session)
	}
}
