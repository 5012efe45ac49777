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
	}{
		{"none", ``, nil},
		{"not an object", `[1]`, nil},
		{"defaults say nothing", `{"readOnlyHint": false, "idempotentHint": false}`, nil},
		{"read-only hides destructiveness", `{"readOnlyHint": true, "destructiveHint": true, "idempotentHint": true}`, []string{"read-only", "idempotent"}},
		{"destructive, open world", `{"destructiveHint": true, "openWorldHint": true}`, []string{"destructive", "open world"}},
		{"non-destructive, closed world", `{"destructiveHint": false, "openWorldHint": false, "title": "x"}`, []string{"non-destructive", "closed world"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, b := range toolBadges(json.RawMessage(tt.annotations)) {
				got = append(got, b.Label)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("badges %q, want %q", got, tt.want)
			}
		})
	}
}
