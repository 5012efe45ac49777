package oauth

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

func TestOAuthExchangesKeepNoSecret(t *testing.T) {
	const secret = "s3cr3t-value"
	tests := []struct {
		name, contentType, body, want string
	}{
		{"code exchange form", "application/x-www-form-urlencoded",
			"grant_type=authorization_code&code=" + secret + "&code_verifier=" + secret + "&client_id=c1",
			"grant_type=authorization_code&code=[redacted]&code_verifier=[redacted]&client_id=c1"},
		{"refresh form", "application/x-www-form-urlencoded; charset=utf-8",
			"grant_type=refresh_token&refresh_token=" + secret + "&client_secret=" + secret,
			"grant_type=refresh_token&refresh_token=[redacted]&client_secret=[redacted]"},
		{"token answer", "application/json",
			`{"access_token":"` + secret + `","refresh_token":"` + secret + `","token_type":"Bearer","expires_in":60}`, ""},
		{"registration answer", "application/json", `{"client_id":"c1","client_secret":"` + secret + `"}`, ""},
		{"nested", "application/json", `{"a":[{"id_token":"` + secret + `"}]}`, ""},
		{"token answer as a text/plain form (oauth2 reads it)", "text/plain",
			"access_token=" + secret + "&refresh_token=" + secret + "&token_type=bearer", "access_token=[redacted]&refresh_token=[redacted]&token_type=bearer"},
		{"upper-case members (encoding/json matches them)", "application/json", `{"ACCESS_TOKEN":"` + secret + `","Refresh_Token":"` + secret + `"}`, ""},
		{"JSON cut at the step's limit", "application/json", `{"access_token":"` + secret + `","refresh_token":"` + secret + `","pad":"xxxx`, ""},
		{"JSON cut inside a secret", "application/json", `{"token_type":"Bearer","access_token":"` + secret, ""},
		{"metadata without secrets is kept as sent", "application/json", `{"issuer":"https://as.example"}`, `{"issuer":"https://as.example"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := redactBody(tt.contentType, []byte(tt.body))
			if strings.Contains(got, secret) || (tt.want != "" && got != tt.want) {
				t.Errorf("redactBody = %q, want %q without the secret", got, tt.want)
			}
		})
	}
	h := http.Header{"Authorization": {"Bearer " + secret}, "Content-Type": {"application/json"}}
	if got := redactHeader(h); got["Authorization"][0] != backend.RedactedValue || got["Content-Type"][0] != "application/json" {
		t.Errorf("redactHeader = %v", got)
	}
	if got := RedactURL("https://dash.example/oauth/callback?code=" + secret + "&state=st"); got != "https://dash.example/oauth/callback?code=[redacted]&state=st" {
		t.Errorf("RedactURL = %q", got)
	}
	if got := redactURLsIn(`oauth2: cannot fetch token: "https://as.example/token?code=` + secret + `"`); strings.Contains(got, secret) {
		t.Errorf("redactURLsIn = %q", got)
	}
}
