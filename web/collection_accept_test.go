package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var acceptRe = regexp.MustCompile(`action="(/collections/\d+/runs/\d+/results/\d+/accept)"`)

// TestAcceptAnswerAsSnapshot changes what an example sends so that its run
// fails, accepts the failed answer from the run's page (a CSRF-checked,
// audited editor action), and runs again: it passes.
func TestAcceptAnswerAsSnapshot(t *testing.T) {
	f, ex := mustCollection(t, "echo hi")
	if r := f.post(t, ex[0], url.Values{"params": {`{"name":"echo","arguments":{"text":"bye"}}`}, "compare": {"on"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("edit the example: %d\n%s", r.Status, r.Body)
	}
	r := f.post(t, f.colPath+"/run", url.Values{"session": {fmt.Sprint(f.session)}, "example": {"0"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("run: %d\n%s", r.Status, r.Body)
	}
	runPath := r.Header.Get("Location")
	report := f.d.finishedReport(t, runPath)
	m := acceptRe.FindStringSubmatch(report)
	if !strings.Contains(report, "0 passed, 1 failed") || m == nil || !strings.Contains(report, "Accept as the new snapshot") {
		t.Fatalf("the failed run offers no Accept:\n%s", report)
	}
	accept := m[1]
	if r := f.d.postForm(t, accept, url.Values{}); r.Status != http.StatusForbidden {
		t.Errorf("accept without a CSRF token: %d, want 403", r.Status)
	}
	r = f.post(t, accept, url.Values{})
	if r.Status != http.StatusSeeOther || !strings.Contains(r.Header.Get("Location"), "?accepted=") {
		t.Fatalf("accept: %d %q\n%s", r.Status, r.Header.Get("Location"), r.Body)
	}
	if page := f.d.get(t, r.Header.Get("Location")).Body; !strings.Contains(page, `data-testid="answer-accepted"`) || !strings.Contains(page, "echo hi") ||
		strings.Contains(page, `data-testid="accept-answer"`) {
		t.Errorf("the run's page does not say the answer was accepted, or offers it again:\n%s", page)
	}
	if report := f.run(t, ""); !strings.Contains(report, "1 passed, 0 failed") || strings.Contains(report, `data-testid="accept-answer"`) {
		t.Errorf("the run after the accept:\n%s", report)
	}
	if r := f.post(t, accept, url.Values{}); r.Status != http.StatusSeeOther {
		t.Errorf("accepting the same answer again: %d", r.Status)
	}
	if audit := f.d.get(t, "/audit").Body; !strings.Contains(audit, "example.accept_answer") {
		t.Errorf("the audit log does not record the accept")
	}
}
