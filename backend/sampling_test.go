package backend_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

func TestReplySample(t *testing.T) {
	tests := []struct {
		name  string
		reply backend.SampleReply
		want  string
	}{
		{"defaults", backend.SampleReply{Text: "line one\nline two"},
			`{"role":"assistant","content":{"type":"text","text":"line one\nline two"},"model":"playground-user","stopReason":"endTurn"}`},
		{"named model and stop reason", backend.SampleReply{Text: "hi", Model: " m1 ", StopReason: "maxTokens"},
			`{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m1","stopReason":"maxTokens"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inbox := backend.NewInbox(backend.NewHub(0), time.Minute)
			req, done := startAsk(t, inbox, t.Context(), 1, backend.MethodSample, `{"messages":[],"maxTokens":10}`)
			if err := inbox.ReplySample(req.ID, tt.reply, ""); err != nil {
				t.Fatalf("ReplySample: %v", err)
			}
			if a := outcome(t, done); a.err != nil || string(a.result) != tt.want {
				t.Errorf("the server got %s (%v), want %s", a.result, a.err, tt.want)
			}
		})
	}

	t.Run("empty text", func(t *testing.T) {
		inbox := backend.NewInbox(backend.NewHub(0), time.Minute)
		req, _ := startAsk(t, inbox, t.Context(), 1, backend.MethodSample, `{"messages":[],"maxTokens":10}`)
		if err := inbox.ReplySample(req.ID, backend.SampleReply{Text: " \n "}, ""); backend.ErrorCodeOf(err) != backend.EInvalid {
			t.Errorf("ReplySample with no text = %v, want EInvalid", err)
		}
		if _, err := inbox.Get(req.ID); err != nil {
			t.Errorf("an empty reply ended the request: %v", err)
		}
	})
}

func TestDeclineSample(t *testing.T) {
	inbox := backend.NewInbox(backend.NewHub(0), time.Minute)
	req, done := startAsk(t, inbox, t.Context(), 1, backend.MethodSample, `{"messages":[],"maxTokens":10}`)
	if err := inbox.DeclineSample(req.ID, ""); err != nil {
		t.Fatalf("DeclineSample: %v", err)
	}
	// The spec: a client whose user rejects sampling answers error -1.
	var rpcErr *backend.JSONRPCError
	if a := outcome(t, done); !errors.As(a.err, &rpcErr) || rpcErr.Code != -1 || rpcErr.Message != "User rejected sampling request" {
		t.Errorf("the server got %#v, want JSON-RPC error -1", a.err)
	}
}

func TestParseSampling(t *testing.T) {
	p, err := backend.ParseSampling(json.RawMessage(`{
		"messages": [
			{"role": "user", "content": {"type": "text", "text": "a\nb"}},
			{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "weather", "input": {"city": "Paris"}}]},
			{"role": "user", "content": [{"type": "tool_result", "toolUseId": "t1", "content": [{"type": "text", "text": "sunny"}]}, {"type": "image", "data": "AAAA", "mimeType": "image/png"}]}
		],
		"systemPrompt": "Be brief.", "includeContext": "thisServer", "temperature": 0.2, "maxTokens": 100,
		"stopSequences": ["\n\n"], "metadata": {"k": 1},
		"modelPreferences": {"hints": [{"name": "claude"}], "costPriority": 0.3, "intelligencePriority": 0.9},
		"tools": [{"name": "weather", "description": "the weather", "inputSchema": {"type": "object"}}],
		"toolChoice": {"mode": "auto"}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	m := p.Messages
	if len(m) != 3 || len(m[0].Content) != 1 || m[0].Content[0].Text != "a\nb" || m[1].Content[0].Type != "tool_use" ||
		string(m[1].Content[0].Input) != `{"city": "Paris"}` || len(m[2].Content) != 2 || m[2].Content[0].ToolUseID != "t1" || m[2].Content[1].MimeType != "image/png" {
		t.Errorf("messages = %+v", m)
	}
	mp := p.ModelPreferences
	if p.SystemPrompt != "Be brief." || p.IncludeContext != "thisServer" || p.Temperature == nil || *p.Temperature != 0.2 || p.MaxTokens != 100 ||
		len(p.StopSequences) != 1 || mp == nil || mp.Hints[0].Name != "claude" || *mp.CostPriority != 0.3 || mp.SpeedPriority != nil ||
		len(p.Tools) != 1 || p.ToolChoice == nil || p.ToolChoice.Mode != "auto" {
		t.Errorf("params = %+v", p)
	}
	if _, err := backend.ParseSampling(json.RawMessage(`{"messages": "no"}`)); backend.ErrorCodeOf(err) != backend.EInvalid {
		t.Errorf("ParseSampling of a malformed request: %v, want EInvalid", err)
	}
}

func TestElicitURLTarget(t *testing.T) {
	tests := []struct {
		name      string
		url       string
		host      string
		ascii     string
		userInfo  bool
		refusedAs string
	}{
		{"https", "https://example.com/sign-in?x=1", "example.com", "example.com", false, ""},
		{"http with a port", "http://127.0.0.1:8080/cb", "127.0.0.1", "127.0.0.1", false, ""},
		{"internationalised name", "https://bücher.example/login", "bücher.example", "xn--bcher-kva.example", false, ""},
		{"punycode as sent", "https://xn--80ak6aa92e.com/", "аррӏе.com", "xn--80ak6aa92e.com", false, ""},
		{"name before the host", "https://bank.example@evil.example/", "evil.example", "evil.example", true, ""},
		{"javascript", "javascript:alert(1)", "", "", false, "javascript:"},
		{"data", "data:text/html,<b>x</b>", "", "", false, "data:"},
		{"file", "file:///etc/passwd", "", "", false, "file:"},
		{"relative", "/just/a/path", "", "", false, "relative"},
		{"no host", "https:///path", "", "", false, "without a host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := backend.ElicitURLTarget(tt.url)
			if tt.refusedAs != "" {
				if backend.ErrorCodeOf(err) != backend.EInvalid || !strings.Contains(backend.ErrorMessageOf(err), tt.refusedAs) {
					t.Errorf("ElicitURLTarget(%q) = %+v, %v; want a refusal naming %q", tt.url, got, err, tt.refusedAs)
				}
				return
			}
			if err != nil || got.Host != tt.host || got.ASCIIHost != tt.ascii || got.UserInfo != tt.userInfo || got.URL != tt.url ||
				got.IDN() != (tt.host != tt.ascii) {
				t.Errorf("ElicitURLTarget(%q) = %+v, %v", tt.url, got, err)
			}
		})
	}
}
