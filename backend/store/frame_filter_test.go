package store

import (
	"fmt"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/mcpclient/lint"
)

// TestFrameFilterInSQLIsMatches stores frames of every sort and checks,
// for each filter, that the query keeps exactly the frames that
// FrameFilter.Matches keeps, and that those are the ones expected.
func TestFrameFilterInSQLIsMatches(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	sid := MustCreateSession(t, d, 0, "s")
	msg := func(dir mcpclient.Direction, rpc backend.RPCType, method, body string) backend.Frame {
		return backend.Frame{Direction: dir, Kind: mcpclient.KindMessage, RPCType: rpc, Method: method, Body: []byte(body)}
	}
	late := bodyOfSize(backend.MaxBodyPreview + 10)
	copy(late[len(late)-6:], "NEEDLE")
	frames := []backend.Frame{
		msg(mcpclient.Outbound, backend.RPCRequest, "tools/call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"NEEDLE"}}}`),
		msg(mcpclient.Inbound, backend.RPCError, "tools/call", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}`),
		msg(mcpclient.Inbound, backend.RPCResult, "tools/call", `{"jsonrpc":"2.0","id":2,"result":{"isError":true}}`),
		msg(mcpclient.Inbound, backend.RPCResult, "tools/call", `{"jsonrpc":"2.0", "id":3, "result": {"isError": true}}`),
		msg(mcpclient.Inbound, backend.RPCResult, "tools/call", `{"jsonrpc":"2.0","id":4,"result":{"isError":false}}`),
		msg(mcpclient.Inbound, backend.RPCNotification, "notifications/message", `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}`),
		{Direction: mcpclient.Inbound, Kind: mcpclient.KindParseError, Body: []byte("not json {{{")},
		{Direction: mcpclient.Stderr, Kind: mcpclient.KindLog, Body: []byte("a log line")},
		msg(mcpclient.Inbound, backend.RPCResult, "resources/read", string(late)),
	}
	for i := range frames {
		frames[i].ID, frames[i].SessionID, frames[i].Time = int64(i+1), sid, time.Now()
	}
	frames[2].ToolError, frames[3].ToolError = true, true // as the recorder decides it
	frames[1].Findings = []lint.Finding{{Code: "jsonrpc.reserved-code", Severity: lint.SevWarning, Pointer: "/error/code", Message: "m"}}
	frames[6].Findings = []lint.Finding{{Code: "jsonrpc.parse", Severity: lint.SevError, Message: "m"}, {Code: "transport.stdio-line", Severity: lint.SevError, Message: "m"}}
	if err := d.InsertFrames(ctx, frames, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		filter backend.FrameFilter
		want   []int64
	}{
		{"none", backend.FrameFilter{}, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{"errors", backend.FrameFilter{Errors: true}, []int64{2, 3, 4, 7}},
		{"no notifications", backend.FrameFilter{NoNotifications: true}, []int64{1, 2, 3, 4, 5, 7, 8, 9}},
		{"sent", backend.FrameFilter{Direction: mcpclient.Outbound}, []int64{1}},
		{"stderr", backend.FrameFilter{Direction: mcpclient.Stderr}, []int64{8}},
		{"text in a body", backend.FrameFilter{Text: "NEEDLE"}, []int64{1}},
		{"text in a method", backend.FrameFilter{Text: "notifications/"}, []int64{6}},
		{"text is case-sensitive", backend.FrameFilter{Text: "needle"}, nil},
		{"text with SQL in it", backend.FrameFilter{Text: "' OR 1=1 --"}, nil},
		{"errors received", backend.FrameFilter{Errors: true, Direction: mcpclient.Inbound, Text: "isError"}, []int64{3, 4}},
		{"lint findings", backend.FrameFilter{Findings: true}, []int64{2, 7}},
		{"lint findings sent", backend.FrameFilter{Findings: true, Direction: mcpclient.Outbound}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := d.ListFrames(ctx, backend.FrameQuery{SessionID: sid, Filter: tt.filter})
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, f := range got {
				ids = append(ids, f.ID)
			}
			var matched []int64
			for _, f := range frames {
				if tt.filter.Matches(f) {
					matched = append(matched, f.ID)
				}
			}
			if fmt.Sprint(ids) != fmt.Sprint(tt.want) || fmt.Sprint(matched) != fmt.Sprint(tt.want) {
				t.Errorf("the store keeps %v and Matches keeps %v, want %v", ids, matched, tt.want)
			}
		})
	}
}

// TestCountFindings counts each session's findings by severity; a session
// without any is left out, and so is one not asked for.
func TestCountFindings(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	s1, s2, s3 := MustCreateSession(t, d, 0, "a"), MustCreateSession(t, d, 0, "b"), MustCreateSession(t, d, 0, "c")
	finding := func(sev lint.Severity) lint.Finding { return lint.Finding{Code: "c", Severity: sev, Message: "m"} }
	frames := []backend.Frame{
		{ID: 1, SessionID: s1, Findings: []lint.Finding{finding(lint.SevError), finding(lint.SevWarning)}},
		{ID: 2, SessionID: s1, Findings: []lint.Finding{finding(lint.SevError), finding(lint.SevInfo)}},
		{ID: 3, SessionID: s2},
		{ID: 4, SessionID: s3, Findings: []lint.Finding{finding(lint.SevInfo)}},
	}
	for i := range frames {
		frames[i].Time, frames[i].Direction, frames[i].Kind, frames[i].Body = time.Now(), mcpclient.Inbound, mcpclient.KindMessage, []byte(`{}`)
	}
	if err := d.InsertFrames(ctx, frames, nil); err != nil {
		t.Fatal(err)
	}
	got, err := d.CountFindings(ctx, s1, s2)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int64]backend.FindingCount{s1: {Errors: 2, Warnings: 1, Infos: 1}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("CountFindings = %v, want %v", got, want)
	}
	if got, err := d.CountFindings(ctx); err != nil || len(got) != 0 {
		t.Errorf("CountFindings() = %v, %v", got, err)
	}
}
