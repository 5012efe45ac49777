package web

import (
	"net/http"

	"github.com/mcp-playground/playground/backend"
)

// redactHTTP returns info with the secrets of its URL (backend.RedactURL)
// and the values of its secret-looking headers (backend.IsSecretName)
// replaced; the stored frame keeps them. The MCP session id stays visible:
// it identifies a session and grants nothing without the other headers.
func redactHTTP(info *backend.HTTPInfo) *backend.HTTPInfo {
	if info == nil {
		return nil
	}
	u := backend.RedactURL(info.URL)
	if u == info.URL && len(info.Header) == 0 {
		return info
	}
	out := *info
	out.URL = u
	if len(info.Header) == 0 {
		return &out
	}
	out.Header = make(http.Header, len(info.Header))
	for name, values := range info.Header {
		if backend.IsSecretName(name) {
			values = []string{backend.RedactedValue}
		}
		out.Header[name] = values
	}
	return &out
}

// redactFrames returns a copy of frames with the secrets of their HTTP info
// replaced (redactHTTP), for showing to people.
func redactFrames(frames []backend.Frame) []backend.Frame {
	out := make([]backend.Frame, len(frames))
	for i, f := range frames {
		f.HTTP = redactHTTP(f.HTTP)
		out[i] = f
	}
	return out
}
