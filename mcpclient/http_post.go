package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// replyDrainWait is how long a request's reply stream is still read
// after its response arrived, for the server to end it: a reply read to
// its end leaves the connection free for the next request, while one cut
// short closes it.
const replyDrainWait = 100 * time.Millisecond

// exchange POSTs m and hands every message of the reply to the Client. A
// request whose session is gone is sent again, once, on a new session; a
// request whose SSE reply ends before its response is resumed (legacy
// era). It returns nil when the reply was read, which for a request does
// not mean its response came.
func (t *httpTransport) exchange(ctx context.Context, m outbound) error {
	again, err := t.post(ctx, m, true)
	if again {
		_, err = t.post(ctx, m, false)
	}
	return err
}

// post makes one POST of m. It reports whether m should be sent again
// because its session was gone and a new one has been started (only when
// mayRenew).
func (t *httpTransport) post(ctx context.Context, m outbound, mayRenew bool) (again bool, err error) {
	// The reply's own context: a request's reply stops being read soon after
	// its response has arrived, even if the server keeps the stream open.
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	req, err := t.newPost(rctx, m)
	if err != nil {
		return false, err
	}
	sid := req.Header.Get("Mcp-Session-Id")
	t.peer.tap(Outbound, KindMessage, m.body, requestInfo(req))
	start := time.Now()
	resp, err := t.client.Do(req)
	if err != nil {
		return false, describeHTTPError(req, err)
	}
	defer resp.Body.Close()
	info := responseInfo(req, resp)
	info.Elapsed = time.Since(start)
	if m.method == "initialize" && resp.StatusCode/100 == 2 && !t.peer.isModern() {
		t.keepSession(resp)
	}
	if resp.StatusCode/100 != 2 {
		err := statusError(t.peer, req, resp, info, m.id)
		var gone *HTTPStatusError
		if mayRenew && !m.raw && errors.As(err, &gone) && gone.SessionGone &&
			m.method != "notifications/initialized" && !t.isClosed() {
			if rerr := t.renewSession(ctx, sid, gone); rerr != nil {
				return false, fmt.Errorf("%w; starting a new session failed: %v", err, rerr)
			}
			t.peer.note(info, "sending %s again on the new session %q", describeOutbound(m), t.session())
			return true, nil
		}
		return false, err
	}
	if resp.StatusCode == http.StatusAccepted {
		return false, nil
	}
	var answered func()
	if m.id != 0 && !m.raw {
		var drain *time.Timer
		defer func() {
			if drain != nil {
				drain.Stop()
			}
		}()
		answered = func() {
			if drain == nil && !t.peer.isPending(m.id) {
				drain = time.AfterFunc(replyDrainWait, cancel)
			}
		}
	}
	st := &streamState{start: start, retry: -1}
	err = t.readReply(resp, info, st, answered)
	switch {
	case m.id == 0 || m.raw || !t.peer.isPending(m.id):
		return false, err // answered (or given up): a cut-short read is no error
	case ctx.Err() != nil:
		return false, err
	case !t.peer.isModern() && st.lastID != "":
		return false, t.resume(ctx, m, st, err)
	}
	return false, err
}

// describeOutbound names a message for notes: "tools/call (id 7)".
func describeOutbound(m outbound) string {
	switch {
	case m.id != 0:
		return fmt.Sprintf("%s (id %d)", m.method, m.id)
	case m.method != "":
		return m.method
	}
	return "the response"
}
