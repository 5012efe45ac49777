package web_test

import (
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

// headerCatcher is an HTTP server, a forward proxy or a TLS impostor of a
// server, that keeps every header value it receives and answers 502.
type headerCatcher struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string
}

func (h *headerCatcher) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	for name, values := range r.Header {
		h.seen = append(h.seen, name+": "+strings.Join(values, ", "))
	}
	h.mu.Unlock()
	http.Error(w, "caught", http.StatusBadGateway)
}

// saw reports whether any request brought a header value containing s.
func (h *headerCatcher) saw(s string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, line := range h.seen {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

func mustHeaderCatcher(t *testing.T, tls bool) *headerCatcher {
	t.Helper()
	h := &headerCatcher{}
	if tls {
		h.Server = httptest.NewTLSServer(h)
	} else {
		h.Server = httptest.NewServer(h)
	}
	t.Cleanup(h.Close)
	return h
}

// TestEditorsCannotSendStoredHeadersAnotherWay: an admin's secret header
// goes only where the server's traffic went when it was set. An editor
// who keeps the URL but adds a proxy, trusts another CA certificate, or
// turns off TLS verification is asked to type the value again, and the
// proxy or impostor sees nothing of it when they connect; an admin who
// types it again may.
func TestEditorsCannotSendStoredHeadersAnotherWay(t *testing.T) {
	const secret = "admin-set-9c4e1b"
	tests := []struct {
		name string
		tls  bool // the catcher is a TLS impostor at the server's URL, else a proxy
		edit func(form url.Values, catcher *headerCatcher)
	}{
		{name: "proxy added", edit: func(form url.Values, c *headerCatcher) { form.Set("proxy", c.URL) }},
		{name: "CA certificate of the impostor trusted", tls: true, edit: func(form url.Values, c *headerCatcher) {
			form.Set("ca_cert", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Certificate().Raw})))
		}},
		{name: "TLS verification turned off", tls: true, edit: func(form url.Values, _ *headerCatcher) { form.Set("insecure", "on") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := MustDashboard(t)
			catcher := mustHeaderCatcher(t, tt.tls)
			target := "http://127.0.0.1:9/mcp" // nothing listens: without the proxy nothing is sent
			if tt.tls {
				target = catcher.URL + "/mcp"
			}
			srv := d.MustAPIServer(t, map[string]any{"name": "guarded", "transport": "http", "url": target,
				"headers": map[string]string{"X-Api-Key": secret}})
			eddie, editor := d.mustEditor(t)

			form := url.Values{"_csrf": {csrfOf(t, d, editor)}, "name": {"guarded"}, "transport": {"http"}, "url": {target},
				"headers": {"X-Api-Key: " + backend.RedactedValue}}
			tt.edit(form, catcher)
			r := d.postFormWith(t, editor, fmt.Sprintf("/servers/%d", srv.ID), form)
			if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, `data-testid="error-headers"`) || !strings.Contains(r.Body, "type the value again") {
				t.Errorf("the editor's change: %d, want 422 asking for X-Api-Key again\n%.2000s", r.Status, r.Body)
			}
			d.bearer(t, eddie.token, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID), "{}")
			if catcher.saw(secret) {
				t.Fatalf("the secret header reached %s", catcher.URL)
			}

			form.Set("_csrf", d.MustCSRF(t))
			form.Set("headers", "X-Api-Key: typed-again-by-admin")
			if r := d.postForm(t, fmt.Sprintf("/servers/%d", srv.ID), form); r.Status != http.StatusSeeOther {
				t.Fatalf("the admin's change with the value typed again: %d\n%.2000s", r.Status, r.Body)
			}
			// The catcher answers 502: the connect fails, but the request went.
			d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID), nil, nil)
			if !catcher.saw("typed-again-by-admin") {
				t.Errorf("the value the admin typed did not go the new way: the test proves nothing")
			}
		})
	}
}

// TestDoctorsSkipVerifyFixSendsNoStoredHeader: the connection doctor's
// "skip TLS verification" fix changes where the traffic may go, so it is
// refused while a stored secret header would go along, saying why, and
// the impostor at the URL sees nothing of the header.
func TestDoctorsSkipVerifyFixSendsNoStoredHeader(t *testing.T) {
	const secret = "admin-set-0d7a55"
	d := MustDashboard(t)
	catcher := mustHeaderCatcher(t, true)
	srv := d.MustAPIServer(t, map[string]any{"name": "guarded", "transport": "http", "url": catcher.URL + "/mcp",
		"headers": map[string]string{"X-Api-Key": secret}})
	_, editor := d.mustEditor(t)
	r := d.postFormWith(t, editor, fmt.Sprintf("/servers/%d/fix", srv.ID), url.Values{"_csrf": {csrfOf(t, d, editor)}, "skip_tls_verify": {"on"}})
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "TLS certificate verification was turned off") {
		t.Errorf("the fix: %d, want 422 saying why\n%.3000s", r.Status, r.Body)
	}
	if catcher.saw(secret) {
		t.Fatalf("the secret header reached %s", catcher.URL)
	}
	if saved, err := d.reg.Get(t.Context(), srv.ID); err != nil || saved.InsecureSkipVerify || saved.Headers["X-Api-Key"] != secret {
		t.Errorf("after the refused fix: skip-verify %v, header kept %v, %v", saved.InsecureSkipVerify, saved.Headers["X-Api-Key"] == secret, err)
	}
}
