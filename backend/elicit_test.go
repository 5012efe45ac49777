package backend_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

const (
	elicitForm = `{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}`
	elicitURL  = `{"mode":"url","message":"Sign in","url":"https://example.com/consent","elicitationId":"e-1"}`
)

// What the server gets for each way a person answers an elicitation.
func TestElicitAnswers(t *testing.T) {
	tests := []struct {
		name, params string
		answer       func(in *backend.Inbox, id int64) error
		want         string
	}{
		{"form accepted", elicitForm, func(in *backend.Inbox, id int64) error {
			return in.AcceptElicit(id, json.RawMessage(`{"name":"Ada"}`), "ada")
		}, `{"action":"accept","content":{"name":"Ada"}}`},
		{"url accepted", elicitURL, func(in *backend.Inbox, id int64) error { return in.AcceptElicit(id, nil, "ada") }, `{"action":"accept"}`},
		{"declined", elicitForm, func(in *backend.Inbox, id int64) error { return in.DismissElicit(id, backend.ElicitDecline, "ada") }, `{"action":"decline"}`},
		{"cancelled", elicitURL, func(in *backend.Inbox, id int64) error { return in.DismissElicit(id, backend.ElicitCancel, "ada") }, `{"action":"cancel"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inbox := backend.NewInbox(backend.NewHub(0), time.Minute)
			req, done := startAsk(t, inbox, t.Context(), 1, backend.MethodElicit, tt.params)
			if err := tt.answer(inbox, req.ID); err != nil {
				t.Fatal(err)
			}
			if a := outcome(t, done); a.err != nil || string(a.result) != tt.want {
				t.Errorf("the server got %s (%v), want %s", a.result, a.err, tt.want)
			}
			if by := inbox.AnsweredBy(req.ID); by != "ada" {
				t.Errorf("AnsweredBy = %q", by)
			}
		})
	}
}

// Answers that cannot be sent are refused and leave the request waiting.
func TestElicitAnswersRefused(t *testing.T) {
	tests := []struct {
		name, method, params string
		answer               func(in *backend.Inbox, id int64) error
	}{
		{"a URL that is not offered", backend.MethodElicit, `{"mode":"url","message":"x","url":"javascript:alert(1)","elicitationId":"e"}`,
			func(in *backend.Inbox, id int64) error { return in.AcceptElicit(id, nil, "") }},
		{"form content that is not an object", backend.MethodElicit, elicitForm,
			func(in *backend.Inbox, id int64) error { return in.AcceptElicit(id, json.RawMessage(`["Ada"]`), "") }},
		{"no content for a form", backend.MethodElicit, elicitForm,
			func(in *backend.Inbox, id int64) error { return in.AcceptElicit(id, nil, "") }},
		{"an unknown action", backend.MethodElicit, elicitForm,
			func(in *backend.Inbox, id int64) error { return in.DismissElicit(id, "accept", "") }},
		{"accepting a sampling request", backend.MethodSample, `{"messages":[],"maxTokens":1}`,
			func(in *backend.Inbox, id int64) error { return in.AcceptElicit(id, json.RawMessage(`{}`), "") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inbox := backend.NewInbox(backend.NewHub(0), time.Minute)
			req, _ := startAsk(t, inbox, t.Context(), 1, tt.method, tt.params)
			if err := tt.answer(inbox, req.ID); backend.ErrorCodeOf(err) != backend.EInvalid {
				t.Errorf("got %v, want EInvalid", err)
			}
			if _, err := inbox.Get(req.ID); err != nil {
				t.Errorf("a refused answer ended the request: %v", err)
			}
		})
	}
}

func TestParseElicit(t *testing.T) {
	p, err := backend.ParseElicit(json.RawMessage(elicitURL))
	if err != nil || !p.URLMode() || p.URL != "https://example.com/consent" || p.ElicitationID != "e-1" || p.Message != "Sign in" {
		t.Fatalf("ParseElicit = %+v, %v", p, err)
	}
	if _, err := backend.ParseElicit(json.RawMessage(`{"message":7}`)); backend.ErrorCodeOf(err) != backend.EInvalid {
		t.Errorf("ParseElicit of a number message = %v, want EInvalid", err)
	}
}
