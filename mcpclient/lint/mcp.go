package lint

import (
	"fmt"
	"strings"
)

// Reserved _meta keys of the modern era.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
)

// request judges a request m: its id against those in flight, then its
// place in the lifecycle, the capability it needs and its schema.
func (l *Linter) request(m *msg, out *findings) {
	l.learnFromRequest(m)
	if validID(m.id) && !l.flight[m.sender].ask(m, progressToken(m)) {
		out.add(ruleDuplicateID, m.ptr("id"), "The "+m.sender.String()+" already has a request with id "+m.key+" in flight.")
	}
	l.lifecycleOf(m, out)
	s := l.spec(out)
	if s == nil || isNotificationMethod(m.method) {
		return // a notification sent with an id was flagged as such
	}
	if s.modern() && m.sender == client {
		mm := objectOf(m.params()["_meta"])
		var missing []string
		for _, key := range []string{metaProtocolVersion, metaClientCapabilities} {
			if _, ok := mm[key]; !ok {
				missing = append(missing, key)
			}
		}
		if len(missing) > 0 {
			out.add(ruleMetaMissing, m.ptr("params", "_meta"), "The request's params._meta lacks "+strings.Join(missing, " and ")+".")
		}
		l.inputAnswer(m, out)
	}
	l.deprecatedIn(s, m, out)
	def, ok := l.methodDef(s, m, false, out)
	if !ok {
		return
	}
	l.capability(s, m, out)
	l.schema(s, def, m, "", out)
}

// notification judges a notification m.
func (l *Linter) notification(m *msg, out *findings) {
	switch m.method {
	case "notifications/cancelled":
		l.cancel(m)
	case "notifications/progress":
		l.progress(m, out)
	case "notifications/initialized":
		if m.sender == client {
			l.life.initialized = true
		}
	}
	s := l.spec(out)
	if s == nil {
		return
	}
	l.deprecatedIn(s, m, out)
	if def, ok := l.methodDef(s, m, true, out); ok {
		l.schema(s, def, m, "", out)
	}
}

// result judges the result of a request for method.
func (l *Linter) result(m *msg, method string, out *findings) {
	l.learnFromResult(m, method)
	s := l.spec(out)
	if s == nil {
		return
	}
	reqDef := s.requests[m.sender.other()][method]
	if reqDef == "" {
		return // mcp.unknown-method was said of the request
	}
	def := s.resultDef(reqDef)
	if objectOf(m.m["result"])["resultType"] == "input_required" && s.defs["InputRequiredResult"] != nil {
		def = "InputRequiredResult"
	}
	if s.modern() {
		l.resultType(m, method, out)
	}
	if method == "tools/list" && m.sender == server {
		l.learnTools(m)
	}
	if method == "tools/call" && def != "InputRequiredResult" {
		l.contentTypes(s, m, out)
		l.structured(m, out)
	}
	l.schema(s, def, m, "result", out)
}

// contentTypes flags the content items of a tool result whose type the
// version does not define.
func (l *Linter) contentTypes(s *spec, m *msg, out *findings) {
	if len(s.contentTypes) == 0 {
		return
	}
	content, _ := objectOf(m.m["result"])["content"].([]any)
	for i, c := range content {
		if t, ok := objectOf(c)["type"].(string); ok && !s.contentTypes[t] {
			out.add(ruleContentType, m.ptr("result", "content", fmt.Sprint(i), "type"),
				fmt.Sprintf("The content item's type %q is not one version %s defines.", t, s.version))
		}
	}
}

// methodDef is the definition of m's method as its sender sends it, ok
// false (with a finding) when the version has no such message.
func (l *Linter) methodDef(s *spec, m *msg, notification bool, out *findings) (string, bool) {
	table := s.requests
	kind := "request"
	if notification {
		table, kind = s.notifications, "notification"
	}
	if def, ok := table[m.sender][m.method]; ok {
		return def, true
	}
	if _, ok := table[m.sender.other()][m.method]; ok {
		out.add(ruleMethodDirection, m.ptr("method"), fmt.Sprintf("In version %s only the %s sends the %s %s.", s.version, m.sender.other(), kind, m.method))
		return "", false
	}
	out.add(ruleUnknownMethod, m.ptr("method"), fmt.Sprintf("Version %s has no %s %s.", s.version, kind, m.method))
	return "", false
}

// schema validates member of m (the whole message when "") against the
// definition def, unless a finding already points there.
func (l *Linter) schema(s *spec, def string, m *msg, member string, out *findings) {
	var v any = m.m
	if member != "" {
		v = m.m[member]
	}
	bad, ok := s.validate(def, v)
	if !ok {
		return
	}
	ptr := m.at + bad.pointer
	if member != "" {
		ptr = m.ptr(member) + bad.pointer
	}
	if out.covers(ptr) {
		return
	}
	f := Finding{Code: ruleSchema.Code, Severity: ruleSchema.Severity, Pointer: ptr,
		Message: fmt.Sprintf("The %s does not match %s of version %s: %s.", describe(member, m), def, s.version, bad.message),
		Spec:    "schema/" + s.version + "/schema.json#/" + s.defsKey + "/" + def, Fix: ruleSchema.Fix}
	out.append(f)
}

func describe(member string, m *msg) string {
	if member == "result" {
		return "result"
	}
	return m.method + " message"
}

// spec is the schema of the version in use, nil while none is known or
// when the version has no schema (noted once).
func (l *Linter) spec(out *findings) *spec {
	v := l.Version()
	if v == "" {
		return nil
	}
	s := specOf(v)
	if s == nil && !l.warned[v] {
		l.warned[v] = true
		out.add(ruleUnknownVersion, "", fmt.Sprintf("There is no schema of protocol version %q, so the MCP rules are not checked.", v))
	}
	return s
}

func (s *spec) modern() bool { return s.version >= "2026-07-28" }

// learnFromRequest takes the version a client's initialize offers, or a
// modern request declares in its _meta, and the capabilities it gives.
func (l *Linter) learnFromRequest(m *msg) {
	if m.sender != client {
		return
	}
	p := m.params()
	if m.method == "initialize" {
		l.offered = strings.Clone(stringOf(p["protocolVersion"]))
		l.caps[client] = objectOf(p["capabilities"])
		return
	}
	meta := objectOf(p["_meta"])
	if v, ok := meta[metaProtocolVersion].(string); ok && l.version == "" {
		l.version = strings.Clone(v)
	}
	if c, ok := meta[metaClientCapabilities].(map[string]any); ok {
		l.caps[client] = c
	}
}

// learnFromResult takes the negotiated version and the server's
// capabilities from an initialize or server/discover result.
func (l *Linter) learnFromResult(m *msg, method string) {
	if m.sender != server || method != "initialize" && method != "server/discover" {
		return
	}
	r := objectOf(m.m["result"])
	if v, ok := r["protocolVersion"].(string); ok && method == "initialize" {
		l.version = strings.Clone(v)
	}
	if c, ok := r["capabilities"].(map[string]any); ok {
		l.caps[server] = c
	}
	if method == "initialize" {
		l.life.answered = true
	}
}
