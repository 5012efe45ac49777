package mcpclient

// The legacy era's Streamable HTTP session: its Mcp-Session-Id, a new
// session when the server forgot it, and its end on Close.

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// endSessionTimeout bounds the DELETE that ends a session on Close.
const endSessionTimeout = 2 * time.Second

// session returns the Mcp-Session-Id requests carry; "" when there is
// none (before initialize, in the modern era, or with a server that keeps
// no sessions).
func (t *httpTransport) session() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sessionID
}

// keepSession keeps the Mcp-Session-Id, if any, of resp, the 2xx answer
// to initialize (legacy era).
func (t *httpTransport) keepSession(resp *http.Response) {
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
		t.mu.Lock()
		t.sessionID = s
		t.mu.Unlock()
	}
}

// renewSession starts a new session after the server forgot stale: the
// initialize handshake again, unless another request has done so already.
func (t *httpTransport) renewSession(ctx context.Context, stale string, cause *HTTPStatusError) error {
	t.renewMu.Lock()
	defer t.renewMu.Unlock()
	t.mu.Lock()
	if t.sessionID != stale {
		t.mu.Unlock()
		return nil // renewed meanwhile
	}
	t.sessionID = ""
	t.mu.Unlock()
	t.peer.note(&HTTPInfo{Method: http.MethodPost, URL: t.url, Status: cause.Status},
		"session %q is gone (HTTP %s); starting a new session with initialize", stale, cause.Text)
	if err := t.peer.initializeAgain(ctx); err != nil {
		return err
	}
	t.peer.note(&HTTPInfo{Method: http.MethodPost, URL: t.url}, "new session %q started", t.session())
	return nil
}

// endSession sends DELETE with the session id. 405 means the server does
// not let clients end sessions, which is fine.
func (t *httpTransport) endSession() error {
	ctx, cancel := context.WithTimeout(context.Background(), endSessionTimeout)
	defer cancel()
	req, err := t.newRequest(ctx, http.MethodDelete, nil)
	if err != nil {
		return err
	}
	t.peer.tap(Outbound, KindTransport, []byte("DELETE session"), requestInfo(req))
	resp, err := t.client.Do(req)
	if err != nil {
		return fmt.Errorf("end session: %w", describeHTTPError(req, err))
	}
	defer resp.Body.Close()
	t.note(req, resp, "end session: HTTP "+resp.Status)
	if resp.StatusCode/100 != 2 && resp.StatusCode != http.StatusMethodNotAllowed {
		return fmt.Errorf("end session: HTTP %s", resp.Status)
	}
	return nil
}
