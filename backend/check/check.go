// Package check runs active checks on an MCP server over one recorded
// connection, modelled on the server scenarios of the official
// conformance suite (@modelcontextprotocol/conformance): the handshake,
// ping, the lists and their pagination, the errors a server owes for an
// unknown method, bad params, an unknown tool or resource, completion,
// logging, and over Streamable HTTP its DNS-rebinding protection, header
// validation, SSE polling and resumption, and session lifecycle; then the protocol linter's verdict on
// all the traffic. Each check gives a verdict (pass, fail, or skip with
// the reason) and its evidence: the exchanges it made, by the recorder's
// frame ids, and a one-line reason.
package check

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

// Verdict is how a check fared.
type Verdict string

const (
	Pass Verdict = "pass"
	Fail Verdict = "fail"
	// Skip is a check that does not apply: the server lacks the
	// capability, the transport or the protocol version it needs.
	Skip Verdict = "skip"
)

// Result is one check's verdict and its evidence.
type Result struct {
	// ID is the check's stable id, such as "tools-list".
	ID string `json:"id"`
	// Title says what the check checks, in a few words.
	Title string `json:"title"`
	// Conformance names the official suite's server scenario the check
	// corresponds to, "" when none does.
	Conformance string  `json:"conformance,omitempty"`
	Verdict     Verdict `json:"verdict"`
	// Reason is the evidence in one line: what the server answered, or
	// why the check was skipped.
	Reason string `json:"reason"`
	// Exchanges are the requests the check made and what answered them.
	Exchanges []Exchange `json:"exchanges,omitempty"`
	// Findings are the protocol linter's findings (the protocol-lint
	// check's evidence).
	Findings []Finding `json:"findings,omitempty"`
	// Duration is how long the check took.
	Duration   time.Duration `json:"-"`
	DurationMS float64       `json:"durationMs"`
}

// Exchange is one request of a check and its answer, as recorded.
type Exchange struct {
	// What names the request: its method, and how a probe differs from
	// an ordinary request ("ping with Host: evil.example.com").
	What string `json:"what"`
	// Request and Response are the recorded frames (Response nil when no
	// message answered).
	Request  *FrameEvidence `json:"request,omitempty"`
	Response *FrameEvidence `json:"response,omitempty"`
	// HTTPStatus is the status that answered an HTTP probe.
	HTTPStatus int `json:"httpStatus,omitempty"`

	rpcID  string // the request's JSON-RPC id as JSON text, to find its frames
	method string // or, for the handshake, the method of its first request
}

// FrameEvidence is one frame of an exchange: its id in the recording and
// the start of its body.
type FrameEvidence struct {
	FrameID int64  `json:"frameId,omitempty"`
	Body    string `json:"body"`
}

// Finding is a protocol-lint finding with the frame it belongs to.
type Finding = backend.FrameFinding

// Report is what Run found.
type Report struct {
	ProtocolVersion string   `json:"protocolVersion"`
	Era             string   `json:"era"`
	Results         []Result `json:"results"`
}

// Count returns how many results have verdict v.
func (r Report) Count(v Verdict) int {
	n := 0
	for _, res := range r.Results {
		if res.Verdict == v {
			n++
		}
	}
	return n
}

// Frames reads what the recorder made of the connection's frames.
type Frames interface {
	// Recorded returns the connection's frames recorded so far, oldest
	// first, once they are stored, with their findings.
	Recorded(ctx context.Context) ([]backend.Frame, error)
}

// Conn is the connection the checks talk over.
type Conn struct {
	// Client is connected (the handshake done) and recorded; the checks
	// do not close it. The session-lifecycle check starts and ends a
	// session of its own beside the client's.
	Client *mcpclient.Client
	// Frames reads the client's recorded frames, for the evidence and the
	// protocol-lint check; nil leaves the evidence without frame ids and
	// skips that check.
	Frames Frames
}

// Options tune Run; the zero value is the usual one.
type Options struct {
	// Timeout bounds each check; 0 means 10s.
	Timeout time.Duration
}

const defaultTimeout = 10 * time.Second

// Run runs every check over conn and returns their verdicts in a fixed
// order. It fails only when the recorded frames cannot be read; a check
// whose requests fail (a timeout, a lost connection) fails with the
// reason.
func Run(ctx context.Context, conn Conn, o Options) (Report, error) {
	if o.Timeout <= 0 {
		o.Timeout = defaultTimeout
	}
	r := newRunner(conn.Client, conn.Frames, o.Timeout)
	rep := Report{ProtocolVersion: conn.Client.ProtocolVersion(), Era: string(conn.Client.Era())}
	for _, c := range checks {
		start := time.Now()
		res := Result{ID: c.id, Title: c.title, Conformance: c.conformance}
		cctx, cancel := context.WithTimeout(ctx, o.Timeout)
		res.Verdict, res.Reason = c.run(cctx, r, &res)
		cancel()
		if ctx.Err() != nil && res.Verdict != Skip {
			res.Verdict, res.Reason = Fail, "stopped: "+context.Cause(ctx).Error()
		}
		res.Duration = time.Since(start)
		rep.Results = append(rep.Results, res)
	}
	var frames []backend.Frame
	if conn.Frames != nil {
		var err error
		if frames, err = conn.Frames.Recorded(context.WithoutCancel(ctx)); err != nil {
			return rep, fmt.Errorf("check: reading the recorded frames: %w", err)
		}
		attachFrames(rep.Results, frames)
	}
	start := time.Now()
	lint := Result{ID: "protocol-lint", Title: "the server's traffic breaks no protocol rule"}
	if conn.Frames == nil {
		lint.Verdict, lint.Reason = Skip, "the traffic was not recorded"
	} else {
		lint.Verdict, lint.Reason, lint.Findings = judgeLint(frames)
	}
	lint.Duration = time.Since(start)
	rep.Results = append(rep.Results, lint)
	for i := range rep.Results {
		rep.Results[i].DurationMS = float64(rep.Results[i].Duration.Microseconds()) / 1000
	}
	return rep, nil
}

// excerptLen is the most of a body that evidence keeps.
const excerptLen = 1024

// excerpt is b, cut to excerptLen bytes (marked with an ellipsis).
func excerpt(b []byte) string {
	if len(b) <= excerptLen {
		return string(b)
	}
	cut := excerptLen
	for cut > 0 && b[cut]&0xC0 == 0x80 {
		cut--
	}
	return string(b[:cut]) + "…"
}

// jsonText is v as compact JSON.
func jsonText(v any) []byte {
	if raw, ok := v.(json.RawMessage); ok {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(fmt.Sprintf("%v", v))
	}
	return b
}
