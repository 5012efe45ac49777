package web_test

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestCancelToolCall cancels a tool card's call through its route: a
// running call ends and its card says Cancelled; cancelling a call that
// finished answers harmlessly; an unknown call is not found; the route
// wants the CSRF token.
func TestCancelToolCall(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	sess := d.MustAPISession(t, srv.ID)
	cancelPath := func(call string) string { return fmt.Sprintf("/sessions/%d/calls/%s/cancel", sess.ID, call) }

	// Plain form posts: htmx requests get their errors as a 200 banner.
	t.Run("unknown call", func(t *testing.T) {
		for _, call := range []string{rand.Text(), "not-an-id"} {
			if r := d.postForm(t, cancelPath(call), url.Values{"_csrf": {token}}); r.Status != http.StatusNotFound {
				t.Errorf("cancel %s: %d, want 404", call, r.Status)
			}
		}
		if r := d.htmxPost(t, cancelPath(rand.Text()), token, nil); !strings.Contains(r.Body, `data-testid="error-banner"`) {
			t.Errorf("cancel an unknown call from the page: %d %s, want the error banner", r.Status, r.Body)
		}
	})

	t.Run("without the CSRF token", func(t *testing.T) {
		if r := d.postForm(t, cancelPath(rand.Text()), nil); r.Status != http.StatusForbidden {
			t.Errorf("cancel without token: %d, want 403", r.Status)
		}
	})

	t.Run("running call", func(t *testing.T) {
		call := rand.Text()
		done := d.pageCallAsync(t, sess.ID, token, "wait", url.Values{"_call": {call}})
		deadline := time.Now().Add(10 * time.Second)
		for {
			r := d.postForm(t, cancelPath(call), url.Values{"_csrf": {token}})
			if r.Status == http.StatusNoContent {
				break
			}
			if r.Status != http.StatusNotFound || time.Now().After(deadline) {
				t.Fatalf("cancel the running call: %d %s", r.Status, r.Body)
			}
			time.Sleep(20 * time.Millisecond)
		}
		r := finished(t, "the cancelled call", done)
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="cancelled"`) {
			t.Fatalf("the cancelled call's card: %d\n%s", r.Status, r.Body)
		}
		if strings.Contains(r.Body, `name="_call" value="`+call+`"`) {
			t.Error("the card after the call offers the same call id again")
		}
		if again := d.htmxPost(t, cancelPath(call), token, nil); again.Status != http.StatusNoContent {
			t.Errorf("cancel it again: %d %s, want 204", again.Status, again.Body)
		}
	})

	t.Run("finished call", func(t *testing.T) {
		call := rand.Text()
		r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/tools/call?card=0", sess.ID), token,
			url.Values{"_tool": {"echo"}, "arg.text": {"hi"}, "_call": {call}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="result"`) {
			t.Fatalf("echo: %d\n%s", r.Status, r.Body)
		}
		if r := d.htmxPost(t, cancelPath(call), token, nil); r.Status != http.StatusNoContent {
			t.Errorf("cancel a finished call: %d %s, want 204", r.Status, r.Body)
		}
	})
}

// TestToolCallTimeout applies a tool card's timeout to its call and
// refuses a timeout that is not a whole number of seconds in range.
func TestToolCallTimeout(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	sess := d.MustAPISession(t, srv.ID)
	callPath := fmt.Sprintf("/sessions/%d/tools/call?card=0", sess.ID)

	for _, v := range []string{"0", "-1", "1.5", "soon", "3601"} {
		r := d.htmxPost(t, callPath, token, url.Values{"_tool": {"wait"}, "_timeout": {v}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, "A whole number of seconds") || strings.Contains(r.Body, `data-testid="outcome"`) {
			t.Errorf("timeout %q: %d\n%s", v, r.Status, r.Body)
		}
	}
	start := time.Now()
	r := d.htmxPost(t, callPath, token, url.Values{"_tool": {"wait"}, "_timeout": {"1"}})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="failure"`) || !strings.Contains(r.Body, "timed out") {
		t.Errorf("a call past its 1s timeout: %d\n%s", r.Status, r.Body)
	}
	if took := time.Since(start); took < time.Second || took > 10*time.Second {
		t.Errorf("the 1s call took %v", took)
	}
}

// TestToolCardsGetTheirOwnCallIDs loads a tools section twice: no call id
// repeats across the two, though the tool list is cached.
func TestToolCardsGetTheirOwnCallIDs(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	d.MustAPISession(t, srv.ID)
	callIDs := regexp.MustCompile(`name="_call" value="([^"]+)"`)
	seen := map[string]bool{}
	for range 2 {
		page := d.get(t, fmt.Sprintf("/servers/%d/tools", srv.ID))
		ids := callIDs.FindAllStringSubmatch(page.Body, -1)
		if len(ids) != 1 {
			t.Fatalf("the tools section holds %d call ids, want one for its tool card", len(ids))
		}
		for _, m := range ids {
			if seen[m[1]] {
				t.Errorf("call id %s is given twice", m[1])
			}
			seen[m[1]] = true
		}
	}
}
