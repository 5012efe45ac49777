package oauth

import (
	"bytes"
	"encoding/json"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcp-playground/playground/backend"
)

// What an OAuth step stores has its secrets replaced by RedactedValue:
// credential headers (RedactHeader), and the values of secretFields
// in URL queries, form bodies and JSON bodies. The debugger shows steps to
// every viewer, and the database keeps them in plain text.

// secretFields are the parameters and JSON members that carry
// secrets in OAuth exchanges.
var secretFields = map[string]bool{
	"client_secret": true, "code": true, "code_verifier": true, "access_token": true, "refresh_token": true,
	"id_token": true, "registration_access_token": true, "client_assertion": true, "assertion": true,
	"subject_token": true, "actor_token": true, "password": true,
}

// redactHeader is h as an OAuth step stores it (RedactHeader), an empty
// map for none.
func redactHeader(h http.Header) map[string][]string {
	if h == nil {
		return map[string][]string{}
	}
	return backend.RedactHeader(h)
}

// redactQuery replaces the values of secret parameters in a URL-encoded
// query or form, keeping the order and spelling of the others.
func redactQuery(q string) string {
	if q == "" {
		return q
	}
	pairs := strings.Split(q, "&")
	for i, p := range pairs {
		key, _, _ := strings.Cut(p, "=")
		if name, err := url.QueryUnescape(key); err == nil && secretFields[strings.ToLower(name)] {
			pairs[i] = key + "=" + backend.RedactedValue
		}
	}
	return strings.Join(pairs, "&")
}

// redactParsedURL returns u as text with its secret query parameters
// replaced.
func redactParsedURL(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery = redactQuery(c.RawQuery)
	return c.String()
}

// RedactURL returns the URL text (absolute, or a path with a query)
// with the values of OAuth's secret parameters in its query replaced: an
// authorization code on its way to the callback, a token. Text that does
// not parse is kept whole only when it has no query.
func RedactURL(text string) string {
	u, err := url.Parse(text)
	if err != nil {
		base, _, _ := strings.Cut(text, "?")
		return base
	}
	return redactParsedURL(u)
}

// redactBody returns an exchange's body as text with its secrets
// replaced: form bodies by parameter, JSON objects by member (at any
// depth). Member and parameter names match in any case, as
// encoding/json matches them. A body that is not JSON (cut at
// stepBodyLimit, or malformed) has the string values of secret members
// replaced where they appear, and, labelled text/plain or not at all, its
// form parameters too: golang.org/x/oauth2 reads such a token answer as a
// form. Other bodies are kept as they are.
func redactBody(contentType string, body []byte) string {
	mediaType, _, _ := mime.ParseMediaType(contentType)
	switch {
	case len(body) == 0:
		return ""
	case mediaType == "application/x-www-form-urlencoded":
		return redactQuery(string(body))
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		text := secretMember().ReplaceAllString(string(body), `${1}"`+backend.RedactedValue+`"`)
		if mediaType == "text/plain" || mediaType == "" {
			text = redactQuery(text)
		}
		return text
	}
	if !redactJSON(v) {
		return string(body)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return string(body)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// secretMember matches a JSON member named by secretFields, in any
// case, with its string value up to its closing quote or the end of the
// text; group 1 is the name and colon.
var secretMember = sync.OnceValue(func() *regexp.Regexp {
	names := slices.Sorted(maps.Keys(secretFields))
	return regexp.MustCompile(`(?i)("(?:` + strings.Join(names, "|") + `)"\s*:\s*)"(?:[^"\\]|\\.)*(?:"|\\?$)`)
})

// redactJSON replaces secret members in v and reports whether it did.
func redactJSON(v any) bool {
	changed := false
	switch t := v.(type) {
	case map[string]any:
		for k, member := range t {
			if secretFields[strings.ToLower(k)] {
				if s, ok := member.(string); !ok || s != backend.RedactedValue {
					t[k] = backend.RedactedValue
					changed = true
				}
				continue
			}
			changed = redactJSON(member) || changed
		}
	case []any:
		for _, e := range t {
			changed = redactJSON(e) || changed
		}
	}
	return changed
}
