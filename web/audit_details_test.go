package web

import (
	"encoding/json"
	"io"
	"net/url"
	"strings"
	"testing"
)

func TestAuditDetailsRedactSecretsAndKeepNames(t *testing.T) {
	tests := []struct {
		name string
		form url.Values
		want string
	}{
		{"csrf token and empty fields left out", url.Values{"_csrf": {"tok"}, "name": {"demo"}, "dir": {""}}, `{"name":"demo"}`},
		{"passwords of every account form", url.Values{"password": {"p1"}, "current": {"p2"}, "confirm": {"p3"}},
			`{"confirm":"[redacted]","current":"[redacted]","password":"[redacted]"}`},
		{"server form env and headers keep their names", url.Values{"env": {"API_KEY=abc\nDEBUG=1"}, "headers": {"Authorization: Bearer x\nX-Team: blue"}},
			`{"env":"API_KEY=[redacted]\nDEBUG=[redacted]","headers":"Authorization: [redacted]\nX-Team: [redacted]"}`},
		{"URL credentials", url.Values{"url": {"http://u:pw@h/mcp?token=t0k&page=2"}}, `{"url":"http://REDACTED:REDACTED@h/mcp?token=REDACTED&page=2"}`},
		{"environment values, names kept", url.Values{"v_name": {"HOST", "PASSWORD"}, "v_value": {"example.com", "hunter2"}},
			`{"v_name":["HOST","PASSWORD"],"v_value":["[redacted]","[redacted]"]}`},
		{"tool arguments as one object, what was called first", url.Values{"_tool": {"echo"}, "_call": {"C1"}, "arg.text": {"hi"}, "arg.api_key": {"sk-1"},
			"_raw": {`{"text":"ignored","extra":{"secret":"s","n":1}}`}},
			`{"_tool":"echo","arguments":{"api_key":"[redacted]","extra":{"n":1,"secret":"[redacted]"},"text":"hi"},"_call":"C1"}`},
		{"JSON text in a field", url.Values{"params": {`{"auth":"x","q":"y"}`}}, `{"params":{"auth":"[redacted]","q":"y"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(detailsJSON(formDetails(tt.form))); got != tt.want {
				t.Errorf("details = %s\nwant      %s", got, tt.want)
			}
		})
	}
}

func TestAuditDetailsOfJSONBodies(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"server with headers and env", `{"name":"s","headers":{"X-Api-Key":"k"},"env":{"TOKEN":"t","MODE":"dev"}}`,
			`{"name":"s","env":{"MODE":"[redacted]","TOKEN":"[redacted]"},"headers":{"X-Api-Key":"[redacted]"}}`},
		{"tool call", `{"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi","password":"p"}}}`,
			`{"method":"tools/call","params":{"arguments":{"password":"[redacted]","text":"hi"},"name":"echo"}}`},
		{"JSON inside a string", `{"message":"{\"token\":\"t\",\"id\":1}"}`, `{"message":"{\"id\":1,\"token\":\"[redacted]\"}"}`},
		{"not JSON", `{"broken`, `{"body":"[not recorded: 8 bytes that are not JSON]"}`},
		{"an array", `[1,2]`, `{"body":[1,2]}`},
		{"empty", ``, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(detailsJSON(jsonBodyDetails(readCopy(t, tt.body)))); got != tt.want {
				t.Errorf("details = %s\nwant      %s", got, tt.want)
			}
		})
	}
	huge := readCopy(t, `{"text":"`+strings.Repeat("x", maxAuditBodyCopy)+`"}`)
	if got := string(detailsJSON(jsonBodyDetails(huge))); !strings.Contains(got, "not recorded: more than") {
		t.Errorf("a body over the copy's bound: %.200s", got)
	}
	long := detailsJSON(jsonBodyDetails(readCopy(t, `{"text":"`+strings.Repeat("é", maxAuditDetails)+`"}`)))
	var cut struct {
		Truncated string `json:"truncated"`
		Bytes     int    `json:"bytes"`
	}
	if err := json.Unmarshal(long, &cut); err != nil || len(long) > maxAuditDetails+200 || !strings.HasPrefix(cut.Truncated, `{"text":"éé`) || cut.Bytes <= maxAuditDetails {
		t.Errorf("details over %d bytes: %d bytes, %v, %.100s", maxAuditDetails, len(long), err, long)
	}
}

// TestAuditActionOfRequest: a JSON API request is recorded under the
// action of its method, read from the body's audit details, its name
// matched as the handler matches it.
func TestAuditActionOfRequest(t *testing.T) {
	const route = "POST /api/v1/sessions/:id/requests"
	tests := []struct {
		body string
		want string
	}{
		{`{"method":"tools/call","params":{"name":"echo"}}`, "tool.call"},
		{`{"Method":"prompts/get"}`, "prompt.get"},
		{`{"method":"tools/list"}`, "session.request"},
		{`{"method":5}`, "session.request"},
		{`["tools/call"]`, "session.request"},
		{`not json`, "session.request"},
	}
	for _, tt := range tests {
		if got := auditAction(route, jsonBodyDetails(readCopy(t, tt.body))); got != tt.want {
			t.Errorf("the action of %s = %q, want %q", tt.body, got, tt.want)
		}
	}
	if got := auditAction("POST /api/v1/servers", map[string]any{"method": "tools/call"}); got != "server.create" {
		t.Errorf("the action of a server's creation = %q, want server.create", got)
	}
}

// readCopy is a bodyCopy that has read all of body.
func readCopy(t *testing.T, body string) *bodyCopy {
	t.Helper()
	b := &bodyCopy{ReadCloser: io.NopCloser(strings.NewReader(body))}
	if _, err := io.Copy(io.Discard, b); err != nil {
		t.Fatal(err)
	}
	return b
}
