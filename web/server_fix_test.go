package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mustSDKSSEServer serves newSDKServer over the deprecated HTTP+SSE
// transport on loopback and returns its event-stream URL.
func mustSDKSSEServer(tb testing.TB) string {
	tb.Helper()
	server := newSDKServer()
	srv := httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil))
	tb.Cleanup(func() {
		srv.CloseClientConnections() // the event streams stay open until then
		srv.Close()
	})
	return srv.URL + "/sse"
}

func TestConnectDiagnosisTriesTheFix(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sse as http", "transport": "http", "url": mustSDKSSEServer(t)})

	r := d.postForm(t, fmt.Sprintf("/servers/%d/connect", srv.ID), url.Values{"_csrf": {token}})
	loc := r.Header.Get("Location")
	if r.Status != http.StatusSeeOther || !strings.Contains(loc, "?failed=") {
		t.Fatalf("connect: %d %q", r.Status, loc)
	}
	page := d.get(t, loc)
	for _, want := range []string{
		`data-testid="connect-error"`,
		`data-testid="diagnosis-summary">This URL is an HTTP+SSE server`,
		`data-testid="diagnosis-findings"`,
		`endpoint event (an HTTP+SSE server)`,
		`name="transport" value="sse"`,
		`data-testid="try-fix">Use HTTP+SSE and connect</button>`,
	} {
		if !strings.Contains(page.Body, want) {
			t.Errorf("the page after the failed connect lacks %s:\n%s", want, page.Body)
		}
	}

	r = d.postForm(t, fmt.Sprintf("/servers/%d/fix", srv.ID), url.Values{"_csrf": {token}, "transport": {"sse"}, "era": {""}, "path": {""}})
	if loc := r.Header.Get("Location"); r.Status != http.StatusSeeOther || loc != fmt.Sprintf("/servers/%d", srv.ID) {
		t.Fatalf("fix: %d %q, want a redirect to the connected server page: %s", r.Status, loc, r.Body)
	}
	saved, err := d.reg.Get(t.Context(), srv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Transport != "sse" {
		t.Errorf("transport after the fix = %q, want sse", saved.Transport)
	}
	if _, live := d.pool.LiveSession(srv.ID); !live {
		t.Error("the fix did not connect")
	}
}

func TestConnectDiagnosisInTheAPI(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "missing", "transport": "stdio", "command": "sh", "args": []string{"-c", "echo 'no API_KEY' >&2; exit 2"}})
	var out struct {
		Error     string `json:"error"`
		Diagnosis struct {
			Summary  string `json:"summary"`
			Findings []struct {
				Check  string `json:"check"`
				Result string `json:"result"`
			} `json:"findings"`
			Suggestions []struct {
				Text string `json:"text"`
			} `json:"suggestions"`
		} `json:"diagnosis"`
	}
	r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/servers/%d/sessions", srv.ID), nil, &out)
	if r.Status != http.StatusServiceUnavailable && r.Status/100 != 5 {
		t.Errorf("status %d, want a 5xx", r.Status)
	}
	if !strings.Contains(out.Diagnosis.Summary, "exit status 2") || !strings.Contains(r.Body, `"result":"no API_KEY"`) || len(out.Diagnosis.Suggestions) == 0 {
		t.Errorf("the failed connect's answer lacks its diagnosis: %s", r.Body)
	}
}

func TestConnectDiagnosisSkipsTLSVerification(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	tlsSrv := httptest.NewTLSServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newSDKServer() }, nil))
	t.Cleanup(func() {
		tlsSrv.CloseClientConnections() // the session's event stream stays open until then
		tlsSrv.Close()
	})
	srv := d.MustAPIServer(t, map[string]any{"name": "self-signed", "transport": "http", "url": tlsSrv.URL})

	r := d.postForm(t, fmt.Sprintf("/servers/%d/connect", srv.ID), url.Values{"_csrf": {token}})
	page := d.get(t, r.Header.Get("Location"))
	for _, want := range []string{
		`name="skip_tls_verify" value="on"`,
		`data-testid="try-fix">Skip TLS verification and connect</button>`,
	} {
		if !strings.Contains(page.Body, want) {
			t.Errorf("the page after the failed connect lacks %s:\n%s", want, page.Body)
		}
	}

	r = d.postForm(t, fmt.Sprintf("/servers/%d/fix", srv.ID), url.Values{"_csrf": {token}, "skip_tls_verify": {"on"}})
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != fmt.Sprintf("/servers/%d", srv.ID) {
		t.Fatalf("fix: %d %q: %s", r.Status, r.Header.Get("Location"), r.Body)
	}
	saved, err := d.reg.Get(t.Context(), srv.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !saved.InsecureSkipVerify {
		t.Error("the fix did not turn off TLS verification")
	}
	if _, live := d.pool.LiveSession(srv.ID); !live {
		t.Error("the fix did not connect")
	}
	if page := d.get(t, fmt.Sprintf("/servers/%d", srv.ID)); !strings.Contains(page.Body, "TLS verification is off for this server") {
		t.Error("the server page does not warn that TLS verification is off")
	}
}

// TestServerPageKeepsTheDiagnosis comes back to a server's page after a
// failed connect, without the link the connect answered with: the page
// still says why, with the diagnosis, until a connect succeeds.
func TestServerPageKeepsTheDiagnosis(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sse as http", "transport": "http", "url": mustSDKSSEServer(t)})
	serverPage := fmt.Sprintf("/servers/%d", srv.ID)
	if page := d.get(t, serverPage); strings.Contains(page.Body, `data-testid="connect-error"`) {
		t.Fatalf("a server never connected shows a connect error:\n%s", page.Body)
	}
	r := d.postForm(t, serverPage+"/connect", url.Values{"_csrf": {token}})
	if r.Status != http.StatusSeeOther || !strings.Contains(r.Header.Get("Location"), "?failed=") {
		t.Fatalf("connect: %d %q", r.Status, r.Header.Get("Location"))
	}
	for _, path := range []string{serverPage, serverPage + "/tools"} {
		page := d.get(t, path)
		for _, want := range []string{`data-testid="connect-error"`, `data-testid="diagnosis-summary">This URL is an HTTP+SSE server`} {
			if !strings.Contains(page.Body, want) {
				t.Errorf("%s, visited again after the failed connect, lacks %s", path, want)
			}
		}
	}
	r = d.postForm(t, serverPage+"/fix", url.Values{"_csrf": {token}, "transport": {"sse"}, "era": {""}, "path": {""}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("fix: %d %s", r.Status, r.Body)
	}
	if page := d.get(t, serverPage); strings.Contains(page.Body, `data-testid="connect-error"`) || !strings.Contains(page.Body, `data-testid="current-session"`) {
		t.Errorf("after a successful connect the page shows the old failure or no session:\n%s", page.Body)
	}
}
