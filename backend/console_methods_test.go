package backend_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

func TestConsoleMethods(t *testing.T) {
	tests := []struct {
		era        backend.Era
		has, hasNt []string
	}{
		{"", []string{"tools/call", "ping", "logging/setLevel"}, []string{"server/discover"}},
		{backend.EraLegacy, []string{"resources/subscribe", "initialize"}, []string{"subscriptions/listen"}},
		{backend.EraModern, []string{"tools/call", "server/discover", "subscriptions/listen"}, []string{"ping", "initialize", "logging/setLevel"}},
		{backend.EraAuto, []string{"ping", "server/discover"}, nil},
	}
	for _, tt := range tests {
		t.Run(string(tt.era), func(t *testing.T) {
			var names []string
			for _, m := range backend.ConsoleMethods(tt.era) {
				names = append(names, m.Method)
				if m.Params != "" && !json.Valid([]byte(m.Params)) {
					t.Errorf("%s: template %q is not JSON", m.Method, m.Params)
				}
			}
			for _, m := range tt.has {
				if !slices.Contains(names, m) {
					t.Errorf("era %q lacks %s: %v", tt.era, m, names)
				}
			}
			for _, m := range tt.hasNt {
				if slices.Contains(names, m) {
					t.Errorf("era %q offers %s, which it does not speak", tt.era, m)
				}
			}
		})
	}
}
