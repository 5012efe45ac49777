package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

func TestServerPageOverview(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	sess := d.MustAPISession(t, srv.ID)

	r := d.get(t, fmt.Sprintf("/servers/%d", srv.ID))
	if r.Status != http.StatusOK {
		t.Fatalf("server page: %d", r.Status)
	}
	for _, want := range []string{
		`data-testid="overview"`, `data-testid="overview-name">sdk-test<`, `data-testid="overview-version">1.0<`,
		`data-testid="overview-era">legacy era<`, "2025-11-25",
		// The SDK server declares tools and logging; the playground answers
		// elicitation, sampling and roots.
		`<span class="badge cap">tools`, `<span class="badge cap">logging`, `<span class="badge cap">elicitation`,
		"Call echo first.\n&lt;script&gt;alert(&#34;instructions&#34;)&lt;/script&gt;",
		fmt.Sprintf(`hx-post="/sessions/%d/ping"`, sess.ID),
	} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("the server page lacks %q", want)
		}
	}
	if strings.Contains(r.Body, `<script>alert(`) {
		t.Error("the server's instructions reached the page as markup")
	}
	if !strings.Contains(r.Body, `data-testid="section-overview"`) || !strings.Contains(r.Body, fmt.Sprintf(`href="/servers/%d/tools"`, srv.ID)) {
		t.Error("the overview is not the server page's first section, with a tab to the tools")
	}

	ping := func(t *testing.T, id int64) string {
		t.Helper()
		r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/ping", id), token, url.Values{})
		if r.Status != http.StatusOK {
			t.Fatalf("ping: %d %s", r.Status, r.Body)
		}
		if !strings.Contains(r.Body, `data-testid="ping"`) {
			t.Errorf("the answer is not the Ping control:\n%s", r.Body)
		}
		return r.Body
	}
	t.Run("ping", func(t *testing.T) {
		body := ping(t, sess.ID)
		if !regexp.MustCompile(`class="ping-ok" data-testid="ping-result">[0-9.]+ (µs|ms)<`).MatchString(body) {
			t.Errorf("no latency in the answer:\n%s", body)
		}
	})
	t.Run("without CSRF token", func(t *testing.T) {
		// htmx gets the refusal in the page's error slot; a plain post gets 403.
		r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/ping", sess.ID), "", url.Values{})
		if r.Header.Get("HX-Retarget") != "#flash" || !strings.Contains(r.Body, "did not come from a page of this dashboard") || strings.Contains(r.Body, "ping-result") {
			t.Errorf("htmx ping without a token: %d %v %s", r.Status, r.Header, r.Body)
		}
		if r := d.postForm(t, fmt.Sprintf("/sessions/%d/ping", sess.ID), url.Values{"x": {"1"}}); r.Status != http.StatusForbidden {
			t.Errorf("ping without a token: %d, want 403", r.Status)
		}
	})
	t.Run("unknown session", func(t *testing.T) {
		body := ping(t, 999999)
		if !strings.Contains(body, `class="ping-error" role="alert" data-testid="ping-result">Session 999999 is not connected.<`) {
			t.Errorf("no failure in the answer:\n%s", body)
		}
	})
	t.Run("ended session", func(t *testing.T) {
		if r := d.postForm(t, fmt.Sprintf("/sessions/%d/disconnect", sess.ID), url.Values{"_csrf": {token}}); r.Status != http.StatusSeeOther {
			t.Fatalf("disconnect: %d", r.Status)
		}
		body := ping(t, sess.ID)
		if !strings.Contains(body, `data-testid="ping-result">Session `+fmt.Sprint(sess.ID)+` is not connected.<`) {
			t.Errorf("no failure in the answer:\n%s", body)
		}
		if r := d.get(t, fmt.Sprintf("/servers/%d", srv.ID)); strings.Contains(r.Body, `data-testid="overview"`) {
			t.Error("the page of a disconnected server still shows an overview")
		}
	})
}
