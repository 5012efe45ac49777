package web_test

import (
	"context"
	"encoding/pem"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const tlsOffWarning = "TLS verification is off for this server: anyone on the network path can read and change its traffic"

// MustSDKTLSServer serves newSDKServer over Streamable HTTP on loopback
// with TLS, and returns its MCP URL and its certificate as PEM.
func MustSDKTLSServer(tb testing.TB) (mcpURL, certPEM string) {
	tb.Helper()
	server := newSDKServer()
	ts := httptest.NewTLSServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw}))
}

// mustServerForm posts the server form to path (/servers to add) with
// values and returns the saved server's id.
func (d *dashboard) mustServerForm(tb testing.TB, path string, values url.Values) int64 {
	tb.Helper()
	values.Set("_csrf", d.MustCSRF(tb))
	r := d.postForm(tb, path, values)
	var id int64
	if _, err := fmt.Sscanf(r.Header.Get("Location"), "/servers/%d", &id); r.Status != http.StatusSeeOther || err != nil {
		tb.Fatalf("POST %s: %d to %q: %s", path, r.Status, r.Header.Get("Location"), r.Body)
	}
	return id
}

// connectResult opens a session of server id through the API and returns
// the session's id (0 when it failed) and the error shown.
func (d *dashboard) connectResult(tb testing.TB, id int64) (int64, string) {
	tb.Helper()
	var out struct {
		apiSession
		Error string `json:"error"`
	}
	if r := d.api(tb, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", id), nil, &out); r.Status != http.StatusCreated {
		return 0, out.Error
	}
	return out.ID, ""
}

// TestServerTLSConnect: a server whose certificate a private authority
// signed is refused until its CA certificate is pasted on the form, or
// TLS verification is skipped, which every page then warns about.
func TestServerTLSConnect(t *testing.T) {
	d := MustDashboard(t)
	mcpURL, certPEM := MustSDKTLSServer(t)
	form := url.Values{"name": {"private-ca"}, "transport": {"http"}, "url": {mcpURL}}
	id := d.mustServerForm(t, "/servers", form)

	if sid, msg := d.connectResult(t, id); sid != 0 || !strings.Contains(msg, "certificate") {
		t.Fatalf("connect without the CA: session %d, error %q; want a certificate error", sid, msg)
	}

	form.Set("ca_cert", "# pasted from the server\n"+certPEM)
	d.mustServerForm(t, fmt.Sprintf("/servers/%d", id), form)
	edit := html.UnescapeString(d.get(t, fmt.Sprintf("/servers/%d/edit", id)).Body)
	for _, want := range []string{`data-testid="stored-certs"`, "Stored: 1 certificate", "O=Acme Co", "-----BEGIN CERTIFICATE-----"} {
		if !strings.Contains(edit, want) {
			t.Errorf("edit page lacks %q", want)
		}
	}
	if strings.Contains(edit, tlsOffWarning) {
		t.Error("edit page warns of skipped verification while it is on")
	}
	sid, msg := d.connectResult(t, id)
	if sid == 0 {
		t.Fatalf("connect with the CA pasted: %s", msg)
	}
	if r := d.api(t, http.MethodDelete, fmt.Sprintf("/api/v1/sessions/%d", sid), nil, nil); r.Status != http.StatusNoContent {
		t.Fatalf("disconnect: %d %s", r.Status, r.Body)
	}

	form.Del("ca_cert")
	form.Set("insecure", "1")
	d.mustServerForm(t, fmt.Sprintf("/servers/%d", id), form)
	if sid, msg = d.connectResult(t, id); sid == 0 {
		t.Fatalf("connect with verification skipped: %s", msg)
	}
	page := html.UnescapeString(d.get(t, fmt.Sprintf("/servers/%d", id)).Body)
	if !strings.Contains(page, tlsOffWarning) || !strings.Contains(page, fmt.Sprintf(`href="/servers/%d/edit#tls"`, id)) {
		t.Errorf("server page lacks the warning with a link to the setting")
	}
}

// TestTLSOffBannerOnEveryPage requests every page under /servers/:id and
// /sessions/:id, those added later included, for a server that skips
// verification (each must warn) and for one that does not (none may).
func TestTLSOffBannerOnEveryPage(t *testing.T) {
	d := MustDashboard(t)
	mcpURL, _ := MustSDKTLSServer(t)
	insecure := d.mustServerForm(t, "/servers", url.Values{"name": {"insecure"}, "transport": {"http"}, "url": {mcpURL}, "insecure": {"1"}})
	plainURL := MustSDKHTTPServer(t, nil)
	plain := d.mustServerForm(t, "/servers", url.Values{"name": {"plain"}, "transport": {"http"}, "url": {plainURL}})
	for _, tt := range []struct {
		server int64
		warn   bool
	}{{insecure, true}, {plain, false}} {
		session := d.MustAPISession(t, tt.server)
		d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/requests", session.ID),
			map[string]any{"method": "tools/call", "params": map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}}}, nil)
		if err := d.rec.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		var frames []apiFrame
		d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/sessions/%d/frames", session.ID), nil, &frames)
		var requestFrame int64
		for _, f := range frames {
			if f.Method == "tools/call" && f.Direction == "out" {
				requestFrame = f.ID
			}
		}
		var pages []string
		for _, r := range d.web.Routes() {
			if r.Method != http.MethodGet || !(strings.HasPrefix(r.Path, "/servers/:id") || strings.HasPrefix(r.Path, "/sessions/:id")) {
				continue
			}
			id := tt.server
			if strings.HasPrefix(r.Path, "/sessions/") {
				id = session.ID
			}
			path := strings.NewReplacer(":id", fmt.Sprint(id), ":name", "echo", ":exchange", fmt.Sprint(requestFrame)).Replace(r.Path)
			resp := d.get(t, path)
			if resp.Status != http.StatusOK || !strings.HasPrefix(resp.Body, "<!doctype html>") {
				continue // a fragment, a download or a stream: not a page
			}
			pages = append(pages, r.Path)
			if got := strings.Contains(html.UnescapeString(resp.Body), tlsOffWarning); got != tt.warn {
				t.Errorf("GET %s (route %s): warning shown %v, want %v", path, r.Path, got, tt.warn)
			}
		}
		for _, must := range []string{"/servers/:id", "/servers/:id/tools", "/servers/:id/edit", "/sessions/:id", "/sessions/:id/exchanges/:exchange"} {
			if !slices.Contains(pages, must) {
				t.Errorf("page %s of server %d not checked; checked %v", must, tt.server, pages)
			}
		}
	}
}

// TestServerThroughProxy: a server with a proxy set is reached through
// that proxy, whose credentials are sealed away from every page.
func TestServerThroughProxy(t *testing.T) {
	d := MustDashboard(t)
	mcpURL := MustSDKHTTPServer(t, nil)
	var forwarded, authorized atomic.Int64
	proxy := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			forwarded.Add(1)
			if pr.In.Header.Get("Proxy-Authorization") != "" {
				authorized.Add(1)
			}
			pr.Out.URL = pr.In.URL // a forward proxy gets the absolute URL
		},
		FlushInterval: -1,
	})
	t.Cleanup(func() {
		proxy.CloseClientConnections() // the session's event stream
		proxy.Close()
	})
	proxyURL := strings.Replace(proxy.URL, "http://", "http://squid:pr0xy-secret@", 1)
	id := d.mustServerForm(t, "/servers", url.Values{"name": {"proxied"}, "transport": {"http"}, "url": {mcpURL}, "proxy": {proxyURL}})

	session := d.MustAPISession(t, id)
	if forwarded.Load() == 0 || authorized.Load() != forwarded.Load() {
		t.Errorf("the proxy forwarded %d requests, %d with credentials; want them all through it, authorized", forwarded.Load(), authorized.Load())
	}
	for _, path := range []string{fmt.Sprintf("/servers/%d/edit", id), fmt.Sprintf("/servers/%d", id), fmt.Sprintf("/sessions/%d", session.ID), "/api/v1/servers"} {
		body := d.get(t, path).Body
		if strings.Contains(body, "pr0xy-secret") {
			t.Errorf("%s shows the proxy password", path)
		}
	}
	if edit := d.get(t, fmt.Sprintf("/servers/%d/edit", id)).Body; !strings.Contains(edit, "http://REDACTED:REDACTED@"+strings.TrimPrefix(proxy.URL, "http://")) {
		t.Errorf("edit form does not show the proxy redacted")
	}
	// The audit log of the form post and the database files hold no
	// plaintext password either.
	if err := d.audit.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{d.dbPath, d.dbPath + "-wal"} {
		if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), "pr0xy-secret") {
			t.Errorf("%s holds the proxy password in plaintext", filepath.Base(f))
		}
	}
	if r := d.postForm(t, fmt.Sprintf("/servers/%d/reveal", id), url.Values{"_csrf": {d.MustCSRF(t)}}); !strings.Contains(r.Body, proxyURL) {
		t.Errorf("an admin's reveal does not show the proxy URL: %d %s", r.Status, r.Body)
	}
}

// TestAPIServerTLSSettings: the JSON API takes the TLS and proxy settings
// and shows them, the proxy's credentials redacted.
func TestAPIServerTLSSettings(t *testing.T) {
	d := MustDashboard(t)
	_, certPEM := MustSDKTLSServer(t)
	var created struct {
		ID       int64  `json:"id"`
		CACert   string `json:"caCert"`
		Insecure bool   `json:"insecureSkipVerify"`
		Proxy    string `json:"proxy"`
	}
	in := map[string]any{"name": "api-tls", "transport": "http", "url": "https://127.0.0.1:1/mcp",
		"caCert": certPEM, "insecureSkipVerify": true, "proxy": "http://u:api-proxy-pw@127.0.0.1:3128"}
	if r := d.api(t, http.MethodPost, "/api/v1/servers", in, &created); r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	if created.CACert != strings.TrimSpace(certPEM) || !created.Insecure || created.Proxy != "http://REDACTED:REDACTED@127.0.0.1:3128" {
		t.Errorf("created = %+v", created)
	}
	if list := d.api(t, http.MethodGet, "/api/v1/servers", nil, nil); strings.Contains(list.Body, "api-proxy-pw") || !strings.Contains(list.Body, `"insecureSkipVerify":true`) {
		t.Errorf("list = %s", list.Body)
	}
	in["name"], in["caCert"] = "api-bad", "not a certificate"
	var bad apiError
	if r := d.api(t, http.MethodPost, "/api/v1/servers", in, &bad); r.Status != http.StatusUnprocessableEntity || !strings.Contains(bad.Fields["ca_cert"], "No PEM certificate") {
		t.Errorf("bad CA: %d %+v", r.Status, bad)
	}
}

// TestServerTLSFormErrors: the TLS and proxy fields report their problems
// where they are.
func TestServerTLSFormErrors(t *testing.T) {
	d := MustDashboard(t)
	for _, tt := range []struct{ field, value, want string }{
		{"ca_cert", "MIIBkTCB+wIJ", "No PEM certificate found"},
		{"ca_cert", "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----", "private key"},
		{"proxy", "proxy.example:3128", "socks5://"},
	} {
		v := url.Values{"_csrf": {d.MustCSRF(t)}, "name": {"x"}, "transport": {"http"}, "url": {"https://127.0.0.1:1/mcp"}, tt.field: {tt.value}}
		r := d.postForm(t, "/servers", v)
		body := html.UnescapeString(r.Body)
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="error-`+tt.field+`"`) || !strings.Contains(body, tt.want) {
			t.Errorf("%s=%q: %d, want 422 with %q at the field", tt.field, tt.value, r.Status, tt.want)
		}
	}
}
