package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// TestAdminsRevealSecrets: the edit page of a server shows its secrets
// redacted to everyone; an admin's reveal shows the values, is logged with
// who and which names but no value, and is not cached; an editor may not
// reveal, nor sees the control.
func TestAdminsRevealSecrets(t *testing.T) {
	log := &syncBuffer{}
	d := mustDashboardWith(t, dashboardOptions{log: log})
	srv := d.MustAPIServer(t, map[string]any{"name": "remote", "transport": "http", "url": "http://user:url-secret-1@127.0.0.1:9/mcp",
		"headers": map[string]string{"Authorization": "Bearer header-secret-2", "X-Team": "blue"}})
	edit := fmt.Sprintf("/servers/%d/edit", srv.ID)
	reveal := fmt.Sprintf("/servers/%d/reveal", srv.ID)

	page := d.get(t, edit)
	if strings.Contains(page.Body, "header-secret-2") || strings.Contains(page.Body, "url-secret-1") {
		t.Fatalf("the edit page shows a secret value:\n%s", page.Body)
	}
	if !strings.Contains(page.Body, `data-testid="reveal-secrets"`) {
		t.Fatal("the admin's edit page has no reveal control")
	}
	r := d.htmxPost(t, reveal, d.MustCSRF(t), url.Values{})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, "Bearer header-secret-2") || !strings.Contains(r.Body, "url-secret-1") || strings.Contains(r.Body, ">blue<") {
		t.Errorf("reveal: %d, want the two secret values and not the plain header\n%s", r.Status, r.Body)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("reveal Cache-Control = %q, want no-store", cc)
	}
	logged := log.String()
	if !strings.Contains(logged, `msg="revealed a server's secret values" by=admin`) || !strings.Contains(logged, "header Authorization") {
		t.Errorf("the reveal is not logged with who and what:\n%s", logged)
	}
	if strings.Contains(logged, "header-secret-2") || strings.Contains(logged, "url-secret-1") {
		t.Errorf("the log holds a secret value:\n%s", logged)
	}

	d.mustAccount(t, "eddie", backend.RoleEditor)
	editor := newClient()
	d.mustSignIn(t, editor, "eddie")
	if page := d.doWith(t, editor, d.newRequest(t, http.MethodGet, edit, nil)); strings.Contains(page.Body, `data-testid="reveal-secrets"`) {
		t.Error("an editor is offered the reveal control")
	}
	form := url.Values{"_csrf": {csrfOf(t, d, editor)}}
	if r := d.postFormWith(t, editor, reveal, form); r.Status != http.StatusForbidden || strings.Contains(r.Body, "header-secret-2") {
		t.Errorf("an editor's reveal: %d, want 403 without the value\n%.300s", r.Status, r.Body)
	}
}
