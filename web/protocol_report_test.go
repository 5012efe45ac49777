package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// TestProtocolReport records two sessions with a server, whose frames
// break rules, and one with another server: the server's Protocol section
// lists its codes, the errors first, with their counts, sessions and the
// newest example linked to its frame (whose page shows the finding); the
// other server's report is clean. Names and messages are text.
func TestProtocolReport(t *testing.T) {
	d := MustDashboard(t)
	ctx := t.Context()
	srv := d.MustAPIServer(t, map[string]any{"name": `bad <b>server</b>`, "transport": "stdio", "command": "/bin/true"})
	clean := d.MustAPIServer(t, map[string]any{"name": "clean", "transport": "stdio", "command": "/bin/true"})
	record := func(serverID int64, bodies ...string) int64 {
		t.Helper()
		id, err := d.db.CreateSession(ctx, backend.Session{ServerID: serverID, ServerName: "x", Transport: backend.TransportStdio, Status: backend.SessionClosed, StartedAt: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bodies {
			if err := d.rec.Record(id, backend.WireFrame{Time: time.Now(), Direction: backend.Inbound, Kind: backend.KindMessage, Body: []byte(b)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.rec.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		return id
	}
	const badVersion = `{"jsonrpc":"1.0","method":"notifications/message","params":{"level":"info","data":"x"}}`
	record(srv.ID, badVersion, badVersion)
	second := record(srv.ID, badVersion, `{"jsonrpc":"2.0","method":"notifications/message","params":"<script>x</script>"}`)
	record(clean.ID, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`)

	var frames []apiFrame
	d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/sessions/%d/frames", second), nil, &frames)
	newestBad := frames[0].ID

	r := d.get(t, fmt.Sprintf("/servers/%d/protocol", srv.ID))
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="tab-protocol"`) {
		t.Fatalf("GET protocol: %d", r.Status)
	}
	rows := regexp.MustCompile(`data-testid="protocol-code" data-code="([^"]+)" data-severity="([^"]+)" data-findings="(\d+)" data-sessions="(\d+)"`).FindAllStringSubmatch(r.Body, -1)
	got := map[string]string{}
	var order []string
	for _, m := range rows {
		got[m[1]] = m[2] + " " + m[3] + " in " + m[4]
		order = append(order, m[2])
	}
	if got["jsonrpc.version"] != "error 3 in 2" || !strings.Contains(r.Body, "3 findings in 2 sessions") {
		t.Errorf("jsonrpc.version: %q (all: %v)", got["jsonrpc.version"], got)
	}
	for i := 1; i < len(order); i++ {
		if order[i-1] != "error" && order[i] == "error" {
			t.Errorf("an error code comes after a %s one: %v", order[i-1], order)
		}
	}
	if !strings.Contains(r.Body, fmt.Sprintf(`href="/frames/%d/body" data-testid="protocol-example">frame %d</a>`, newestBad, newestBad)) {
		t.Errorf("jsonrpc.version's example is not the newest frame %d", newestBad)
	}
	if !strings.Contains(r.Body, `href="/history?q=lint%3Ajsonrpc.version+server%3A%22bad+%3Cb%3Eserver%3C%2Fb%3E%22"`) {
		t.Error("no link to the history search of the code on this server")
	}
	if strings.Contains(r.Body, "<script>x") || strings.Contains(r.Body, "<b>server") {
		t.Error("a name or body is rendered as markup")
	}

	framePage := d.get(t, fmt.Sprintf("/frames/%d/body", newestBad))
	if !strings.Contains(framePage.Body, `data-code="jsonrpc.version" data-pointer="/jsonrpc"`) || !strings.Contains(framePage.Body, `jv-flagged" data-pointer="/jsonrpc"`) {
		t.Error("the example frame's page does not show its finding")
	}
	if other := d.get(t, fmt.Sprintf("/servers/%d/protocol", clean.ID)); !strings.Contains(other.Body, `data-testid="protocol-clean"`) {
		t.Errorf("the clean server's report is not clean")
	}

	var report []apiLintCode
	if r := d.api(t, http.MethodGet, fmt.Sprintf("/api/v1/servers/%d/protocol", srv.ID), nil, &report); r.Status != http.StatusOK || len(report) != len(rows) {
		t.Fatalf("GET the report from the API: %d %s", r.Status, r.Body)
	}
	i := slices.IndexFunc(report, func(c apiLintCode) bool { return c.Code == "jsonrpc.version" })
	if v := report[max(i, 0)]; i < 0 || v.Findings != 3 || v.Sessions != 2 || v.Example.FrameID != newestBad || v.Example.Pointer != "/jsonrpc" || v.Example.Fix == "" {
		t.Errorf("the API's jsonrpc.version: %+v", v)
	}
	if r := d.api(t, http.MethodGet, "/api/v1/servers/999/protocol", nil, nil); r.Status != http.StatusNotFound {
		t.Errorf("the report of no server: %d", r.Status)
	}
}

// apiLintCode is one code of GET /api/v1/servers/{id}/protocol.
type apiLintCode struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Findings int    `json:"findings"`
	Sessions int    `json:"sessions"`
	Example  struct {
		FrameID int64  `json:"frameId"`
		Pointer string `json:"pointer"`
		Fix     string `json:"fix"`
	} `json:"example"`
}

// TestCheckThisServer runs the active checks from a server's Protocol
// section on its live session: the card offers the button, the report
// card comes back with a verdict for each check and links to the frames
// it recorded, which are in the session's traffic; a session that is not
// live gets the reason where the card would be, and a server not
// connected gets no button.
func TestCheckThisServer(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	page := d.get(t, fmt.Sprintf("/servers/%d/protocol", srv.ID))
	if !strings.Contains(page.Body, `data-testid="check-unavailable">Connect to the server to check it.`) || strings.Contains(page.Body, `data-testid="check-run"`) {
		t.Errorf("a server not connected offers to check it")
	}
	sess := d.MustAPISession(t, srv.ID)
	page = d.get(t, fmt.Sprintf("/servers/%d/protocol", srv.ID))
	if !strings.Contains(page.Body, fmt.Sprintf(`hx-post="/sessions/%d/check"`, sess.ID)) {
		t.Fatalf("the Protocol section offers no check of session %d", sess.ID)
	}
	token := d.MustCSRF(t)
	r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/check", sess.ID), token, url.Values{})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="check-report"`) {
		t.Fatalf("check: %d %s", r.Status, r.Body)
	}
	verdicts := map[string]string{}
	for _, m := range regexp.MustCompile(`data-check="([a-z-]+)" data-verdict="([a-z]+)"`).FindAllStringSubmatch(r.Body, -1) {
		verdicts[m[1]] = m[2]
	}
	// The Go SDK's server has tools but no prompts or resources, and
	// answers an unknown method over HTTP with HTTP 400, not -32601.
	for id, want := range map[string]string{"server-initialize": "pass", "ping": "pass", "tools-list": "pass", "unknown-tool": "pass",
		"logging-set-level": "pass", "server-session-lifecycle": "pass", "protocol-lint": "pass", "prompts-list": "skip", "unknown-method": "fail"} {
		if verdicts[id] != want {
			t.Errorf("check %s: %q, want %s (all: %v)", id, verdicts[id], want, verdicts)
		}
	}
	if len(verdicts) < 10 {
		t.Errorf("%d checks reported: %v", len(verdicts), verdicts)
	}
	m := regexp.MustCompile(`href="/frames/(\d+)/body" title="tools/list`).FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("the tools-list check links no frame:\n%s", r.Body)
	}
	if f := d.get(t, "/frames/"+m[1]+"/body"); f.Status != http.StatusOK || !strings.Contains(f.Body, "tools/list") {
		t.Errorf("the linked frame %s: %d", m[1], f.Status)
	}
	if r := d.htmxPost(t, "/sessions/999999/check", token, url.Values{}); !strings.Contains(r.Body, `data-testid="check-error"`) {
		t.Errorf("a check of no live session: %d %s", r.Status, r.Body)
	}
}
