package lint

import (
	"fmt"
	"strings"

	"github.com/mcp-playground/playground/mcpclient"
)

// Streamable HTTP headers the rules read, in the canonical form net/http
// stores them under (see header).
const (
	headerProtocolVersion = "Mcp-Protocol-Version"
	headerSessionID       = "Mcp-Session-Id"
	headerMethod          = "Mcp-Method"
	headerName            = "Mcp-Name"
)

// headerVersionSince is the first version whose clients send
// MCP-Protocol-Version on every request after initialize.
const headerVersionSince = "2025-06-18"

// namedMethods are the methods whose POST carries Mcp-Name in the modern
// era: the name or URI the request targets.
var namedMethods = map[string]bool{"tools/call": true, "prompts/get": true, "resources/read": true}

// headers checks the HTTP headers the single message m of f travelled
// with: the session id a legacy server gave kept by the client, none in
// the modern era, and, on what the client posts, the protocol version
// header and the modern era's Mcp-Method and Mcp-Name mirroring the body.
func (l *Linter) headers(f Frame, m *msg, out *findings) {
	s := specOf(l.Version())
	if s == nil {
		return
	}
	sid := header(f, headerSessionID)
	if s.modern() {
		if sid != "" && !l.warned[headerSessionID] {
			l.warned[headerSessionID] = true
			out.add(ruleSessionHeader, "", fmt.Sprintf("The %s sent Mcp-Session-Id %q; version %s has no protocol-level sessions (noted once a session).", m.sender, sid, s.version))
		}
	} else {
		l.legacySession(f, m, sid, out)
	}
	if f.Direction != mcpclient.Outbound || m.method == "" || m.method == "initialize" {
		return
	}
	l.versionHeader(s, f, m, out)
	if s.modern() {
		methodHeaders(f, m, out)
	}
}

// legacySession learns the session id from the initialize response and
// checks that every later client request carries it unchanged.
func (l *Linter) legacySession(f Frame, m *msg, sid string, out *findings) {
	switch {
	case f.Direction == mcpclient.Inbound && m.answers == "initialize":
		l.httpSession = sid
	case f.Direction == mcpclient.Outbound && l.httpSession != "" && m.method != "initialize" && sid != l.httpSession:
		if sid == "" {
			out.add(ruleSessionHeader, "", fmt.Sprintf("The client posted %s without the Mcp-Session-Id %q the server's initialize response gave.", m.method, l.httpSession))
		} else {
			out.add(ruleSessionHeader, "", fmt.Sprintf("The client posted %s with Mcp-Session-Id %q, not the %q the server's initialize response gave.", m.method, sid, l.httpSession))
		}
	}
}

// versionHeader checks a client POST's MCP-Protocol-Version: the
// negotiated version in a legacy session (from 2025-06-18 on), the
// request's _meta version in the modern era.
func (l *Linter) versionHeader(s *spec, f Frame, m *msg, out *findings) {
	want := l.Version()
	if s.modern() {
		if v, ok := objectOf(m.params()["_meta"])[metaProtocolVersion].(string); ok {
			want = v
		}
	} else if want < headerVersionSince || !l.life.answered && !l.opts.Excerpt {
		return
	}
	switch got := header(f, headerProtocolVersion); {
	case got == "":
		out.add(ruleVersionHeader, "", fmt.Sprintf("The client posted %s without an MCP-Protocol-Version header (want %s).", m.method, want))
	case got != want:
		out.add(ruleVersionHeader, "", fmt.Sprintf("The client posted %s with MCP-Protocol-Version %s, but the session speaks %s.", m.method, got, want))
	}
}

// methodHeaders checks a modern POST's Mcp-Method and Mcp-Name against
// its body.
func methodHeaders(f Frame, m *msg, out *findings) {
	switch got := header(f, headerMethod); {
	case got == "":
		out.add(ruleMethodHeader, m.ptr("method"), fmt.Sprintf("The POST of %s has no Mcp-Method header.", m.method))
	case got != m.method:
		out.add(ruleMethodHeader, m.ptr("method"), fmt.Sprintf("The POST's Mcp-Method is %q, but its body's method is %q.", got, m.method))
	}
	target, member := targetOf(m), "name"
	if _, ok := m.params()["uri"]; ok && m.method == "resources/read" {
		member = "uri"
	}
	got := header(f, headerName)
	switch {
	case !namedMethods[m.method] || target == "":
	case got == "":
		out.add(ruleMethodHeader, m.ptr("params", member), fmt.Sprintf("The POST of %s has no Mcp-Name header (want %q).", m.method, target))
	case got != target && !strings.EqualFold(got, target):
		out.add(ruleMethodHeader, m.ptr("params", member), fmt.Sprintf("The POST's Mcp-Name is %q, but its body names %q.", got, target))
	}
}

// header is the first value of f's header name, given canonical: a
// lookup without http.Header.Get's canonicalising, which the recorder's
// path would pay for on every frame.
func header(f Frame, name string) string {
	if v := f.Header[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}
