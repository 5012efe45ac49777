package lint

import "strings"

// answeredMemory bounds how many answered ids of each side a Linter
// remembers to tell a second answer from an answer to an id never asked;
// maxInFlight how many requests of each side it follows at once.
const (
	answeredMemory = 1024
	maxInFlight    = 4096
)

// What a Linter keeps of a frame beyond it is copied out of the body
// (strings.Clone): the decoded tree shares the body's memory, and a kept
// id or method must not keep a large body alive.

// request is a request in flight.
type request struct {
	method    string
	target    string // its params.name or params.uri, "" when none
	token     string // its progress token, "" when none
	cancelled bool
}

// inFlight is what one side asked: its requests in flight by id, and
// the ids it got answers for lately, oldest first. Past maxInFlight
// requests never answered it stops following new ones (overflowed), and
// an answer it cannot place is then no finding.
type inFlight struct {
	open       map[string]*request
	tokens     map[string]string // progress token → id of the request that gave it
	answered   map[string]bool
	order      []string
	overflowed bool
}

func newInFlight() *inFlight {
	return &inFlight{open: map[string]*request{}, tokens: map[string]string{}, answered: map[string]bool{}}
}

// ask notes the request m; it reports false when its id is already in flight.
func (f *inFlight) ask(m *msg, token string) bool {
	if _, clash := f.open[m.key]; clash {
		return false
	}
	if len(f.open) >= maxInFlight {
		f.overflowed = true
		return true
	}
	id := strings.Clone(m.key)
	f.open[id] = &request{method: strings.Clone(m.method), target: strings.Clone(targetOf(m)), token: strings.Clone(token)}
	if token != "" {
		f.tokens[f.open[id].token] = id
	}
	return true
}

// answer takes the request that id answers out of flight; ok is false
// when none is in flight, and then again says whether id was answered
// lately.
func (f *inFlight) answer(key string) (r *request, ok, again bool) {
	r, ok = f.open[key]
	if !ok {
		return nil, false, f.answered[key]
	}
	delete(f.open, key)
	if r.token != "" {
		delete(f.tokens, r.token)
	}
	key = strings.Clone(key)
	f.answered[key] = true
	f.order = append(f.order, key)
	if len(f.order) > answeredMemory {
		delete(f.answered, f.order[0])
		f.order = f.order[1:]
	}
	return r, true, false
}

// answer judges a response m: whether its id was asked and not answered
// yet, whether its request was cancelled, and its result against the
// schema of the request's method.
func (l *Linter) answer(m *msg, isResult bool, out *findings) {
	asker := m.sender.other()
	r, ok, again := l.flight[asker].answer(m.key)
	switch {
	case again:
		out.add(ruleDuplicateResponse, m.ptr("id"), "The request with id "+m.key+" was already answered.")
		return
	case !ok:
		if !l.opts.Excerpt && !l.flight[asker].overflowed {
			out.add(ruleUnknownResponse, m.ptr("id"), "No request of the "+asker.String()+" in flight has the id "+m.key+".")
		}
		return
	}
	m.answers, m.target = r.method, r.target
	if r.cancelled {
		out.add(ruleAfterCancel, m.ptr("id"), "The request with id "+m.key+" was cancelled before this answer.")
	}
	if isResult {
		l.result(m, r.method, out)
	}
}

// cancel marks the request that a notifications/cancelled from sender
// names as cancelled.
func (l *Linter) cancel(m *msg) {
	id, ok := m.params()["requestId"]
	if !ok {
		return
	}
	if r, ok := l.flight[m.sender].open[textOf(id)]; ok {
		r.cancelled = true
	}
}

// progress checks that a notifications/progress names the token of a
// request in flight that its sender received.
func (l *Linter) progress(m *msg, out *findings) {
	token, ok := m.params()["progressToken"]
	if l.opts.Excerpt || !ok {
		return
	}
	if _, ok := l.flight[m.sender.other()].tokens[textOf(token)]; !ok {
		out.add(ruleProgressToken, m.ptr("params", "progressToken"), "No request of the "+m.sender.other().String()+" in flight gave the progress token "+textOf(token)+".")
	}
}

// progressToken is the progress token a request's params._meta give.
func progressToken(m *msg) string {
	return textOf(objectOf(m.params()["_meta"])["progressToken"])
}

// targetOf is what a request names: its params.name (a tool, a prompt)
// or params.uri (a resource), "" when neither is a string.
func targetOf(m *msg) string {
	p := m.params()
	if name, ok := p["name"].(string); ok {
		return name
	}
	uri, _ := p["uri"].(string)
	return uri
}
