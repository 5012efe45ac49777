package backend

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mcp-playground/playground/mcpclient"
)

// Secrets live in more places than env and header values: a server URL can
// carry credentials in its userinfo (http://user:pw@host) and in query
// parameters (?api_key=...). This file holds the one rule for what looks
// secret, used for headers, env names and URL parameters alike, and the
// redaction of URLs for what people are shown and what is logged.

// RedactedValue replaces a secret header or env value in what people are
// shown. On the server form, a value left as RedactedValue keeps the stored
// one (see Server.Redacted and Registry.Update).
const RedactedValue = "[redacted]"

// RedactedURLPart replaces a secret part of a URL (user name, password,
// parameter value). Unlike RedactedValue it needs no escaping in a URL, so
// a redacted URL stays a valid URL.
const RedactedURLPart = "REDACTED"

// sensitiveWords mark names (of headers, env variables, URL parameters)
// whose values are treated as secrets. A name is secret when its lower-case
// form contains any of them.
var sensitiveWords = []string{
	"auth", "cookie", "token", "secret", "key", "pass", "pwd", "session",
	"signature", "credential", "code", "jwt", "dpop",
}

// publicNames are names that contain a sensitive word but whose values
// grant nothing on their own and help to debug: the MCP session id, the
// authentication challenge of a 401 and the nonce a server hands out for
// DPoP proofs.
var publicNames = map[string]bool{"mcp-session-id": true, "www-authenticate": true, "dpop-nonce": true}

// IsSecretName reports whether the value of a header, env variable or URL
// parameter with this name is to be treated as a secret.
func IsSecretName(name string) bool {
	lower := lowerName(name, make([]byte, 0, 64))
	if publicNames[string(lower)] {
		return false
	}
	for _, w := range sensitiveWords {
		if bytes.Contains(lower, []byte(w)) {
			return true
		}
	}
	return false
}

// lowerName appends strings.ToLower(name) to buf. Every recorded frame's
// header names come through IsSecretName: an ASCII name, as header names
// are, is lowered into buf without a copy on the heap. Any other goes
// through strings.ToLower, which lowers some non-ASCII letters to ASCII
// ones (the Kelvin sign to k).
func lowerName(name string, buf []byte) []byte {
	for i := range len(name) {
		if name[i] >= utf8.RuneSelf {
			return append(buf, strings.ToLower(name)...)
		}
	}
	for i := range len(name) {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf
}

// RedactURL returns raw with its secrets replaced by RedactedURLPart: the
// user name and password of its userinfo, and the values of query (and
// fragment) parameters whose names IsSecretName. Everything else is kept
// byte for byte. raw need not parse as a URL; text without "://" is
// returned unchanged, and so is a URL without secrets.
func RedactURL(raw string) string {
	u, ok := splitURL(raw)
	if !ok {
		return raw
	}
	changed := false
	if u.hasUser {
		u.userinfo = RedactedURLPart
		if u.hasPassword {
			u.userinfo += ":" + RedactedURLPart
		}
		changed = true
	}
	for _, params := range []*string{&u.query, &u.fragment} {
		if redacted, ok := redactParams(*params); ok {
			*params, changed = redacted, true
		}
	}
	if !changed {
		return raw
	}
	return u.String()
}

// urlParts are the pieces of a URL as written, split without decoding.
type urlParts struct {
	scheme, userinfo, host, path, query, fragment string
	hasUser, hasPassword, hasQuery, hasFragment   bool
}

// splitURL splits raw at "://", the last "@" of the authority, and the
// first "?" and "#". It reports false when raw has no "://".
func splitURL(raw string) (urlParts, bool) {
	var u urlParts
	var rest string
	var ok bool
	if u.scheme, rest, ok = strings.Cut(raw, "://"); !ok {
		return u, false
	}
	rest, u.fragment, u.hasFragment = strings.Cut(rest, "#")
	rest, u.query, u.hasQuery = strings.Cut(rest, "?")
	authEnd := strings.IndexByte(rest, '/')
	if authEnd < 0 {
		authEnd = len(rest)
	}
	u.host, u.path = rest[:authEnd], rest[authEnd:]
	if at := strings.LastIndexByte(u.host, '@'); at >= 0 {
		u.userinfo, u.host, u.hasUser = u.host[:at], u.host[at+1:], true
		u.hasPassword = strings.Contains(u.userinfo, ":")
	}
	return u, true
}

func (u urlParts) String() string {
	var b strings.Builder
	b.WriteString(u.scheme)
	b.WriteString("://")
	if u.hasUser {
		b.WriteString(u.userinfo)
		b.WriteByte('@')
	}
	b.WriteString(u.host)
	b.WriteString(u.path)
	if u.hasQuery {
		b.WriteByte('?')
		b.WriteString(u.query)
	}
	if u.hasFragment {
		b.WriteByte('#')
		b.WriteString(u.fragment)
	}
	return b.String()
}

// redactParams redacts the values of the secret parameters of params
// ("a=1&b=2") and reports whether it changed anything.
func redactParams(params string) (string, bool) {
	if params == "" {
		return params, false
	}
	parts := strings.Split(params, "&")
	changed := false
	for i, p := range parts {
		name, value, _ := strings.Cut(p, "=")
		if value != "" && value != RedactedURLPart && IsSecretName(unescapeParam(name)) {
			parts[i] = name + "=" + RedactedURLPart
			changed = true
		}
	}
	if !changed {
		return params, false
	}
	return strings.Join(parts, "&"), true
}

func unescapeParam(name string) string {
	if u, err := url.QueryUnescape(name); err == nil {
		return u
	}
	return name
}

// urlInText finds absolute URLs in free text such as an error message; it
// stops at white space, quotes and angle brackets, and leaves out trailing
// punctuation ("connect http://h/mcp: refused").
var urlInText = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s\"'<>`]*[^\\s\"'<>`.,;:!?)]")
})

// RedactURLsIn returns text with RedactURL applied to every absolute URL in
// it: error messages of HTTP clients name the URL they failed on, and such
// messages are shown on pages, stored as close reasons and logged.
func RedactURLsIn(text string) string {
	if !strings.Contains(text, "://") {
		return text
	}
	return urlInText().ReplaceAllStringFunc(text, RedactURL)
}

// RestoreURLSecrets returns edited, a URL typed on the server form, with
// each RedactedURLPart that RedactURL put in place of a secret of stored
// replaced by that secret again: the user name, the password, and the
// values of secret parameters, matched by name and position. The secrets
// are restored only when edited has the same scheme and host (port
// included) as stored, so that someone who cannot read them cannot send
// them to another origin either. What cannot be restored stays as it is.
func RestoreURLSecrets(edited, stored string) string {
	if !strings.Contains(edited, RedactedURLPart) {
		return edited
	}
	e, eok := splitURL(edited)
	s, sok := splitURL(stored)
	eu, eerr := url.Parse(edited)
	su, serr := url.Parse(stored)
	if !eok || !sok || eerr != nil || serr != nil || !mcpclient.SameOrigin(eu, su) {
		return edited
	}
	if e.hasUser && s.hasUser {
		euser, epw, _ := strings.Cut(e.userinfo, ":")
		suser, spw, _ := strings.Cut(s.userinfo, ":")
		if euser == RedactedURLPart {
			euser = suser
		}
		if epw == RedactedURLPart && s.hasPassword {
			epw = spw
		}
		e.userinfo = euser
		if e.hasPassword {
			e.userinfo += ":" + epw
		}
	}
	e.query = restoreParams(e.query, s.query)
	e.fragment = restoreParams(e.fragment, s.fragment)
	return e.String()
}

// restoreParams puts back in edited the values of stored's parameters
// where edited has RedactedURLPart, the n-th parameter of a name taking the
// n-th value of that name in stored.
func restoreParams(edited, stored string) string {
	if !strings.Contains(edited, RedactedURLPart) {
		return edited
	}
	values := map[string][]string{}
	for _, p := range strings.Split(stored, "&") {
		name, value, _ := strings.Cut(p, "=")
		values[name] = append(values[name], value)
	}
	seen := map[string]int{}
	parts := strings.Split(edited, "&")
	for i, p := range parts {
		name, value, _ := strings.Cut(p, "=")
		n := seen[name]
		seen[name]++
		if value == RedactedURLPart && n < len(values[name]) {
			parts[i] = name + "=" + values[name][n]
		}
	}
	return strings.Join(parts, "&")
}

// Redacted returns a copy of s fit to show people who may not read its
// secrets: the URL and the proxy URL redacted (RedactURL), and RedactedValue in place of each
// env and header value that is secret (IsSecretPair). The Server it
// returns is for display and forms only; saving it through Registry.Update
// keeps the secrets it hides.
func (s Server) Redacted() Server {
	s.URL = RedactURL(s.URL)
	s.Proxy = RedactURL(s.Proxy)
	s.Env = redactPairs(s.Env)
	s.Headers = redactPairs(s.Headers)
	return s
}

// IsSecretPair reports whether an env or header value is a secret: its
// name looks secret, or it holds a URL with secrets (DATABASE_URL=
// postgres://user:pw@host).
func IsSecretPair(name, value string) bool {
	return IsSecretName(name) || RedactURLsIn(value) != value
}

func redactPairs(m map[string]string) map[string]string {
	if len(m) == 0 {
		return m
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if v != "" && IsSecretPair(k, v) {
			v = RedactedValue
		}
		out[k] = v
	}
	return out
}

// restoreSecrets returns edited, a server as saved from a form filled by
// Redacted, with the secrets of stored put back where the form still
// shows them redacted: env values always; URL parts (RestoreURLSecrets)
// and header values only while the traffic goes where it went
// (destinationChange); proxy URL parts while the way there stays
// (pathChange). Fields of the redacted values that stay,
// having no stored value to take (a renamed header, a changed
// destination), are returned as field errors (form field names: url,
// proxy, env, headers) that ask for the value to be typed again.
func restoreSecrets(edited, stored Server) (Server, map[string]string) {
	fields := map[string]string{}
	moved, detour := destinationChange(stored, edited).Phrase(), pathChange(stored, edited).Phrase()
	if moved == "" {
		edited.URL = RestoreURLSecrets(edited.URL, stored.URL)
	}
	if detour == "" {
		edited.Proxy = RestoreURLSecrets(edited.Proxy, stored.Proxy)
	}
	if hasURLPlaceholder(edited.URL) {
		fields["url"] = "The URL shows a secret as " + RedactedURLPart + ", but stored secrets are kept only while the traffic goes where it went, and " + moved + ": type it again."
	}
	if hasURLPlaceholder(edited.Proxy) {
		why := "it can only be kept for the same proxy scheme, host and port"
		if detour != "" {
			why = "stored secrets are kept only while the traffic goes where it went, and " + detour
		}
		fields["proxy"] = "The proxy URL shows a secret as " + RedactedURLPart + ", but " + why + ": type it again."
	}
	// restore returns m with each RedactedValue replaced by the value of
	// the same name in from, when keep; it names the values it cannot
	// restore in fields[field].
	restore := func(m, from map[string]string, keep bool, field string) map[string]string {
		out := make(map[string]string, len(m))
		for k, v := range m {
			if old, found := from[k]; v == RedactedValue && keep && found {
				v = old
			} else if v == RedactedValue {
				why := "there is no stored value of that name to keep"
				if !keep {
					why = "stored header values are kept only while the traffic goes where it went, and " + moved
				}
				fields[field] = k + " is shown as " + RedactedValue + ", but " + why + ": type the value again."
			}
			out[k] = v
		}
		return out
	}
	if edited.Env != nil {
		edited.Env = restore(edited.Env, stored.Env, true, "env")
	}
	if edited.Headers != nil {
		edited.Headers = restore(edited.Headers, stored.Headers, moved == "", "headers")
	}
	return edited, fields
}

// hasURLPlaceholder reports whether RedactedURLPart stands for a secret of
// raw: its user name, its password or a secret parameter's value.
func hasURLPlaceholder(raw string) bool {
	u, ok := splitURL(raw)
	if !ok || !strings.Contains(raw, RedactedURLPart) {
		return false
	}
	if u.hasUser {
		user, pw, _ := strings.Cut(u.userinfo, ":")
		if user == RedactedURLPart || pw == RedactedURLPart {
			return true
		}
	}
	for _, params := range []string{u.query, u.fragment} {
		for _, p := range strings.Split(params, "&") {
			if name, value, _ := strings.Cut(p, "="); value == RedactedURLPart && IsSecretName(unescapeParam(name)) {
				return true
			}
		}
	}
	return false
}
