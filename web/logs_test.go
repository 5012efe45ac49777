package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// logLevels are the eight levels, least severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// MustLoggingServer serves an official Go SDK server whose log tool logs
// "<level> line" (logger "test") at each level, and one object at error;
// the SDK sends only those at the level the client asked for and above.
func MustLoggingServer(tb testing.TB) string {
	tb.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "logging", Version: "1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "log", Description: "logs a line at each level"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			for _, level := range logLevels {
				if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: mcp.LoggingLevel(level), Logger: "test", Data: level + " line"}); err != nil {
					return nil, nil, err
				}
			}
			err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "error", Logger: "db", Data: map[string]any{"host": "<db>", "port": 5432}})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "logged"}}}, nil, err
		})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

var logRowLevel = regexp.MustCompile(`data-testid="log-entry" data-level="([a-z]+)"`)

// shownLevels lists the levels of the log rows in body, in order.
func shownLevels(body string) string {
	var out []string
	for _, m := range logRowLevel.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return strings.Join(out, " ")
}

func TestLogsPanel(t *testing.T) {
	d := MustDashboard(t)
	token := d.MustCSRF(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "logging", "transport": "http", "url": MustLoggingServer(t)})
	sess := d.MustAPISession(t, srv.ID)
	logs := fmt.Sprintf("/sessions/%d/logs", sess.ID)
	levelPath := fmt.Sprintf("/sessions/%d/logging/level", sess.ID)
	callLog := func() {
		t.Helper()
		text, isErr := callText(t, finished(t, "the log call", d.apiCallAsync(t, sess.ID, "log", map[string]any{})))
		if text != "logged" || isErr {
			t.Fatalf("log tool: %q %v", text, isErr)
		}
	}
	// waitRows polls the panel until it shows n rows (the recorder commits
	// in batches).
	waitRows := func(query string, n int) string {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			r := d.get(t, logs+query)
			if r.Status != http.StatusOK {
				t.Fatalf("GET %s: %d %s", logs+query, r.Status, r.Body)
			}
			if strings.Count(r.Body, `data-testid="log-entry"`) >= n || time.Now().After(deadline) {
				return r.Body
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	for _, path := range []string{fmt.Sprintf("/sessions/%d", sess.ID), fmt.Sprintf("/servers/%d/logs", srv.ID)} {
		page := d.get(t, path)
		for _, want := range []string{`data-testid="logs"`, `data-testid="logs-empty"`, `hx-post="` + levelPath + `"`, "sends logging/setLevel",
			"until they are asked for a level"} {
			if !strings.Contains(page.Body, want) {
				t.Errorf("%s lacks %s", path, want)
			}
		}
	}

	t.Run("level without a CSRF token", func(t *testing.T) {
		r := d.htmxPost(t, levelPath, "", url.Values{"level": {"debug"}})
		if !strings.Contains(r.Body, `data-testid="error-banner"`) || strings.Contains(r.Body, "accepted") || d.pool.LogLevel(sess.ID) != "" {
			t.Errorf("setLevel without a token: %d %s", r.Status, r.Body)
		}
	})
	t.Run("unknown level", func(t *testing.T) {
		r := d.htmxPost(t, levelPath, token, url.Values{"level": {"loud"}})
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `role="alert" data-testid="log-level-result"`) || !strings.Contains(r.Body, "not a log level") {
			t.Errorf("setLevel loud: %d %s", r.Status, r.Body)
		}
	})

	// Nothing is logged before a level is set (the SDK's choice): the rows
	// checked below are all from the call after setLevel.
	callLog()
	r := d.htmxPost(t, levelPath, token, url.Values{"level": {"warning"}})
	if r.Status != http.StatusOK || !strings.Contains(r.Body, "The server accepted warning.") || !strings.Contains(r.Body, `<option value="warning" selected>`) {
		t.Fatalf("setLevel warning: %d %s", r.Status, r.Body)
	}
	callLog()
	body := waitRows("", 6)
	if got, want := shownLevels(body), "warning error critical alert emergency error"; got != want {
		t.Errorf("after setLevel warning the panel shows %q, want %q", got, want)
	}
	for _, want := range []string{`<span class="pre-wrap">warning line</span>`, `"host": "<db>"`, `class="log-level lvl-emergency"`} {
		if !strings.Contains(strings.ReplaceAll(body, "&#34;", `"`), strings.ReplaceAll(want, "<db>", "&lt;db&gt;")) {
			t.Errorf("the panel lacks %s:\n%s", want, body)
		}
	}

	filters := []struct {
		name, query, want string
	}{
		{"at error and above", "?level=error", "error critical alert emergency error"},
		{"at alert and above", "?level=alert&rows=1", "alert emergency"},
		{"text", "?q=CRITICAL", "critical"},
		{"text in JSON data", "?q=5432", "error"},
		{"after an entry", "", ""},
	}
	for _, tt := range filters {
		t.Run(tt.name, func(t *testing.T) {
			query := tt.query
			if query == "" { // the rows after the third, as the live view asks
				ids := regexp.MustCompile(`data-log-id="(\d+)"`).FindAllStringSubmatch(body, -1)
				query, tt.want = "?rows=1&after="+ids[2][1], "alert emergency error"
			}
			r := d.get(t, logs+query)
			if got := shownLevels(r.Body); r.Status != http.StatusOK || got != tt.want {
				t.Errorf("GET %s: %d, shows %q, want %q", query, r.Status, got, tt.want)
			}
			if rows := strings.Contains(query, "rows=1"); rows == strings.Contains(r.Body, `data-testid="logs"`) {
				t.Errorf("GET %s: rows only %v, but the panel's section is there: %v", query, rows, !rows)
			}
		})
	}
	if r := d.get(t, logs+"?level=loud"); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("GET ?level=loud: %d", r.Status)
	}
}
