package mcpclient

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// sendRaw POSTs body exactly as given and hands what comes back to the
// Client: the messages of a 2xx reply as usual; for an error status, a
// transport record of the status and then the body itself, which is
// recorded as a message (and dispatched, so a JSON-RPC error answering a
// malformed frame reaches OnUnmatched) or as a parse error.
func (t *httpTransport) sendRaw(ctx context.Context, body []byte) error {
	if !t.track() {
		return ErrClosed
	}
	defer t.wg.Done()
	rctx, cancel := context.WithCancel(t.ctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	req, err := t.newRequest(rctx, http.MethodPost, body)
	if err != nil {
		return err
	}
	t.peer.tap(Outbound, KindMessage, body, requestInfo(req))
	resp, err := t.client.Do(req)
	if err != nil {
		return describeHTTPError(req, err)
	}
	defer resp.Body.Close()
	info := responseInfo(req, resp)
	switch {
	case resp.StatusCode == http.StatusAccepted:
		return nil
	case resp.StatusCode/100 == 2:
		return t.readBody(resp, info)
	}
	t.peer.tap(Inbound, KindTransport, []byte("HTTP "+resp.Status), info)
	limit := t.peer.maxFrameSize()
	reply, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	switch {
	case len(reply) > limit:
		t.peer.tap(Inbound, KindParseError, reply[:min(limit, recordLimit)], info)
	case len(reply) > 0:
		t.peer.receive(reply, info)
	}
	if err != nil {
		return fmt.Errorf("HTTP %s: read body: %w", resp.Status, err)
	}
	return fmt.Errorf("HTTP %s", resp.Status)
}
