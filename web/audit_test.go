package web_test

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/audit"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/web"
)

// auditEvents returns the audit events filter selects, newest first.
func (d *dashboard) auditEvents(t *testing.T, f audit.Filter) []audit.Event {
	t.Helper()
	if err := d.audit.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	events, err := d.db.ListAuditEvents(t.Context(), f)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// mustOneAuditEvent returns the newest event of action, failing when
// there is none.
func (d *dashboard) mustOneAuditEvent(t *testing.T, action string) audit.Event {
	t.Helper()
	events := d.auditEvents(t, audit.Filter{Action: action, Limit: 1})
	if len(events) == 0 || events[0].Action != action {
		t.Fatalf("no %s event in the audit log: %+v", action, events)
	}
	return events[0]
}

func TestEveryStateChangingRouteHasAnAuditAction(t *testing.T) {
	d := MustDashboard(t)
	seen := map[string]bool{}
	for _, r := range d.web.Routes() {
		if isSafeMethod(r.Method) {
			continue
		}
		action, ok := web.AuditAction(r.Method, r.Path)
		if !ok || action == "" || strings.ContainsAny(action, " /") {
			t.Errorf("%s %s has no audit action label (got %q); add it to auditActions", r.Method, r.Path, action)
		}
		seen[r.Method+" "+r.Path] = true
	}
	if len(seen) < 40 {
		t.Errorf("only %d state-changing routes; does the router list its routes?", len(seen))
	}
	before := len(d.auditEvents(t, audit.Filter{}))
	if r := d.postForm(t, "/no/such/route", url.Values{"_csrf": {d.MustCSRF(t)}}); r.Status != http.StatusNotFound {
		t.Errorf("POST /no/such/route: %d, want 404", r.Status)
	}
	if after := d.auditEvents(t, audit.Filter{}); len(after) != before {
		t.Errorf("a request that matched no route was audited: %+v", after[0])
	}
}

func TestToolCallsAreAuditedWithTheirArgumentsAndWhoCalled(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	sess := d.MustAPISession(t, srv.ID)

	r := d.htmxPost(t, fmt.Sprintf("/sessions/%d/tools/call?card=0", sess.ID), token,
		url.Values{"_tool": {"echo"}, "arg.text": {"hello from the audit test"}})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-outcome="result"`) {
		t.Fatalf("echo: %d\n%s", r.Status, r.Body)
	}
	e := d.mustOneAuditEvent(t, "tool.call")
	var details map[string]any
	if err := json.Unmarshal(e.Details, &details); err != nil {
		t.Fatalf("details %s: %v", e.Details, err)
	}
	if e.ActorName != testAdmin || e.ActorID == 0 || e.Via != audit.ViaBrowser || e.Client != "127.0.0.1" || e.Outcome != audit.OK ||
		e.Target != fmt.Sprintf("session %d (sdk)", sess.ID) || details["_tool"] != "echo" ||
		details["arguments"].(map[string]any)["text"] != "hello from the audit test" || !strings.HasPrefix(string(e.Details), `{"_tool":"echo","arguments":`) {
		t.Errorf("the form's tool call was audited as %+v, details %s", e, e.Details)
	}
	if _, ok := details["_csrf"]; ok {
		t.Errorf("the CSRF token is in the details: %s", e.Details)
	}

	if call := d.callTool(t, sess.ID, "echo", map[string]any{"text": "from a script", "api_key": "sk-not-for-the-log"}, 0); call.Status != http.StatusOK {
		t.Fatalf("API tools/call: %d %s", call.Status, call.Body)
	}
	e = d.mustOneAuditEvent(t, "tool.call")
	if e.Via != audit.ViaToken || e.ActorName != testAdmin || !strings.Contains(string(e.Details), `"text":"from a script"`) ||
		!strings.Contains(string(e.Details), `"name":"echo"`) || strings.Contains(string(e.Details), "sk-not-for-the-log") ||
		!strings.Contains(string(e.Details), `"api_key":"[redacted]"`) {
		t.Errorf("the API's tool call was audited as %+v, details %s", e, e.Details)
	}

	connect := d.mustOneAuditEvent(t, "session.connect")
	if connect.Target != fmt.Sprintf("server %d (sdk)", srv.ID) || connect.Via != audit.ViaToken {
		t.Errorf("connecting was audited as %+v", connect)
	}
}

// TestAuditNamesWhatTheHandlerActedOn: the audit log names the session a
// request's path gives as the handler reads it, so that a path the
// handler finds nothing at names nothing either.
func TestAuditNamesWhatTheHandlerActedOn(t *testing.T) {
	d := MustDashboard(t)
	sess := d.MustAPISession(t, d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)}).ID)
	hex := fmt.Sprintf("0x%x", sess.ID) // the same number, not as a handler reads an id
	in := map[string]any{"method": "ping"}
	if r := d.api(t, http.MethodPost, "/api/v1/sessions/"+hex+"/requests", in, nil); r.Status != http.StatusNotFound {
		t.Fatalf("a request on session %s: %d %s, want 404", hex, r.Status, r.Body)
	}
	// The handler refused the path before reading the body, so the action
	// is not refined by its method.
	if e := d.mustOneAuditEvent(t, "session.request"); e.Target != "session "+hex || !strings.HasPrefix(e.Outcome, "404") {
		t.Errorf("the request on session %s was audited as %+v, want the target %q and a 404", hex, e, "session "+hex)
	}
	if r := d.api(t, http.MethodPost, fmt.Sprintf("/api/v1/sessions/%d/requests", sess.ID), in, nil); r.Status != http.StatusOK {
		t.Fatalf("a ping on session %d: %d %s", sess.ID, r.Status, r.Body)
	}
	if e := d.mustOneAuditEvent(t, "session.ping"); e.Target != fmt.Sprintf("session %d (sdk)", sess.ID) {
		t.Errorf("the ping on session %d was audited with the target %q", sess.ID, e.Target)
	}
}

func TestSecretHeaderOfARegisteredServerStaysOutOfTheAuditLog(t *testing.T) {
	d := MustDashboard(t)
	d.mustAccount(t, "eddie", backend.RoleEditor)
	editor := newClient()
	d.mustSignIn(t, editor, "eddie")
	const secret = "Bearer s3cret-header-value-for-audit"
	const urlSecret = "k3y-in-the-url-for-audit"
	form := url.Values{"_csrf": {csrfOf(t, d, editor)}, "name": {"secret http"}, "transport": {"http"}, "era": {"legacy"},
		"url": {"http://127.0.0.1:1/mcp?api_key=" + urlSecret}, "headers": {"Authorization: " + secret + "\nX-Team: blue"}}
	if r := d.postFormWith(t, editor, "/servers", form); r.Status != http.StatusSeeOther {
		t.Fatalf("registering the server: %d %s", r.Status, r.Body)
	}
	d.MustAPIServer(t, map[string]any{"name": "api secret", "transport": "http", "url": "http://127.0.0.1:1/mcp",
		"headers": map[string]string{"X-Custom": "another-" + urlSecret}})

	e := d.mustOneAuditEvent(t, "server.create")
	if e.ActorName != testAdmin || !strings.Contains(string(e.Details), `"X-Custom":"[redacted]"`) {
		t.Errorf("the API's server.create: %+v %s", e, e.Details)
	}
	events := d.auditEvents(t, audit.Filter{Action: "server.create", Actor: "eddie"})
	if len(events) != 1 {
		t.Fatalf("eddie's server.create events: %+v", events)
	}
	e = events[0]
	if !strings.Contains(string(e.Details), `"headers":"Authorization: [redacted]\nX-Team: [redacted]"`) || !strings.HasSuffix(e.Target, " (secret http)") ||
		!strings.Contains(string(e.Details), `"name":"secret http"`) || e.Via != audit.ViaBrowser {
		t.Errorf("eddie's server.create: %+v %s", e, e.Details)
	}
	for _, s := range []string{secret, urlSecret} {
		if strings.Contains(string(e.Details), s) {
			t.Errorf("the audit row holds %q: %s", s, e.Details)
		}
	}
	for _, f := range []string{d.dbPath, d.dbPath + "-wal", d.dbPath + "-shm"} {
		b, err := os.ReadFile(f)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, s := range []string{"s3cret-header-value-for-audit", urlSecret} {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s holds the secret %q", f, s)
			}
		}
	}
}

func TestSignInsAreAuditedWithoutThePassword(t *testing.T) {
	d := MustDashboard(t)
	d.mustAccount(t, "vera", backend.RoleViewer)
	client := newClient()
	const wrong = "not-veras-password-123"
	r := d.postFormWith(t, client, "/signin", url.Values{"_csrf": {csrfOf(t, d, client)}, "name": {"vera"}, "password": {wrong}})
	if r.Status != http.StatusUnauthorized {
		t.Fatalf("a wrong password: %d", r.Status)
	}
	failed := d.mustOneAuditEvent(t, "signin.failed")
	if failed.ActorName != "vera" || failed.ActorID != 0 || failed.Via != audit.ViaAnonymous || failed.Outcome == audit.OK ||
		strings.Contains(string(failed.Details), wrong) || !strings.Contains(string(failed.Details), `"password":"[redacted]"`) {
		t.Errorf("the failed sign-in was audited as %+v %s", failed, failed.Details)
	}
	d.mustSignIn(t, client, "vera")
	signin := d.auditEvents(t, audit.Filter{Action: "signin", Actor: "vera", Limit: 1})
	if len(signin) != 1 || signin[0].Action != "signin" || signin[0].ActorID == 0 || signin[0].Via != audit.ViaBrowser ||
		signin[0].Outcome != audit.OK || strings.Contains(string(signin[0].Details), testPassword) {
		t.Errorf("the sign-in was audited as %+v", signin)
	}
}

func TestOnlyAdminsSeeAndExportTheAuditLog(t *testing.T) {
	d := MustDashboard(t)
	for name, role := range map[string]backend.Role{"vera": backend.RoleViewer, "eddie": backend.RoleEditor} {
		d.mustAccount(t, name, role)
		client := newClient()
		d.mustSignIn(t, client, name)
		for _, path := range []string{"/audit", "/audit/export"} {
			if r := d.doWith(t, client, d.newRequest(t, http.MethodGet, path, nil)); r.Status != http.StatusForbidden {
				t.Errorf("%s (%s) GET %s = %d, want 403", name, role, path, r.Status)
			}
		}
	}
	r := d.get(t, "/audit")
	if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-testid="audit-events"`) || !strings.Contains(r.Body, `data-action="signin"`) {
		t.Fatalf("the admin's /audit: %d\n%.2000s", r.Status, r.Body)
	}
	if !strings.Contains(d.get(t, "/").Body, `href="/audit"`) {
		t.Error("the admin's top bar has no Audit link")
	}
}

var auditOlderLink = regexp.MustCompile(`href="(/audit\?[^"]*before=\d+[^"]*)" data-testid="audit-older"`)

func TestAuditPageFiltersAndPagesOlder(t *testing.T) {
	d := MustDashboard(t)
	for i := range audit.PageSize + 5 {
		if _, err := d.db.AppendAuditEvent(t.Context(), audit.Event{At: time.Now(), ActorName: "robot", Via: audit.ViaCLI,
			Action: "server.delete", Target: fmt.Sprintf("server %d (number %d)", i, i), Details: json.RawMessage(`{}`), Outcome: audit.OK}); err != nil {
			t.Fatal(err)
		}
	}
	first := d.get(t, "/audit?actor=robot")
	if n := strings.Count(first.Body, `data-testid="audit-event"`); n != audit.PageSize {
		t.Errorf("the first page has %d rows, want %d", n, audit.PageSize)
	}
	older := auditOlderLink.FindStringSubmatch(first.Body)
	if older == nil || !strings.Contains(first.Body, "(number 204)") || strings.Contains(first.Body, "(number 4)<") {
		t.Fatalf("the first page: no Older link or the wrong rows:\n%.3000s", first.Body)
	}
	second := d.get(t, strings.ReplaceAll(older[1], "&amp;", "&"))
	if n := strings.Count(second.Body, `data-testid="audit-event"`); n != 5 || !strings.Contains(second.Body, "(number 0)") ||
		auditOlderLink.MatchString(second.Body) {
		t.Errorf("the older page has %d rows:\n%.3000s", n, second.Body)
	}
	if r := d.get(t, "/audit?q=number+17%29"); strings.Count(r.Body, `data-testid="audit-event"`) != 1 {
		t.Errorf("the text filter: %.3000s", r.Body)
	}
	if r := d.get(t, "/audit?from=yesterday"); r.Status != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "YYYY-MM-DD") {
		t.Errorf("a bad date: %d %.2000s", r.Status, r.Body)
	}
	today := time.Now().Format("2006-01-02")
	if r := d.get(t, "/audit?actor=robot&to="+today); strings.Count(r.Body, `data-testid="audit-event"`) != audit.PageSize {
		t.Errorf("to today includes today: %d rows", strings.Count(r.Body, `data-testid="audit-event"`))
	}
	if r := d.get(t, "/audit?actor=robot&from=2000-01-01&to=2000-01-02"); !strings.Contains(r.Body, `data-testid="audit-empty"`) {
		t.Errorf("a range without events: %.2000s", r.Body)
	}
}

func TestAuditExportIsNDJSONOfTheFilteredEvents(t *testing.T) {
	d := MustDashboard(t)
	d.mustAccount(t, "vera", backend.RoleViewer)
	bad := newClient()
	d.postFormWith(t, bad, "/signin", url.Values{"_csrf": {csrfOf(t, d, bad)}, "name": {"vera"}, "password": {"wrong password"}})
	for i := range audit.PageSize + 3 {
		if _, err := d.db.AppendAuditEvent(t.Context(), audit.Event{At: time.Now(), ActorName: "robot", Via: audit.ViaCLI,
			Action: "user.add", Target: fmt.Sprintf("user %d", i), Details: json.RawMessage(`{"n":1}`), Outcome: audit.OK}); err != nil {
			t.Fatal(err)
		}
	}
	lines := func(query string) []map[string]any {
		t.Helper()
		r := d.get(t, "/audit/export"+query)
		if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-ndjson") ||
			!strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("export%s: %d %v", query, r.Status, r.Header)
		}
		var out []map[string]any
		sc := bufio.NewScanner(strings.NewReader(r.Body))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("export%s: line %q: %v", query, sc.Text(), err)
			}
			out = append(out, m)
		}
		return out
	}
	robot := lines("?actor=robot")
	if len(robot) != audit.PageSize+3 {
		t.Errorf("robot's export has %d lines, want every page: %d", len(robot), audit.PageSize+3)
	}
	for _, m := range robot {
		if m["actor"] != "robot" || m["action"] != "user.add" || m["details"].(map[string]any)["n"] != 1.0 {
			t.Fatalf("a line of robot's export: %v", m)
		}
	}
	signins := lines("?action=signin")
	if len(signins) != 2 || signins[0]["action"] != "signin.failed" || signins[0]["actor"] != "vera" || signins[1]["action"] != "signin" {
		t.Errorf("the export of sign-ins, newest first: %v", signins)
	}
	if none := lines("?actor=nobody"); len(none) != 0 {
		t.Errorf("an export that selects nothing: %v", none)
	}
}

// TestAuditFailureNeverFailsTheRequest takes the audit table away behind
// the dashboard's back: a request still does what it asked and answers as
// usual, and the failure to record it is logged.
func TestAuditFailureNeverFailsTheRequest(t *testing.T) {
	var log syncBuffer
	d := mustDashboardWith(t, dashboardOptions{log: &log})
	other, err := sql.Open("sqlite3", store.DSN(d.dbPath))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.ExecContext(t.Context(), `ALTER TABLE audit_events RENAME TO audit_events_away`); err != nil {
		t.Fatal(err)
	}
	r := d.postForm(t, "/collections", url.Values{"_csrf": {d.MustCSRF(t)}, "name": {"kept despite the audit"}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("creating a collection while the audit log fails: %d %s", r.Status, r.Body)
	}
	if !strings.Contains(d.get(t, "/collections").Body, "kept despite the audit") {
		t.Error("the collection was not created")
	}
	if err := d.audit.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "could not record an audit event") || !strings.Contains(log.String(), "collection.create") {
		t.Errorf("the failure to record is not logged:\n%s", log.String())
	}
}

// TestSecretRevealsAreAuditedByName records which of a server's secrets an
// admin revealed, by name, never their values.
func TestSecretRevealsAreAuditedByName(t *testing.T) {
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "remote", "transport": "http", "url": "http://127.0.0.1:9/mcp",
		"headers": map[string]string{"Authorization": "Bearer revealed-secret-3", "X-Team": "blue"}})
	if r := d.htmxPost(t, fmt.Sprintf("/servers/%d/reveal", srv.ID), d.MustCSRF(t), url.Values{}); r.Status != http.StatusOK {
		t.Fatalf("reveal: %d %s", r.Status, r.Body)
	}
	e := d.mustOneAuditEvent(t, "secret.reveal")
	if e.ActorName != testAdmin || e.Target != fmt.Sprintf("server %d (remote)", srv.ID) || string(e.Details) != `{"revealed":["header Authorization"]}` {
		t.Errorf("the reveal was audited as %+v %s", e, e.Details)
	}
}
