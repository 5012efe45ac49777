package mcpclient

import (
	"encoding/json"
	"testing"
)

func TestSamplingMessageContentShapes(t *testing.T) {
	tests := []struct {
		name, in, out string
		blocks        int
	}{
		{"one block", `{"role":"user","content":{"type":"text","text":"hi"}}`, `{"role":"user","content":{"type":"text","text":"hi"}}`, 1},
		{"an array", `{"role":"user","content":[{"type":"text","text":"a"},{"type":"image","data":"AA","mimeType":"image/png"}]}`,
			`{"role":"user","content":[{"type":"text","text":"a"},{"type":"image","data":"AA","mimeType":"image/png"}]}`, 2},
		{"no content", `{"role":"user"}`, `{"role":"user","content":null}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m SamplingMessage
			if err := json.Unmarshal([]byte(tt.in), &m); err != nil {
				t.Fatal(err)
			}
			if len(m.Content) != tt.blocks {
				t.Errorf("%d blocks, want %d", len(m.Content), tt.blocks)
			}
			out, err := json.Marshal(m)
			if err != nil || string(out) != tt.out {
				t.Errorf("Marshal = %s (%v), want %s", out, err, tt.out)
			}
		})
	}
}

func TestCreateMessageResultIsFlat(t *testing.T) {
	r := CreateMessageResult{Message: SamplingMessage{Role: "assistant", Content: []SamplingBlock{{Type: "text", Text: "x"}}}, Model: "m", StopReason: "endTurn"}
	out, err := json.Marshal(r)
	if want := `{"role":"assistant","content":{"type":"text","text":"x"},"model":"m","stopReason":"endTurn"}`; err != nil || string(out) != want {
		t.Fatalf("Marshal = %s (%v), want %s", out, err, want)
	}
	var back CreateMessageResult
	if err := json.Unmarshal(out, &back); err != nil || back.Model != "m" || back.StopReason != "endTurn" || back.Message.Content[0].Text != "x" {
		t.Errorf("Unmarshal = %+v (%v)", back, err)
	}
}
