package backend_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

func TestParseHistoryQuery(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   string
		want backend.HistoryQuery
	}{
		{"empty", "  ", backend.HistoryQuery{}},
		{"words", "weather  today", backend.HistoryQuery{Text: []string{"weather", "today"}}},
		{"phrase", `"exact phrase" x`, backend.HistoryQuery{Text: []string{"exact phrase", "x"}}},
		{"the issue's example", `method:tools/call status:error latency:>500ms server:demo weather "exact phrase"`, backend.HistoryQuery{
			Method: "tools/call", Outcome: backend.OutcomeFailed, MinLatency: 500 * time.Millisecond, Server: "demo",
			Text: []string{"weather", "exact phrase"}}},
		{"quoted value", `server:"my server"`, backend.HistoryQuery{Server: "my server"}},
		{"key in any case", `Method:ping`, backend.HistoryQuery{Method: "ping"}},
		{"name aliases", `tool:echo`, backend.HistoryQuery{Item: "echo"}},
		{"resource uri keeps its colon", `name:demo://x`, backend.HistoryQuery{Item: "demo://x"}},
		{"status iserror", `status:isError`, backend.HistoryQuery{Outcome: backend.OutcomeToolError}},
		{"code", `code:-32602`, backend.HistoryQuery{ErrorCode: -32602, HasErrorCode: true}},
		{"latency below", `latency:<=2s`, backend.HistoryQuery{MaxLatency: 2 * time.Second}},
		{"latency range", `latency:100ms..1s`, backend.HistoryQuery{MinLatency: 100 * time.Millisecond, MaxLatency: time.Second}},
		{"dates", `after:2026-11-01 before:2026-11-30T10:30`, backend.HistoryQuery{
			After: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), Before: time.Date(2026, 11, 30, 10, 30, 0, 0, time.UTC)}},
		{"since", `since:2h`, backend.HistoryQuery{After: now.Add(-2 * time.Hour)}},
		{"colon in quotes is text", `"a:b"`, backend.HistoryQuery{Text: []string{"a:b"}}},
		{"time of day is text", `12:30`, backend.HistoryQuery{Text: []string{"12:30"}}},
		{"lint any", `lint:any`, backend.HistoryQuery{Lint: backend.LintAny}},
		{"lint severity in any case", `lint:Error`, backend.HistoryQuery{Lint: "error"}},
		{"lint code", `lint:jsonrpc.version ping`, backend.HistoryQuery{Lint: "jsonrpc.version", Text: []string{"ping"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := backend.ParseHistoryQuery(tt.in, now)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseHistoryQuery(%q) =\n%+v, want\n%+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseHistoryQueryErrors(t *testing.T) {
	tests := []struct{ in, wantMessage string }{
		{`colour:red`, `Unknown filter "colour:"`},
		{`"unclosed`, `A quote is not closed`},
		{`status:maybe`, `status:maybe is not a status`},
		{`latency:fast`, `latency:fast is not a latency range`},
		{`latency:2s..1s`, `is not a latency range`},
		{`code:x`, `code:x is not a number`},
		{`lint:nonsense`, `lint:nonsense is not a lint code`},
		{`after:yesterday`, `after:yesterday is not a time`},
		{`since:-1h`, `since:-1h is not a duration`},
		{`server:`, `server: needs a value`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			_, err := backend.ParseHistoryQuery(tt.in, time.Now())
			if backend.ErrorCodeOf(err) != backend.EInvalid || !strings.Contains(backend.ErrorMessageOf(err), tt.wantMessage) {
				t.Errorf("ParseHistoryQuery(%q) error = %v, want invalid with %q", tt.in, err, tt.wantMessage)
			}
		})
	}
}

func TestHistoryEntry(t *testing.T) {
	req := backend.Frame{ID: 7, RPCType: backend.RPCRequest, Direction: mcpclient.Outbound,
		Body: []byte(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"demo://a"}}`)}
	tests := []struct {
		name     string
		response backend.Frame
		outcome  backend.Outcome
		code     int64
		hasCode  bool
	}{
		{"ok", backend.Frame{RPCType: backend.RPCResult, Body: []byte(`{"result":{}}`)}, backend.OutcomeOK, 0, false},
		{"isError", backend.Frame{RPCType: backend.RPCResult, ToolError: true, Body: []byte(`{"result":{"isError":true}}`)}, backend.OutcomeToolError, 0, false},
		{"rpc error", backend.Frame{RPCType: backend.RPCError, Body: []byte(`{"error":{"code":-32601,"message":"x"}}`)}, backend.OutcomeRPCError, -32601, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := backend.HistoryEntry{Request: req, Response: tt.response}
			code, has := e.ErrorCode()
			if e.Outcome() != tt.outcome || code != tt.code || has != tt.hasCode || e.Item() != "demo://a" || e.ExchangeID() != 7 {
				t.Errorf("outcome %q, code %d %t, item %q, id %d", e.Outcome(), code, has, e.Item(), e.ExchangeID())
			}
		})
	}
}
