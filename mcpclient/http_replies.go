package mcpclient

// The replies of a Streamable HTTP server: a POST's answer (one JSON
// message or an SSE stream, resumed with Last-Event-ID when it breaks), an
// error status turned into the request's error, and the GET stream on
// which the server sends what answers no request.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// streamState follows one SSE stream across reconnections.
type streamState struct {
	start  time.Time     // when the HTTP request that opened it was sent
	lastID string        // the last event id seen; "" if none
	retry  time.Duration // the last retry field seen; -1 if none
	events int           // events seen, with data or without
	opened func()        // if non-nil, called when a GET is answered or fails
}

// wait returns how long to wait before reconnecting after failures
// consecutive failed attempts: the server's retry interval (or a second),
// doubled for each failure, at most 30s.
func (st *streamState) wait(failures int) time.Duration {
	d := st.retry
	if d < 0 {
		d = defaultRetry
	}
	for range failures {
		d = min(max(2*d, defaultRetry), maxRetryDelay)
	}
	return d
}

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
		limit := t.c.opts.MaxFrameSize
		body, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
		if err != nil {
			return fmt.Errorf("read response body: %w", err)
		}
		if len(body) > limit {
			tooLarge := &frameTooLargeError{Limit: limit, Head: body[:min(limit, recordLimit)]}
			t.c.tap(Inbound, KindParseError, tooLarge.Head, info)
			return tooLarge
		}
		t.c.receive(body, info)
		return nil
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, recordLimit))
	if len(body) > 0 {
		t.c.tap(Inbound, KindParseError, body, info)
	}
	return fmt.Errorf("unexpected response Content-Type %q", resp.Header.Get("Content-Type"))
}

// readEvents hands the data of each SSE event to the Client and records
// events without data as transport frames.
func (t *httpTransport) readEvents(r io.Reader, info *HTTPInfo, st *streamState, after func()) error {
	err := parseSSE(r, t.c.opts.MaxFrameSize, func(ev sseEvent) {
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
			t.c.tap(Inbound, KindTransport, []byte(describeEmptyEvent(ev)), &evInfo)
		} else {
			t.c.receive(ev.data, &evInfo)
		}
		if after != nil {
			after()
		}
	})
	var tooLarge *frameTooLargeError
	if errors.As(err, &tooLarge) {
		t.c.tap(Inbound, KindParseError, tooLarge.Head, info)
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

// statusError records an HTTP error status and its body. A body that is a
// JSON-RPC response is recorded and dispatched as a message, and when it
// answers request id, statusError returns nil: the request has its (error)
// response. Otherwise it returns an *HTTPStatusError.
func statusError(c *Client, req *http.Request, resp *http.Response, info *HTTPInfo, id int64) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, recordLimit))
	sid := req.Header.Get("Mcp-Session-Id")
	excerpt := strings.TrimSpace(string(body))
	serr := &HTTPStatusError{
		Status:  resp.StatusCode,
		Text:    resp.Status,
		Session: sid,
		SessionGone: sid != "" && (resp.StatusCode == http.StatusNotFound ||
			resp.StatusCode == http.StatusBadRequest && strings.Contains(strings.ToLower(excerpt), "session")),
	}
	if len(excerpt) > excerptLen {
		excerpt = excerpt[:excerptLen] + "…"
	}
	serr.Body = excerpt
	if m, err := decodeMessage(body); err == nil && m.isResponse() && !serr.SessionGone {
		c.tap(Inbound, KindTransport, []byte("HTTP "+resp.Status), info)
		c.receive(body, info)
		var got int64
		if id != 0 && json.Unmarshal(m.ID, &got) == nil && got == id {
			return nil
		}
		return serr
	}
	text := "HTTP " + resp.Status
	if len(body) > 0 {
		text += ": " + string(body)
	}
	c.tap(Inbound, KindTransport, []byte(text), info)
	return serr
}

// describeHTTPError rewrites a client error for a human: "connect <url>:
// connection refused" when the server cannot be reached. The URL is named
// by urlText, without its credentials.
func describeHTTPError(req *http.Request, err error) error {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		inner := opErr.Err
		var sysErr *os.SyscallError
		if errors.As(inner, &sysErr) {
			inner = sysErr.Err
		}
		return fmt.Errorf("connect %s: %w", urlText(req.URL), inner)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	return fmt.Errorf("%s %s: %w", req.Method, urlText(req.URL), err)
}

// openStream GETs the endpoint as an event stream, resuming after
// st.lastID when set, and reads it into the Client until it ends, after
// returns, or ctx is done. It returns the HTTP status (0 when no response
// came) and why reading stopped.
func (t *httpTransport) openStream(ctx context.Context, st *streamState, after func()) (int, error) {
	req, err := t.newRequest(ctx, http.MethodGet, nil)
	if err != nil {
		return 0, err
	}
	if st.lastID != "" {
		req.Header.Set("Last-Event-ID", st.lastID)
	}
	t.c.tap(Outbound, KindTransport, []byte("GET event stream"+lastEventNote(st.lastID)), requestInfo(req))
	st.start = time.Now()
	resp, err := t.client.Do(req)
	if st.opened != nil {
		st.opened()
	}
	if err != nil {
		return 0, describeHTTPError(req, err)
	}
	defer resp.Body.Close()
	info := responseInfo(req, resp)
	info.Elapsed = time.Since(st.start)
	if resp.StatusCode/100 != 2 {
		if resp.StatusCode == http.StatusMethodNotAllowed {
			t.c.tap(Inbound, KindTransport, []byte("HTTP "+resp.Status), info)
			return resp.StatusCode, nil
		}
		return resp.StatusCode, statusError(t.c, req, resp, info, 0)
	}
	return resp.StatusCode, t.readReply(resp, info, st, after)
}

func lastEventNote(id string) string {
	if id == "" {
		return ""
	}
	return fmt.Sprintf(" (Last-Event-ID %q)", id)
}

// resume follows the SSE stream of request m after its connection ended
// (with readErr, or cleanly) before the response: it waits the server's
// retry interval and GETs the stream again with Last-Event-ID, as long as
// the response is awaited and the server keeps the stream going. It returns
// an error when the stream cannot be resumed.
func (t *httpTransport) resume(ctx context.Context, m outbound, st *streamState, readErr error) error {
	failures := 0
	for t.c.isPending(m.id) {
		why := "ended"
		if readErr != nil {
			why = "broke (" + readErr.Error() + ")"
		}
		wait := st.wait(failures)
		t.c.note(&HTTPInfo{Method: http.MethodGet, URL: t.url, Retry: max(st.retry, 0)},
			"the response stream of %s %s before the response; resuming with Last-Event-ID %q in %v",
			describeOutbound(m), why, st.lastID, wait)
		if !sleepCtx(ctx, wait) {
			return ctx.Err()
		}
		gctx, cancel := context.WithCancel(ctx)
		before := st.events
		status, err := t.openStream(gctx, st, func() {
			if !t.c.isPending(m.id) {
				cancel() // answered: stop reading the resumed stream
			}
		})
		cancel()
		switch {
		case !t.c.isPending(m.id):
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

// sleepCtx waits for d or until ctx is done; it reports whether d passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// startListening starts the standalone GET loop unless it runs already.
// The channel it returns (nil if it started nothing) is closed when the
// first GET has been answered or has failed.
func (t *httpTransport) startListening() <-chan struct{} {
	t.mu.Lock()
	if t.listening || t.closed {
		t.mu.Unlock()
		return nil
	}
	t.listening = true
	t.wg.Add(1)
	t.mu.Unlock()
	ready := make(chan struct{})
	go t.listen(ready)
	return ready
}

// listen holds the optional standalone GET event stream open, on which the
// server may send requests and notifications. Whenever the stream ends it
// is reopened with Last-Event-ID after the server's retry interval (longer
// after failures), until the server refuses it (405: no such stream; any
// other 4xx, such as a session it no longer knows), five attempts in a row
// fail, or the transport closes.
func (t *httpTransport) listen(ready chan struct{}) {
	defer t.wg.Done()
	defer func() {
		t.mu.Lock()
		t.listening = false
		t.mu.Unlock()
	}()
	var once sync.Once
	opened := func() { once.Do(func() { close(ready) }) }
	defer opened()
	st := &streamState{retry: -1, opened: opened}
	failures := 0
	for {
		before := st.events
		status, err := t.openStream(t.ctx, st, nil)
		if t.ctx.Err() != nil {
			return
		}
		switch {
		case status == http.StatusMethodNotAllowed:
			t.c.note(&HTTPInfo{Method: http.MethodGet, URL: t.url, Status: status}, "server offers no standalone event stream (HTTP 405)")
			return
		case status >= 400 && status < 500:
			t.c.note(&HTTPInfo{Method: http.MethodGet, URL: t.url, Status: status}, "standalone event stream refused: %v", err)
			return
		case status/100 == 2 && st.events > before:
			failures = 0
		default:
			failures++
		}
		if failures >= maxStreamFailures {
			t.c.note(&HTTPInfo{Method: http.MethodGet, URL: t.url, Status: status},
				"standalone event stream given up after %d failed attempts: %v", failures, err)
			return
		}
		wait := st.wait(failures)
		msg := "standalone event stream ended"
		if err != nil {
			msg += ": " + err.Error()
		}
		t.c.note(&HTTPInfo{Method: http.MethodGet, URL: t.url, Status: status, Retry: max(st.retry, 0)},
			"%s; reopening in %v%s", msg, wait, lastEventNote(st.lastID))
		if !sleepCtx(t.ctx, wait) {
			return
		}
	}
}
