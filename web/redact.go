package web

import (
	"net/http"
	"strings"

	"github.com/mcp-playground/playground/backend"
)

// redactedValue replaces a secret header value in what people are shown.
const redactedValue = "[redacted]"

// sensitiveHeaderWords mark header names whose values are treated as secrets.
var sensitiveHeaderWords = []string{"authorization", "cookie", "token", "secret", "key", "password", "session"}

// redactHTTP returns info with the values of secret-looking headers
// replaced; the stored frame keeps them. The MCP session id stays visible:
// it identifies a session and grants nothing without the other headers.
func redactHTTP(info *backend.HTTPInfo) *backend.HTTPInfo {
	if info == nil || len(info.Header) == 0 {
		return info
	}
	out := *info
	out.Header = make(http.Header, len(info.Header))
	for name, values := range info.Header {
		if isSecretHeader(name) {
			values = []string{redactedValue}
		}
		out.Header[name] = values
	}
	return &out
}

func isSecretHeader(name string) bool {
	lower := strings.ToLower(name)
	if lower == "mcp-session-id" {
		return false
	}
	for _, w := range sensitiveHeaderWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// redactFrames returns a copy of frames with the secret header values of
// their HTTP info replaced, for showing to people.
func redactFrames(frames []backend.Frame) []backend.Frame {
	out := make([]backend.Frame, len(frames))
	for i, f := range frames {
		f.HTTP = redactHTTP(f.HTTP)
		out[i] = f
	}
	return out
}
