package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// recordHTTPFrame records, on a new session, a request sent over HTTP with
// a secret header, a plain one and credentials in the URL, and returns
// its frame id.
func (d *dashboard) recordHTTPFrame(t *testing.T) int64 {
	t.Helper()
	sid := d.mustSession(t, "remote")
	f := backend.WireFrame{Time: time.Now(), Direction: backend.Outbound, Kind: backend.KindMessage,
		Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`),
		HTTP: &backend.HTTPInfo{Method: http.MethodPost, URL: "http://user:url-secret-7@127.0.0.1:9/mcp",
			Header: http.Header{"Authorization": {"Bearer <b>frame-secret-8</b>"}, "X-Team": {"blue"}}}}
	if err := d.rec.Record(sid, f); err != nil {
		t.Fatal(err)
	}
	if err := d.rec.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	return d.allFrames(t, sid)[0].ID
}

// TestAdminsRevealFrameHTTP: a frame's page shows its recorded headers
// redacted to everyone; an admin's reveal shows the values, escaped, is
// audited and logged with who and which names but no value, and is not
// cached; an editor or a viewer may not reveal, nor sees the control; a
// reveal without the CSRF token or from a foreign page is refused.
func TestAdminsRevealFrameHTTP(t *testing.T) {
	log := &syncBuffer{}
	d := mustDashboardWith(t, dashboardOptions{log: log})
	id := d.recordHTTPFrame(t)
	framePage := fmt.Sprintf("/frames/%d/body", id)
	reveal := fmt.Sprintf("/frames/%d/reveal", id)
	secrets := []string{"frame-secret-8", "url-secret-7"}
	holdsSecret := func(body string) bool {
		return strings.Contains(body, secrets[0]) || strings.Contains(body, secrets[1])
	}

	page := d.get(t, framePage)
	if page.Status != http.StatusOK || holdsSecret(page.Body) || !strings.Contains(page.Body, `data-testid="frame-http"`) ||
		!strings.Contains(page.Body, "Authorization: "+backend.RedactedValue) || !strings.Contains(page.Body, "X-Team: blue") {
		t.Fatalf("the frame's page: %d, want its headers redacted\n%s", page.Status, page.Body)
	}
	if !strings.Contains(page.Body, `data-testid="reveal-frame-http"`) || !strings.Contains(page.Body, `hx-post="`+reveal+`"`) {
		t.Fatal("the admin's frame page has no reveal control")
	}

	r := d.htmxPost(t, reveal, d.MustCSRF(t), url.Values{})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, "Bearer &lt;b&gt;frame-secret-8&lt;/b&gt;") || !strings.Contains(r.Body, "url-secret-7") ||
		strings.Contains(r.Body, "<b>") || strings.Contains(r.Body, ">blue<") {
		t.Errorf("reveal: %d, want the two secret values, escaped, and not the plain header\n%s", r.Status, r.Body)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("reveal Cache-Control = %q, want no-store", cc)
	}
	e := d.mustOneAuditEvent(t, "secret.reveal")
	if e.ActorName != testAdmin || e.Target != fmt.Sprintf("frame %d", id) || string(e.Details) != `{"revealed":["URL url","header Authorization"]}` {
		t.Errorf("the reveal was audited as %+v %s", e, e.Details)
	}
	logged := log.String()
	if !strings.Contains(logged, `msg="revealed a frame's recorded secret values" by=admin`) || !strings.Contains(logged, "header Authorization") {
		t.Errorf("the reveal is not logged with who and what:\n%s", logged)
	}
	if holdsSecret(logged) {
		t.Errorf("the log holds a secret value:\n%s", logged)
	}
	if again := d.get(t, framePage); holdsSecret(again.Body) {
		t.Error("after a reveal, the frame's page shows a secret value")
	}

	t.Run("a request without the token or from a foreign page", func(t *testing.T) {
		if r := d.postForm(t, reveal, url.Values{}); r.Status != http.StatusForbidden || holdsSecret(r.Body) {
			t.Errorf("a reveal without the CSRF token: %d\n%.300s", r.Status, r.Body)
		}
		req := d.newRequest(t, http.MethodPost, reveal, strings.NewReader(url.Values{"_csrf": {d.MustCSRF(t)}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "http://evil.example")
		if r := d.do(t, req); r.Status != http.StatusForbidden || holdsSecret(r.Body) {
			t.Errorf("a reveal from a foreign page: %d\n%.300s", r.Status, r.Body)
		}
	})

	for _, role := range []backend.Role{backend.RoleEditor, backend.RoleViewer} {
		t.Run(string(role), func(t *testing.T) {
			name := "someone-" + string(role)
			d.mustAccount(t, name, role)
			client := newClient()
			d.mustSignIn(t, client, name)
			page := d.doWith(t, client, d.newRequest(t, http.MethodGet, framePage, nil))
			if page.Status != http.StatusOK || holdsSecret(page.Body) || strings.Contains(page.Body, `data-testid="reveal-frame-http"`) {
				t.Errorf("the frame's page of an %s: %d, with a secret or the reveal control", role, page.Status)
			}
			if r := d.postFormWith(t, client, reveal, url.Values{"_csrf": {csrfOf(t, d, client)}}); r.Status != http.StatusForbidden || holdsSecret(r.Body) {
				t.Errorf("an %s's reveal: %d, want 403 without the value\n%.300s", role, r.Status, r.Body)
			}
		})
	}
}
