package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// runner is one Run's state: the client, what the server declared, and
// what the lists found, which later checks use.
type runner struct {
	c       *mcpclient.Client
	frames  Frames // the recording, nil when there is none
	timeout time.Duration
	caps    map[string]json.RawMessage // the server's capabilities, by name
	modern  bool
	probes  int // probe ids handed out

	tools     []listedTool
	prompts   []listedPrompt
	templates []string // URI templates
}

func newRunner(c *mcpclient.Client, frames Frames, timeout time.Duration) *runner {
	r := &runner{c: c, frames: frames, timeout: timeout, modern: c.Era() == mcpclient.EraModern}
	raw := c.InitializeResult().Capabilities
	if d := c.Discovery(); r.modern && d != nil {
		raw = d.Capabilities
	}
	_ = json.Unmarshal(raw, &r.caps)
	return r
}

// has reports whether the server declared the capability name.
func (r *runner) has(name string) bool {
	v, ok := r.caps[name]
	return ok && string(v) != "null" && string(v) != "false"
}

// answer is what a request got: a result, a JSON-RPC error, or neither
// (err: a timeout, a lost connection).
type answer struct {
	result json.RawMessage
	rpcErr *mcpclient.RPCError
	err    error
}

// failed describes an answer that is neither result nor JSON-RPC error.
func (a answer) failed() string { return "no answer: " + a.err.Error() }

// call sends method with params through the client, as any request of
// the session, and adds the exchange to res.
func (r *runner) call(ctx context.Context, res *Result, method string, params any) answer {
	var id atomic.Int64
	raw, err := r.c.Call(ctx, method, params, mcpclient.WithRequestID(func(i int64) { id.Store(i) }))
	ex := Exchange{What: method, Request: &FrameEvidence{Body: excerpt(jsonText(params))}}
	if n := id.Load(); n != 0 {
		ex.rpcID = strconv.FormatInt(n, 10)
	}
	var a answer
	var rpcErr *mcpclient.RPCError
	switch {
	case errors.As(err, &rpcErr):
		a.rpcErr = rpcErr
		ex.Response = &FrameEvidence{Body: excerpt(jsonText(rpcErr))}
	case err != nil:
		a.err = err
	default:
		a.result = raw
		ex.Response = &FrameEvidence{Body: excerpt(raw)}
	}
	res.Exchanges = append(res.Exchanges, ex)
	return a
}

// probeID hands out the JSON-RPC id of a probe's body: a string, so that
// it cannot clash with the client's own integer ids.
func (r *runner) probeID() string {
	r.probes++
	return fmt.Sprintf("playground-check-%d", r.probes)
}

// probeBody is a request for method with params, as the session's own
// requests are built (with the modern era's _meta), under a probe id.
func (r *runner) probeBody(method string, params map[string]any) (body []byte, id string) {
	id = r.probeID()
	if params == nil {
		params = map[string]any{}
	}
	if r.modern {
		params["_meta"] = map[string]any{
			"io.modelcontextprotocol/protocolVersion":    r.c.ProtocolVersion(),
			"io.modelcontextprotocol/clientCapabilities": json.RawMessage(r.c.ClientCapabilities()),
		}
	}
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if len(params) > 0 {
		msg["params"] = params
	}
	b, _ := json.Marshal(msg)
	return b, id
}

// probe sends p to the server's Streamable HTTP endpoint and adds the
// exchange, named what, to res; rpcID is the id in p's body ("" for
// none).
func (r *runner) probe(ctx context.Context, res *Result, what, rpcID string, p mcpclient.HTTPProbe) (mcpclient.HTTPProbeResult, error) {
	pr, err := r.c.ProbeHTTP(ctx, p)
	ex := Exchange{What: what, HTTPStatus: pr.Status}
	if rpcID != "" {
		ex.rpcID = strconv.Quote(rpcID)
	}
	if len(p.Body) > 0 {
		ex.Request = &FrameEvidence{Body: excerpt(p.Body)}
	}
	if len(pr.Body) > 0 {
		ex.Response = &FrameEvidence{Body: excerpt(pr.Body)}
	}
	res.Exchanges = append(res.Exchanges, ex)
	return pr, err
}

// errorText is an RPC error as a reason says it: "-32601 Method not found".
func errorText(e *mcpclient.RPCError) string {
	return fmt.Sprintf("%d %s", e.Code, oneLine(e.Message, 120))
}

// oneLine is s on one line, cut to n runes.
func oneLine(s string, n int) string {
	out := []rune{}
	space := false
	for _, c := range s {
		if c == '\n' || c == '\r' || c == '\t' || c == ' ' {
			space = true
			continue
		}
		if space && len(out) > 0 {
			out = append(out, ' ')
		}
		space = false
		out = append(out, c)
		if len(out) >= n {
			return string(out) + "…"
		}
	}
	return string(out)
}
