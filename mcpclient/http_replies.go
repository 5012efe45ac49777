package mcpclient

// The replies of a Streamable HTTP server to a POST: one JSON message or
// an SSE stream, resumed with Last-Event-ID when it breaks.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"
)

// readBody hands the messages of a 2xx response body to the Client: one
// JSON message, or a stream of SSE events.
func (t *httpTransport) readBody(resp *http.Response, info *HTTPInfo) error {
	return t.readReply(resp, info, &streamState{start: time.Now(), retry: -1}, nil)
}

// readReply is readBody that follows SSE state in st and calls after (if
// non-nil) after each event.
func (t *httpTransport) readReply(resp *http.Response, info *HTTPInfo, st *streamState, after func()) error {
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mediaType {
	case "text/event-stream":
		return t.readEvents(resp.Body, info, st, after)
	case "application/json":
		limit := t.peer.maxFrameSize()
		body, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
		if err != nil {
			return fmt.Errorf("read response body: %w", err)
		}
		if len(body) > limit {
			tooLarge := &frameTooLargeError{Limit: limit, Head: body[:min(limit, recordLimit)]}
			t.peer.tap(Inbound, KindParseError, tooLarge.Head, info)
			return tooLarge
		}
		t.peer.receive(body, info)
		return nil
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, recordLimit))
	if len(body) > 0 {
		t.peer.tap(Inbound, KindParseError, body, info)
	}
	return &ContentTypeError{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: BodySummary(resp.Header.Get("Content-Type"), body)}
}

// readEvents hands the data of each SSE event to the Client and records
// events without data as transport frames.
func (t *httpTransport) readEvents(r io.Reader, info *HTTPInfo, st *streamState, after func()) error {
	err := parseSSE(r, t.peer.maxFrameSize(), func(ev sseEvent) {
		st.events++
		if ev.id != "" {
			st.lastID = ev.id
		}
		if ev.retry >= 0 {
			st.retry = ev.retry
		}
		evInfo := *info
		evInfo.EventID, evInfo.EventType, evInfo.Retry = ev.id, ev.event, max(ev.retry, 0)
		evInfo.Elapsed = time.Since(st.start)
		if len(ev.data) == 0 {
			t.peer.tap(Inbound, KindTransport, []byte(describeEmptyEvent(ev)), &evInfo)
		} else {
			t.peer.receive(ev.data, &evInfo)
		}
		if after != nil {
			after()
		}
	})
	var tooLarge *frameTooLargeError
	if errors.As(err, &tooLarge) {
		t.peer.tap(Inbound, KindParseError, tooLarge.Head, info)
		return err
	}
	if err != nil {
		return fmt.Errorf("read event stream: %w", err)
	}
	return nil
}

func describeEmptyEvent(ev sseEvent) string {
	var parts []string
	if ev.id != "" {
		parts = append(parts, fmt.Sprintf("id %q", ev.id))
	}
	if ev.event != "" {
		parts = append(parts, fmt.Sprintf("event %q", ev.event))
	}
	if ev.retry >= 0 {
		parts = append(parts, fmt.Sprintf("retry %v", ev.retry))
	}
	return "SSE event without data (" + strings.Join(parts, ", ") + ")"
}

// resume follows the SSE stream of request m after its connection ended
// (with readErr, or cleanly) before the response: it waits the server's
// retry interval and GETs the stream again with Last-Event-ID, as long as
// the response is awaited and the server keeps the stream going. It returns
// an error when the stream cannot be resumed.
func (t *httpTransport) resume(ctx context.Context, m outbound, st *streamState, readErr error) error {
	failures := 0
	for t.peer.isPending(m.id) {
		why := "ended"
		if readErr != nil {
			why = "broke (" + readErr.Error() + ")"
		}
		wait := st.wait(failures)
		t.peer.note(&HTTPInfo{Method: http.MethodGet, URL: t.url, Retry: max(st.retry, 0)},
			"the response stream of %s %s before the response; resuming with Last-Event-ID %q in %v",
			describeOutbound(m), why, st.lastID, wait)
		if !sleepCtx(ctx, wait) {
			return ctx.Err()
		}
		gctx, cancel := context.WithCancel(ctx)
		before := st.events
		status, err := t.openStream(gctx, st, func() {
			if !t.peer.isPending(m.id) {
				cancel() // answered: stop reading the resumed stream
			}
		})
		cancel()
		switch {
		case !t.peer.isPending(m.id):
			return nil
		case ctx.Err() != nil:
			return ctx.Err()
		case status == http.StatusMethodNotAllowed:
			return errors.New("the server's HTTP reply ended without the response, and the server does not let it be resumed (GET: HTTP 405)")
		case status >= 400:
			return fmt.Errorf("resuming the response stream: %w", err)
		}
		readErr = err
		if st.events > before {
			failures = 0
		} else if failures++; failures >= maxStreamFailures {
			return fmt.Errorf("the response stream ended without the response, and %d attempts to resume it brought nothing", failures)
		}
	}
	return nil
}
