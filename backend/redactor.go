package backend

import (
	"bytes"
	"encoding/json"
	"net/http"
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
// and the credentials of any URL (RedactURLsIn); and in the HTTP requests
// recorded, the values of the headers it is configured to send, whatever
// their names. A stdio server that logs its token, or an error that
// quotes a URL, then shows [redacted]. The zero Redactor redacts URLs
// only.
type Redactor struct {
	values  []string        // longest first, so that a value inside another goes second
	headers map[string]bool // the canonical names of the server's configured headers
}

// NewRedactor returns the Redactor of s's secrets.
func NewRedactor(s Server) Redactor {
	var values []string
	for _, m := range []map[string]string{s.Env, s.Headers} {
		for k, v := range m {
			if IsSecretPair(k, v) {
				values = append(values, v)
			}
		}
	}
	if u, err := url.Parse(s.URL); err == nil && s.URL != "" {
		if u.User != nil {
			pw, _ := u.User.Password()
			values = append(values, u.User.Username(), pw)
		}
		for _, params := range []string{u.RawQuery, u.EscapedFragment()} {
			for _, p := range strings.Split(params, "&") {
				name, value, _ := strings.Cut(p, "=")
				if IsSecretName(unescapeParam(name)) {
					values = append(values, value)
					if plain, err := url.QueryUnescape(value); err == nil {
						values = append(values, plain)
					}
				}
			}
		}
	}
	r := Redactor{}.With(values...)
	if len(s.Headers) > 0 {
		r.headers = make(map[string]bool, len(s.Headers))
		for name := range s.Headers {
			r.headers[http.CanonicalHeaderKey(name)] = true
		}
	}
	return r
}

// With returns a Redactor that hides values too: each as it is and as it
// reads inside a JSON string, where a server may echo it. Values shorter
// than minSecretLen are left out.
func (r Redactor) With(values ...string) Redactor {
	all := slices.Clone(r.values)
	for _, v := range values {
		if len(v) < minSecretLen {
			continue
		}
		all = append(all, v)
		if quoted, err := json.Marshal(v); err == nil && string(quoted[1:len(quoted)-1]) != v {
			all = append(all, string(quoted[1:len(quoted)-1]))
		}
	}
	sort.Slice(all, func(i, j int) bool { return len(all[i]) > len(all[j]) || len(all[i]) == len(all[j]) && all[i] < all[j] })
	return Redactor{values: slices.Compact(all), headers: r.headers}
}

// Text returns text with the secrets replaced.
func (r Redactor) Text(text string) string {
	return r.WithoutValues(RedactURLsIn(text))
}

// WithoutValues returns text with the secret values replaced (URLs left
// as they are, unlike Text).
func (r Redactor) WithoutValues(text string) string {
	for _, v := range r.values {
		text = strings.ReplaceAll(text, v, RedactedValue)
	}
	return text
}

// Tap returns a Tap that hands next every frame redacted (Frame).
func (r Redactor) Tap(next mcpclient.Tap) mcpclient.Tap {
	return func(f mcpclient.Frame) { next(r.Frame(f)) }
}

// Frame returns f with the secrets replaced: in stderr lines, transport
// notes and inbound data that is not JSON-RPC (a server logging to
// stdout) the secret values and any URL's credentials; in JSON-RPC
// messages the secret values alone (a server that echoes the token it was
// sent, in an error or a tool result), so that a message is otherwise
// recorded as it travelled and stays valid JSON; in HTTP headers the
// configured headers' values whole, kept in the server's settings and
// revealed there, and the secret values in the headers of plain names.
// Other headers of secret names are kept whole, to be stored sealed and
// shown redacted (RedactHeader). f's body and HTTP info are not changed
// in place: the frame handed to the client itself stays as it is.
func (r Redactor) Frame(f mcpclient.Frame) mcpclient.Frame {
	f.HTTP = r.hideInHTTP(f.HTTP)
	switch {
	case f.Kind == mcpclient.KindMessage:
		if r.holdsValue(f.Body) {
			f.Body = []byte(r.WithoutValues(string(f.Body)))
		}
	case r.mayChange(f.Body):
		if redacted := r.Text(string(f.Body)); redacted != string(f.Body) {
			f.Body = []byte(redacted)
		}
	}
	return f
}

// hideInHTTP returns info with the values of the configured headers
// replaced by RedactedValue, and the secret values replaced in the values
// of the headers whose names are not secret; info itself when nothing
// changes.
func (r Redactor) hideInHTTP(info *mcpclient.HTTPInfo) *mcpclient.HTTPInfo {
	if info == nil || len(r.values) == 0 && len(r.headers) == 0 {
		return info
	}
	var out *mcpclient.HTTPInfo
	for name, values := range info.Header {
		configured := r.headers[http.CanonicalHeaderKey(name)]
		for i, v := range values {
			hidden := v
			switch {
			case configured:
				hidden = RedactedValue
			case !IsSecretName(name) && r.holdsValue([]byte(v)):
				hidden = r.WithoutValues(v)
			}
			if hidden == v {
				continue
			}
			if out == nil {
				c := *info
				c.Header = info.Header.Clone()
				out = &c
			}
			out.Header[name][i] = hidden
		}
	}
	if out == nil {
		return info
	}
	return out
}

// WithoutValuesInJSON replaces the secret values in a JSON text; it stays valid
// JSON, since a value is replaced within a string as it reads there.
func (r Redactor) WithoutValuesInJSON(raw json.RawMessage) json.RawMessage {
	if !r.holdsValue(raw) {
		return raw
	}
	return json.RawMessage(r.WithoutValues(string(raw)))
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
