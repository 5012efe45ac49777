package check

// SSE polling and resumption (2025-11-25, SEP-1699): a server may close
// the SSE stream of a POST before the response, having sent an event id
// (a priming event first, with no data) and a retry interval, and the
// client then GETs the stream again with Last-Event-ID to have the rest.

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

// reconnectionTool is the tool the conformance suite's test servers
// offer for this check: it closes the stream of its call before it
// answers. Against a server without it, the check sends ping.
const reconnectionTool = "test_reconnection"

// resumeNote is what the client's note on resuming a reply stream says.
const resumeNote = "resuming with Last-Event-ID"

// checkSSEPolling sends a request on the session and judges how its
// reply stream went, from the recorded frames: the response must arrive,
// on the stream or, when the server closed it early, after the client
// resumed it with Last-Event-ID. A priming event first and a retry field
// are what the specification recommends; their absence is noted, not
// failed. A reply that is not a stream has nothing to poll: skipped.
func checkSSEPolling(ctx context.Context, r *runner, res *Result) (Verdict, string) {
	if _, _, skip := r.endpoint(); skip != "" {
		return Skip, skip
	}
	if r.modern {
		return Skip, "2026-07-28 deprecates closing a reply stream for the client to poll"
	}
	if r.frames == nil {
		return Skip, "the traffic is not recorded, and the stream's events are read from the recording"
	}
	before, err := r.frames.Recorded(ctx)
	if err != nil {
		return Fail, "reading the recording: " + err.Error()
	}
	method, params, what := "ping", any(nil), "ping"
	if r.hasTool(reconnectionTool) {
		method, what = "tools/call", "tools/call "+reconnectionTool
		params = map[string]any{"name": reconnectionTool, "arguments": map[string]any{}}
	}
	a := r.call(ctx, res, method, params)
	res.Exchanges[len(res.Exchanges)-1].What = what
	switch {
	case a.err != nil:
		return Fail, what + ": " + a.failed()
	case a.rpcErr != nil:
		return Fail, fmt.Sprintf("%s was answered with error %s", what, errorText(a.rpcErr))
	case method == "tools/call" && isToolError(a.result):
		return Fail, what + " was answered with a tool error (isError: true)"
	}
	after, err := r.frames.Recorded(ctx)
	if err != nil {
		return Fail, "reading the recording: " + err.Error()
	}
	s := replyStreamOf(after[min(len(before), len(after)):])
	if s.events == 0 {
		return Skip, what + " was answered with one JSON body, not an SSE stream: there is nothing to poll"
	}
	var notes []string
	switch {
	case !s.primed:
		notes = append(notes, "no priming event (an event id with no data) came first, as SEP-1699 recommends")
	default:
		notes = append(notes, fmt.Sprintf("priming event id %q first", s.primingID))
	}
	if s.retry != "" {
		notes = append(notes, "retry "+s.retry)
	} else {
		notes = append(notes, "no retry field")
	}
	if s.resumed > 0 {
		notes = append(notes, fmt.Sprintf("the server closed the stream before the response, and it came after the client resumed with Last-Event-ID (%s)", count(s.resumed, "time")))
	} else {
		notes = append(notes, "the response came on the stream, which the server did not close early")
	}
	return Pass, fmt.Sprintf("%s: %s; %s", what, count(s.events, "event"), strings.Join(notes, "; "))
}

// replyStream is what the recorded frames of one request's reply show:
// the events of its POST stream, whether the first was a priming event,
// the retry interval the server asked for, and how many times the
// client resumed the stream.
type replyStream struct {
	events    int
	primed    bool
	primingID string
	retry     string
	resumed   int
}

// replyStreamOf reads the reply stream of the one request in flight from
// the frames recorded while it was: the inbound frames that came in the
// SSE events of its POST and, once the client resumed the stream (its
// note on resuming), of the GET that resumed it.
func replyStreamOf(frames []backend.Frame) replyStream {
	var s replyStream
	for _, f := range frames {
		if f.Kind == mcpclient.KindTransport && strings.Contains(string(f.Body), resumeNote) {
			s.resumed++
			continue
		}
		h := f.HTTP
		if f.Direction != mcpclient.Inbound || h == nil || !isEventStream(h) || !(h.Method == http.MethodPost || s.resumed > 0 && h.Method == http.MethodGet) {
			continue
		}
		s.events++
		if s.events == 1 && h.EventID != "" && f.Kind == mcpclient.KindTransport {
			s.primed, s.primingID = true, h.EventID
		}
		if h.Retry > 0 {
			s.retry = h.Retry.String()
		}
	}
	return s
}

// isEventStream reports whether h answered with an SSE stream.
func isEventStream(h *mcpclient.HTTPInfo) bool {
	return strings.HasPrefix(h.Header.Get("Content-Type"), "text/event-stream")
}

// hasTool reports whether the tools list found a tool named name.
func (r *runner) hasTool(name string) bool {
	for _, t := range r.tools {
		if t.Name == name {
			return true
		}
	}
	return false
}
