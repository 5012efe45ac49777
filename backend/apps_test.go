package backend

import (
	"encoding/json"
	"testing"

	"github.com/mcp-playground/playground/mcpclient"
)

func TestAppResourceURI(t *testing.T) {
	tests := []struct {
		name, meta, want string
		callable         bool
	}{
		{"none", ``, "", true},
		{"ui.resourceUri", `{"ui":{"resourceUri":"ui://a/app.html"}}`, "ui://a/app.html", true},
		{"deprecated flat key", `{"ui/resourceUri":"ui://b/app.html"}`, "ui://b/app.html", true},
		{"nested wins", `{"ui":{"resourceUri":"ui://a"},"ui/resourceUri":"ui://b"}`, "ui://a", true},
		{"not a ui:// resource", `{"ui":{"resourceUri":"https://example.com/app.html"}}`, "", true},
		{"malformed", `{"ui":"x"}`, "", true},
		{"model only", `{"ui":{"resourceUri":"ui://a","visibility":["model"]}}`, "ui://a", false},
		{"app only", `{"ui":{"resourceUri":"ui://a","visibility":["app"]}}`, "ui://a", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := mcpclient.Tool{Name: "t", Meta: json.RawMessage(tt.meta)}
			if got := AppResourceURI(tool); got != tt.want {
				t.Errorf("AppResourceURI = %q, want %q", got, tt.want)
			}
			if got := CallableByApp(tool); got != tt.callable {
				t.Errorf("CallableByApp = %v, want %v", got, tt.callable)
			}
		})
	}
}

func TestCSPOrigin(t *testing.T) {
	for d, want := range map[string]bool{
		"https://api.example.com":         true,
		"https://*.example.com":           true,
		"wss://rt.example.com:8443":       true,
		"http://localhost:3000":           true,
		"https://x.example; script-src *": false,
		"*":                               false,
		"'unsafe-eval'":                   false,
		"https://example.com/path":        false,
		"data:":                           false,
		"https://a.example https://b":     false,
		"javascript://x":                  false,
	} {
		if got := cspOrigin().MatchString(d); got != want {
			t.Errorf("cspOrigin(%q) = %v, want %v", d, got, want)
		}
	}
}
