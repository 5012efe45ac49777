package lint

import (
	"fmt"
	"slices"
	"strings"
)

// metaLogLevel is the modern era's per-request log level in _meta.
const metaLogLevel = "io.modelcontextprotocol/logLevel"

// maxInputRounds bounds the rounds a Linter waits on; past it, it starts
// over (a client that never answers them costs nothing more).
const maxInputRounds = 1024

// inputRound is an input_required result the client has still to answer
// by sending its request again: the requestState to echo and the keys
// of the input requests to fulfil.
type inputRound struct {
	state string
	keys  []string
}

// roundKey names the request an input round belongs to.
func roundKey(method, target string) string { return method + "\x00" + target }

// resultType checks a modern result's resultType and, for input_required,
// that it asks for something, and notes the round the client must answer.
func (l *Linter) resultType(m *msg, method string, out *findings) {
	r := objectOf(m.m["result"])
	t, ok := r["resultType"]
	if !ok {
		out.add(ruleResultType, m.ptr("result"), fmt.Sprintf("The result of %s has no resultType; a server of this version always says \"complete\" or \"input_required\".", method))
		return
	}
	if t != "input_required" {
		return
	}
	state, hasState := r["requestState"].(string)
	requests := objectOf(r["inputRequests"])
	if !hasState && len(requests) == 0 {
		out.add(ruleInputRound, m.ptr("result"), "The input_required result has neither inputRequests nor requestState, so the client cannot go on.")
		return
	}
	keys := make([]string, 0, len(requests))
	for k, req := range requests {
		keys = append(keys, strings.Clone(k))
		if name, ok := objectOf(req)["method"].(string); ok {
			l.deprecatedUse(name, m.ptr("result", "inputRequests", k, "method"), out)
		}
	}
	slices.Sort(keys)
	if len(l.inputRounds) >= maxInputRounds {
		clear(l.inputRounds)
	}
	l.inputRounds[roundKey(method, m.target)] = inputRound{state: strings.Clone(state), keys: keys}
}

// inputAnswer checks a client request that answers an input round of the
// same method and target: it echoes the requestState exactly and answers
// every input request.
func (l *Linter) inputAnswer(m *msg, out *findings) {
	key := roundKey(m.method, targetOf(m))
	round, ok := l.inputRounds[key]
	if !ok {
		return
	}
	delete(l.inputRounds, key)
	p := m.params()
	if got, _ := p["requestState"].(string); round.state != "" && got != round.state {
		if _, present := p["requestState"]; !present {
			out.add(ruleInputRound, m.ptr("params"), fmt.Sprintf("The %s sent again after input_required does not echo the requestState the server gave.", m.method))
		} else {
			out.add(ruleInputRound, m.ptr("params", "requestState"), fmt.Sprintf("The %s sent again after input_required echoes another requestState than the server gave.", m.method))
		}
	}
	responses := objectOf(p["inputResponses"])
	var missing []string
	for _, k := range round.keys {
		if _, ok := responses[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		out.add(ruleInputRound, m.ptr("params", "inputResponses"), fmt.Sprintf("The %s sent again after input_required answers no input request %s.", m.method, strings.Join(missing, ", ")))
	}
}

// deprecatedFeatures are the features the modern era deprecates
// (SEP-2577), by the methods that use them.
var deprecatedFeatures = map[string]string{
	"roots/list": "Roots", "notifications/roots/list_changed": "Roots",
	"sampling/createMessage": "Sampling",
	"logging/setLevel":       "Logging", "notifications/message": "Logging",
}

// deprecatedUse notes, once a session, the first use of each deprecated
// feature: method, at pointer.
func (l *Linter) deprecatedUse(method, pointer string, out *findings) {
	feature, ok := deprecatedFeatures[method]
	if !ok || l.deprecated[feature] {
		return
	}
	l.deprecated[feature] = true
	out.add(ruleDeprecated, pointer, fmt.Sprintf("%s (%s here) is deprecated from version 2026-07-28; it still works, but new code should not rely on it (noted once a session).", feature, method))
}

// deprecatedIn notes the deprecated features a modern message m uses: its
// method, and a log level asked for in a request's _meta.
func (l *Linter) deprecatedIn(s *spec, m *msg, out *findings) {
	if !s.modern() {
		return
	}
	l.deprecatedUse(m.method, m.ptr("method"), out)
	if _, ok := objectOf(m.params()["_meta"])[metaLogLevel]; ok {
		l.deprecatedUse("logging/setLevel", m.ptr("params", "_meta", metaLogLevel), out)
	}
}
