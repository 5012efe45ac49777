package backend

import (
	"bytes"
	"encoding/json"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/mcp-playground/playground/mcpclient"
)

// minSecretLen is the length below which a configured secret value is not
// searched for in text: blanking every "1" or "abc" would garble the text
// and hide nothing worth hiding.
const minSecretLen = 6

// Redactor hides one server's configured secrets in the texts recorded and
// shown about its sessions: the values of its secret env and header
// pairs, the user name, password and secret parameter values of its URL,
// and the credentials of any URL (RedactURLsIn). A stdio server that logs
// its token, or an error that quotes a URL, then shows [redacted]. The
// zero Redactor redacts URLs only.
type Redactor struct {
	values []string // longest first, so that a value inside another goes second
}

// NewRedactor returns the Redactor of s's secrets.
func NewRedactor(s Server) Redactor {
	var values []string
	add := func(v string) {
		if len(v) < minSecretLen {
			return
		}
		values = append(values, v)
		// As it reads inside a JSON string, where a server may echo it.
		if quoted, err := json.Marshal(v); err == nil && string(quoted[1:len(quoted)-1]) != v {
			values = append(values, string(quoted[1:len(quoted)-1]))
		}
	}
	for _, m := range []map[string]string{s.Env, s.Headers} {
		for k, v := range m {
			if isSecretPair(k, v) {
				add(v)
			}
		}
	}
	if u, err := url.Parse(s.URL); err == nil && s.URL != "" {
		if u.User != nil {
			add(u.User.Username())
			pw, _ := u.User.Password()
			add(pw)
		}
		for _, params := range []string{u.RawQuery, u.EscapedFragment()} {
			for _, p := range strings.Split(params, "&") {
				name, value, _ := strings.Cut(p, "=")
				if IsSecretName(unescapeParam(name)) {
					add(value)
					if plain, err := url.QueryUnescape(value); err == nil {
						add(plain)
					}
				}
			}
		}
	}
	sort.Slice(values, func(i, j int) bool { return len(values[i]) > len(values[j]) })
	return Redactor{values: slices.Compact(values)}
}

// Text returns text with the secrets replaced.
func (r Redactor) Text(text string) string {
	return r.withoutValues(RedactURLsIn(text))
}

// withoutValues returns text with the secret values replaced.
func (r Redactor) withoutValues(text string) string {
	for _, v := range r.values {
		text = strings.ReplaceAll(text, v, RedactedValue)
	}
	return text
}

// Tap returns a Tap that hands next every frame with the secrets
// replaced: in stderr lines, transport notes and inbound data that is not
// JSON-RPC (a server logging to stdout) the secret values and any URL's
// credentials; in JSON-RPC messages the secret values alone (a server that
// echoes the token it was sent, in an error or a tool result), so that a
// message is otherwise recorded as it travelled and stays valid JSON.
// The frame handed to the client itself is never changed.
func (r Redactor) Tap(next mcpclient.Tap) mcpclient.Tap {
	return func(f mcpclient.Frame) {
		switch {
		case f.Kind == mcpclient.KindMessage:
			if r.holdsValue(f.Body) {
				f.Body = []byte(r.withoutValues(string(f.Body)))
			}
		case r.mayChange(f.Body):
			if redacted := r.Text(string(f.Body)); redacted != string(f.Body) {
				f.Body = []byte(redacted)
			}
		}
		next(f)
	}
}

// mayChange reports whether Text could change body.
func (r Redactor) mayChange(body []byte) bool {
	return bytes.Contains(body, []byte("://")) || r.holdsValue(body)
}

// holdsValue reports whether body holds a secret value.
func (r Redactor) holdsValue(body []byte) bool {
	for _, v := range r.values {
		if bytes.Contains(body, []byte(v)) {
			return true
		}
	}
	return false
}
