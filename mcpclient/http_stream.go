package mcpclient

// An SSE stream of a Streamable HTTP server followed across
// reconnections: the GET that opens or resumes it and the wait between
// attempts.

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

const (
	// defaultRetry is how long to wait before reconnecting an event stream
	// when the server sent no retry field.
	defaultRetry = time.Second
	// maxRetryDelay caps the wait between failed reconnection attempts.
	maxRetryDelay = 30 * time.Second
	// maxStreamFailures is how many reconnection attempts in a row may fail
	// (or bring nothing) before an event stream is given up.
	maxStreamFailures = 5
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
	t.peer.tap(Outbound, KindTransport, []byte("GET event stream"+lastEventNote(st.lastID)), requestInfo(req))
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
			t.peer.tap(Inbound, KindTransport, []byte("HTTP "+resp.Status), info)
			return resp.StatusCode, nil
		}
		return resp.StatusCode, statusError(t.peer, req, resp, info, 0)
	}
	return resp.StatusCode, t.readReply(resp, info, st, after)
}

func lastEventNote(id string) string {
	if id == "" {
		return ""
	}
	return fmt.Sprintf(" (Last-Event-ID %q)", id)
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
