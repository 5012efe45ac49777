package web

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestToolBadges(t *testing.T) {
	tests := []struct {
		name        string
		annotations string
		want        []string
		destructive bool // calling it asks for a confirmation
	}{
		{"none", ``, []string{"may modify"}, false},
		{"not an object", `[1]`, []string{"may modify"}, false},
		{"defaults", `{"readOnlyHint": false, "idempotentHint": false}`, []string{"may modify"}, false},
		{"read-only hides destructiveness", `{"readOnlyHint": true, "destructiveHint": true, "idempotentHint": true}`, []string{"read-only", "idempotent"}, false},
		{"destructive, open world", `{"destructiveHint": true, "openWorldHint": true}`, []string{"destructive", "open world"}, true},
		{"destructive, not read-only", `{"readOnlyHint": false, "destructiveHint": true}`, []string{"destructive"}, true},
		{"non-destructive, closed world", `{"destructiveHint": false, "openWorldHint": false, "title": "x"}`, []string{"non-destructive", "closed world"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := parseToolHints(json.RawMessage(tt.annotations))
			var got []string
			for _, b := range toolBadges(h) {
				got = append(got, b.Label)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("badges %q, want %q", got, tt.want)
			}
			if h.destructive() != tt.destructive {
				t.Errorf("destructive %v, want %v", h.destructive(), tt.destructive)
			}
		})
	}
}
