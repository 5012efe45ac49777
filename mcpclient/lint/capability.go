package lint

import (
	"encoding/json"
	"fmt"
	"strings"
)

// needs maps a request method to the capability of the receiving side
// that it needs, as a path into that side's capabilities object.
var needs = map[string]string{
	"tools/list": "tools", "tools/call": "tools",
	"resources/list": "resources", "resources/read": "resources", "resources/templates/list": "resources",
	"resources/subscribe": "resources.subscribe", "resources/unsubscribe": "resources.subscribe",
	"prompts/list": "prompts", "prompts/get": "prompts",
	"logging/setLevel":       "logging",
	"completion/complete":    "completions",
	"sampling/createMessage": "sampling", "roots/list": "roots", "elicitation/create": "elicitation",
}

// capability checks that the receiver of request m advertised the
// capability its method needs, when the receiver's capabilities are known
// and the version defines that capability.
func (l *Linter) capability(s *spec, m *msg, out *findings) {
	path, ok := needs[m.method]
	receiver := m.sender.other()
	caps := l.caps[receiver]
	if !ok || caps == nil || !s.definesCapability(receiver, path) {
		return
	}
	var cur any = caps
	for _, key := range strings.Split(path, ".") {
		obj, _ := cur.(map[string]any)
		cur = obj[key]
	}
	if cur == nil || cur == false {
		out.add(ruleCapability, m.ptr("method"), fmt.Sprintf("The %s sent %s, but the %s did not advertise the %s capability.", m.sender, m.method, receiver, path))
	}
}

// definesCapability reports whether the version's capabilities of side
// have the first key of path (completions, for one, came in 2025-03-26).
func (s *spec) definesCapability(side side, path string) bool {
	return s.capabilities[side][strings.SplitN(path, ".", 2)[0]]
}

// capabilityNames are the properties of definition name.
func (s *spec) capabilityNames(name string) map[string]bool {
	var d struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(s.defs[name], &d)
	out := map[string]bool{}
	for k := range d.Properties {
		out[k] = true
	}
	return out
}
