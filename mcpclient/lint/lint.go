// Package lint judges recorded MCP traffic, frame by frame, against
// JSON-RPC 2.0 and the message schema of the negotiated MCP version (the
// specification's schema/<version>/schema.json, embedded in schema/).
//
// A Linter follows one session: it is fed the session's frames in the
// order they were recorded and returns what is wrong with each one as
// Findings. It learns the protocol version, the two sides' capabilities
// and the requests in flight from the traffic itself, so the same Linter
// serves a live session and a stored or exported one. A Linter is not safe
// for concurrent use; Linters of different sessions may run in parallel.
package lint

import (
	"net/http"
	"strings"

	"github.com/mcp-playground/playground/mcpclient"
)

// Severity is how much a finding matters.
type Severity string

const (
	// SevError breaks a MUST of JSON-RPC 2.0 or of the MCP version in use.
	SevError Severity = "error"
	// SevWarning breaks a SHOULD, or is very likely a mistake.
	SevWarning Severity = "warning"
	// SevInfo is worth knowing and breaks nothing.
	SevInfo Severity = "info"
)

// Finding is one thing wrong with a frame.
type Finding struct {
	// Code names the rule broken; codes are stable (see Rules).
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	// Pointer is an RFC 6901 JSON pointer into the frame's body at what
	// is wrong ("" for the whole body).
	Pointer string `json:"pointer"`
	// Message says in one sentence what is wrong.
	Message string `json:"message"`
	// Spec names the section of the specification that sets the rule.
	Spec string `json:"spec,omitempty"`
	// Fix is the likely cause and how to fix it.
	Fix string `json:"fix,omitempty"`
}

// Frame is what a Linter needs to know of one recorded frame.
type Frame struct {
	Direction mcpclient.Direction
	Kind      mcpclient.FrameKind
	// Body is the frame's bytes as they travelled. A Linter keeps
	// strings that share its memory: it must not change after Lint.
	Body []byte
	// HTTP is true when the frame travelled over HTTP (Streamable HTTP
	// or HTTP+SSE), false over stdio.
	HTTP bool
	// HTTPStatus is the status of the HTTP response an inbound frame
	// came in (0 when unknown), ContentType that response's Content-Type.
	HTTPStatus  int
	ContentType string
	// Header is the HTTP exchange's headers the frame's sender wrote: the
	// request's for an outbound frame, the response's for an inbound one
	// (nil over stdio).
	Header http.Header
	// EventType is the type of the SSE event an inbound frame came in,
	// "" when the event named none (or the frame came otherwise).
	EventType string
}

// FrameOf is the lint view of a frame as mcpclient taps it.
func FrameOf(f mcpclient.Frame) Frame {
	lf := Frame{Direction: f.Direction, Kind: f.Kind, Body: f.Body}
	if f.HTTP != nil {
		lf.HTTP, lf.HTTPStatus, lf.Header, lf.EventType = true, f.HTTP.Status, f.HTTP.Header, f.HTTP.EventType
		if f.Direction == mcpclient.Inbound {
			lf.ContentType = f.HTTP.Header.Get("Content-Type")
		}
	}
	return lf
}

// Options set up a Linter.
type Options struct {
	// Version is the session's protocol version when it is known before
	// its first frame; "" lets the Linter learn it from the initialize
	// exchange or from a modern request's _meta.
	Version string
	// Excerpt says the frames are a selection of a session (a filtered
	// or history export), not all of it from its start: the rules that
	// need every frame (lifecycle order, responses to ids never asked,
	// progress for tokens never sent) are off.
	Excerpt bool
}

// Linter judges the frames of one session; see the package comment.
type Linter struct {
	opts    Options
	version string
	// offered is the version the client's initialize asked for, used
	// until the server's answer gives the negotiated one.
	offered string
	// flight holds the requests in flight and the recently answered ids
	// of each side.
	flight [2]*inFlight
	life   lifecycle
	caps   [2]map[string]any
	warned map[string]bool
	// httpSession is the Mcp-Session-Id the server's initialize response
	// gave, "" while none did.
	httpSession string
	// deprecated holds the deprecated features noted so far (once each).
	deprecated map[string]bool
	// inputRounds holds, by method and target, the requestState of each
	// input_required result the client has still to answer.
	inputRounds map[string]inputRound
	// lines holds the stdio lines that were not JSON since the last
	// message, in case they are one message split.
	lines splitLines
	// tools holds the output schemas the server's tools declared.
	tools toolSchemas
	// method is Method's answer: of the frame judged last.
	method string
}

// New returns a Linter for a session that starts with its next frame.
func New(o Options) *Linter {
	return &Linter{opts: o, version: o.Version, flight: [2]*inFlight{newInFlight(), newInFlight()}, warned: map[string]bool{},
		deprecated: map[string]bool{}, inputRounds: map[string]inputRound{}}
}

// Version is the protocol version the Linter judges by: the one given,
// negotiated or declared so far, "" while none is known.
func (l *Linter) Version() string {
	if l.version != "" {
		return l.version
	}
	return l.offered
}

// Lint judges f, the session's next frame, and returns its findings (nil
// when it has none; at most MaxFindings). Frames of kind log and
// transport carry no JSON-RPC and get none.
func (l *Linter) Lint(f Frame) []Finding {
	var out findings
	l.method = ""
	switch f.Kind {
	case mcpclient.KindParseError:
		out.notJSON(f)
		l.splitLines(f, &out)
	case mcpclient.KindMessage:
		if f.Direction == mcpclient.Stderr {
			return nil
		}
		l.lines.reset()
		l.message(f, &out)
	}
	return out.list
}

// Method is the JSON-RPC method of the frame Lint judged last: its own,
// or for a response the method of the request it answers; "" for a batch
// or a frame without one. It shares the frame's body (Frame.Body).
func (l *Linter) Method() string { return l.method }

// side is who sent a message: the client or the server.
type side int

const (
	client side = iota
	server
)

func (s side) other() side { return 1 - s }

func (s side) String() string {
	if s == client {
		return "client"
	}
	return "server"
}

// senderOf is the side that sent a frame travelling in direction d.
func senderOf(d mcpclient.Direction) side {
	if d == mcpclient.Inbound {
		return server
	}
	return client
}

// findings collects the findings of one frame.
type findings struct{ list []Finding }

// MaxFindings bounds the findings of one frame (a batch of thousands of
// broken messages): past it, the first ones found are kept.
const MaxFindings = 100

func (fs *findings) add(r Rule, pointer, message string) {
	fs.append(Finding{Code: r.Code, Severity: r.Severity, Pointer: pointer, Message: message, Spec: r.Spec, Fix: r.Fix})
}

// append adds f unless the frame has MaxFindings already.
func (fs *findings) append(f Finding) {
	if len(fs.list) < MaxFindings {
		fs.list = append(fs.list, f)
	}
}

// covers reports whether a finding already points at or inside pointer,
// or at a member pointer lies in.
func (fs *findings) covers(pointer string) bool {
	for _, f := range fs.list {
		if within(pointer, f.Pointer) || within(f.Pointer, pointer) {
			return true
		}
	}
	return false
}

// within reports whether the JSON pointer p is q or lies inside it.
func within(p, q string) bool {
	return p == q || strings.HasPrefix(p, q+"/")
}

// pointerOf is the RFC 6901 pointer made of tokens.
func pointerOf(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}
