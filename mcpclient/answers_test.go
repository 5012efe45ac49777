package mcpclient

import (
	"encoding/json"
	"testing"
)

// The answers a client sends are written in the spec's shape.
func TestClientAnswerShapes(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"declined elicitation carries no content", ElicitResult{Action: ElicitDecline}, `{"action":"decline"}`},
		{"accepted form", ElicitResult{Action: ElicitAccept, Content: json.RawMessage(`{"n":1}`)}, `{"action":"accept","content":{"n":1}}`},
		{"no roots is an empty list", ListRootsResult{}, `{"roots":[]}`},
		{"capabilities", ClientCapabilities{Sampling: &SamplingCapability{}, Elicitation: BothElicitModes(), Roots: &RootsCapability{ListChanged: true}},
			`{"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true},"sampling":{}}`},
		{"no capabilities", ClientCapabilities{}, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.v)
			if err != nil || string(b) != tt.want {
				t.Fatalf("got %s (%v), want %s", b, err, tt.want)
			}
		})
	}
	if got := string((ClientCapabilities{Roots: &RootsCapability{}}).JSON()); got != `{"roots":{}}` {
		t.Fatalf("JSON() = %s", got)
	}
}

func TestElicitParamsModes(t *testing.T) {
	var form, url ElicitParams
	if err := json.Unmarshal([]byte(`{"message":"Name?","requestedSchema":{"type":"object"}}`), &form); err != nil || form.URLMode() || string(form.RequestedSchema) != `{"type":"object"}` {
		t.Fatalf("form: %+v %v", form, err)
	}
	if err := json.Unmarshal([]byte(`{"mode":"url","message":"Open","url":"https://example.com/a","elicitationId":"e-1"}`), &url); err != nil || !url.URLMode() || url.URL != "https://example.com/a" || url.ElicitationID != "e-1" {
		t.Fatalf("url: %+v %v", url, err)
	}
}
