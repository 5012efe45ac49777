package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/views"
)

// exchangeCopies builds the texts an exchange page offers to copy. server
// is the registered server of the exchange's session, nil when it was
// deleted. No secret reaches them: configured header values, and
// recorded ones of secret names (backend.RedactHeader), read
// backend.RedactedValue, and URLs are redacted (backend.RedactURL).
func exchangeCopies(e backend.HistoryEntry, server *backend.Server) views.ExchangeCopies {
	c := views.ExchangeCopies{JSONRPC: indentJSON(e.Request.Body), Call: playgroundCall(e, server)}
	if e.Session.Transport == backend.TransportHTTP && e.Request.HTTP != nil {
		c.Curl = curlCommand(e.Request)
	}
	return c
}

func indentJSON(body []byte) string {
	var out bytes.Buffer
	if json.Indent(&out, body, "", "  ") != nil {
		return string(body)
	}
	return out.String()
}

// playgroundCall is the `playground call` command line that sends the
// request again, or "" when the server is unknown and was not on HTTP.
func playgroundCall(e backend.HistoryEntry, server *backend.Server) string {
	words := []string{"playground", "call"}
	switch {
	case server != nil:
		switch server.Transport {
		case backend.TransportStdio:
			line := make([]string, 0, 1+len(server.Args))
			for _, w := range append([]string{server.Command}, server.Args...) {
				line = append(line, shellQuote(w))
			}
			words = append(words, "--stdio", shellQuote(strings.Join(line, " ")))
		case backend.TransportHTTP:
			words = append(words, "--url", shellQuote(backend.RedactURL(server.URL)))
		case backend.TransportSSE:
			words = append(words, "--sse", shellQuote(backend.RedactURL(server.URL)))
		}
		for _, name := range sortedKeys(server.Headers) {
			words = append(words, "--header", shellQuote(name+": "+backend.RedactedValue))
		}
		if server.Era != backend.EraLegacy {
			words = append(words, "--era", string(server.Era))
		}
	case e.Session.Transport == backend.TransportHTTP && e.Request.HTTP != nil:
		words = append(words, "--url", shellQuote(backend.RedactURL(e.Request.HTTP.URL)))
	default:
		return ""
	}
	words = append(words, shellQuote(e.Request.Method))
	if params := e.Request.Params(); len(params) > 0 {
		var compact bytes.Buffer
		if json.Compact(&compact, collections.StripMeta(params)) == nil {
			words = append(words, shellQuote(compact.String()))
		}
	}
	return strings.Join(words, " ")
}

// curlCommand is a curl command line that POSTs the request as recorded,
// with its headers as backend shows them (backend.RedactHeader): a secret
// header reads backend.RedactedValue, as on the frame's page.
func curlCommand(f backend.Frame) string {
	lines := []string{"curl -X POST " + shellQuote(backend.RedactURL(f.HTTP.URL))}
	for _, name := range sortedKeys(f.HTTP.Header) {
		if http.CanonicalHeaderKey(name) == "Content-Length" {
			continue
		}
		for _, v := range f.HTTP.Header[name] {
			lines = append(lines, "-H "+shellQuote(name+": "+v))
		}
	}
	lines = append(lines, "--data-raw "+shellQuote(string(f.Body)))
	return strings.Join(lines, " \\\n  ")
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@,+%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
