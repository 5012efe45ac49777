package mcpclient

import (
	"bytes"
	"context"
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

// HTTPConfig describes a Streamable HTTP server endpoint.
type HTTPConfig struct {
	URL    string
	Header http.Header  // extra headers sent with every request
	Client *http.Client // nil means a client of our own with no overall timeout
}

const (
	// endSessionTimeout bounds the DELETE that ends a session on Close.
	endSessionTimeout = 2 * time.Second
	// excerptLen bounds the body text quoted in an HTTP status error.
	excerptLen = 200
)

// ConnectHTTP runs the handshake with a Streamable HTTP server and then
// opens the optional standalone GET event stream. ctx bounds only the
// handshake. Every message is POSTed; the Mcp-Session-Id from the initialize
// response and the negotiated MCP-Protocol-Version are sent afterwards. An
// HTTP error status fails the request it answered; the connection stays
// open until Close, which ends the session with DELETE (405 is fine) and
// stops every response stream.
func ConnectHTTP(ctx context.Context, cfg HTTPConfig, opts Options) (*Client, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("invalid server URL %q: want http:// or https://", cfg.URL)
	}
	c := newClient(opts)
	t := &httpTransport{c: c, url: cfg.URL, header: cfg.Header, client: cfg.Client}
	if t.client == nil {
		t.client = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
		t.ownClient = true
	}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	c.t = t
	return c.handshake(ctx)
}

// httpTransport speaks Streamable HTTP. Every response body is read by the
// goroutine that made the request; request POSTs and the GET stream run in
// goroutines tracked by wg and stopped by cancel.
type httpTransport struct {
	c         *Client
	url       string
	header    http.Header
	client    *http.Client
	ownClient bool

	ctx    context.Context // cancelled by close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu        sync.Mutex
	closed    bool
	sessionID string
}

// send POSTs m. A request is POSTed in a goroutine whose failures go to
// requestFailed; a notification or response is POSTed before send returns.
// Once notifications/initialized is accepted, the GET stream is opened.
func (t *httpTransport) send(ctx context.Context, m outbound) error {
	req, err := t.newRequest(t.ctx, http.MethodPost, m.body)
	if err != nil {
		return err
	}
	if m.id != 0 {
		if !t.track() {
			return ErrClosed
		}
		t.c.tap(Outbound, KindMessage, m.body, requestInfo(req))
		go func() {
			defer t.wg.Done()
			err := t.post(req, m)
			if err == nil {
				err = errors.New("the server's HTTP reply ended without the response")
			}
			t.c.requestFailed(m.id, err) // no-op when the response arrived
		}()
		return nil
	}
	rctx, cancel := context.WithCancel(t.ctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	t.c.tap(Outbound, KindMessage, m.body, requestInfo(req))
	if err := t.post(req.WithContext(rctx), m); err != nil {
		return err
	}
	if m.method == "notifications/initialized" && t.track() {
		go t.listen()
	}
	return nil
}

// isClosed reports whether close has begun.
func (t *httpTransport) isClosed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

// track registers a goroutine with wg unless the transport is closed.
func (t *httpTransport) track() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	t.wg.Add(1)
	return true
}

func (t *httpTransport) newRequest(ctx context.Context, method string, body []byte) (*http.Request, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, t.url, r)
	if err != nil {
		return nil, err
	}
	req.Header = t.header.Clone()
	if req.Header == nil {
		req.Header = make(http.Header)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	} else if method == http.MethodGet {
		req.Header.Set("Accept", "text/event-stream")
	}
	t.mu.Lock()
	if t.sessionID != "" {
		req.Header.Set("Mcp-Session-Id", t.sessionID)
	}
	t.mu.Unlock()
	if v := t.c.negotiatedVersion(); v != "" {
		req.Header.Set("MCP-Protocol-Version", v)
	}
	return req, nil
}

func requestInfo(req *http.Request) *HTTPInfo {
	return &HTTPInfo{Method: req.Method, URL: req.URL.String(), Header: req.Header.Clone()}
}

func responseInfo(req *http.Request, resp *http.Response) *HTTPInfo {
	return &HTTPInfo{Method: req.Method, URL: req.URL.String(), Status: resp.StatusCode, Header: resp.Header}
}

// post sends req and hands every message in the reply to the Client.
func (t *httpTransport) post(req *http.Request, m outbound) error {
	resp, err := t.client.Do(req)
	if err != nil {
		return describeHTTPError(req, err)
	}
	defer resp.Body.Close()
	info := responseInfo(req, resp)
	if m.method == "initialize" && resp.StatusCode/100 == 2 {
		if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
			t.mu.Lock()
			t.sessionID = sid
			t.mu.Unlock()
		}
	}
	if resp.StatusCode/100 != 2 {
		return t.statusError(req, resp, info)
	}
	if resp.StatusCode == http.StatusAccepted {
		return nil
	}
	return t.readBody(resp, info)
}

// readBody hands the messages of a 2xx response body to the Client: one
// JSON message, or a stream of SSE events.
func (t *httpTransport) readBody(resp *http.Response, info *HTTPInfo) error {
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch mediaType {
	case "text/event-stream":
		return t.readEvents(resp.Body, info)
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

// readEvents hands the data of each SSE event to the Client.
func (t *httpTransport) readEvents(r io.Reader, info *HTTPInfo) error {
	err := readSSE(r, t.c.opts.MaxFrameSize, func(ev sseEvent) {
		evInfo := *info
		evInfo.EventID = ev.id
		t.c.receive(ev.data, &evInfo)
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

// statusError records an HTTP error status with its body and explains it.
func (t *httpTransport) statusError(req *http.Request, resp *http.Response, info *HTTPInfo) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, recordLimit))
	text := "HTTP " + resp.Status
	if len(body) > 0 {
		text += ": " + string(body)
	}
	t.c.tap(Inbound, KindTransport, []byte(text), info)
	if resp.StatusCode == http.StatusNotFound && req.Header.Get("Mcp-Session-Id") != "" {
		return fmt.Errorf("HTTP %s: session expired: the server no longer knows session %q; reconnect to start a new one",
			resp.Status, req.Header.Get("Mcp-Session-Id"))
	}
	msg := "HTTP " + resp.Status
	if excerpt := strings.TrimSpace(string(body)); excerpt != "" {
		if len(excerpt) > excerptLen {
			excerpt = excerpt[:excerptLen] + "…"
		}
		msg += ": " + excerpt
	}
	return errors.New(msg)
}

// describeHTTPError rewrites a client error for a human: "connect <url>:
// connection refused" when the server cannot be reached.
func describeHTTPError(req *http.Request, err error) error {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		inner := opErr.Err
		var sysErr *os.SyscallError
		if errors.As(inner, &sysErr) {
			inner = sysErr.Err
		}
		return fmt.Errorf("connect %s: %w", req.URL, inner)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	return fmt.Errorf("%s %s: %w", req.Method, req.URL, err)
}

// listen holds the optional standalone GET event stream open, on which the
// server may send requests and notifications. A server without one (405)
// is fine. The stream is not reopened once it ends.
func (t *httpTransport) listen() {
	defer t.wg.Done()
	req, err := t.newRequest(t.ctx, http.MethodGet, nil)
	if err != nil {
		return
	}
	resp, err := t.client.Do(req)
	if err != nil {
		if !t.isClosed() {
			t.note(req, nil, "standalone event stream failed: "+describeHTTPError(req, err).Error())
		}
		return
	}
	defer resp.Body.Close()
	info := responseInfo(req, resp)
	switch {
	case resp.StatusCode == http.StatusMethodNotAllowed:
		t.note(req, resp, "server offers no standalone event stream (HTTP 405)")
		return
	case resp.StatusCode/100 != 2:
		_ = t.statusError(req, resp, info)
		return
	}
	err = t.readBody(resp, info)
	if t.isClosed() {
		return
	}
	msg := "standalone event stream ended"
	if err != nil {
		msg += ": " + err.Error()
	}
	t.note(req, resp, msg)
}

// note records a transport event about the exchange req (and resp, if any).
func (t *httpTransport) note(req *http.Request, resp *http.Response, text string) {
	info := &HTTPInfo{Method: req.Method, URL: req.URL.String()}
	if resp != nil {
		info = responseInfo(req, resp)
	}
	t.c.tap(Inbound, KindTransport, []byte(text), info)
}

// close ends the session with DELETE, then stops every request and stream
// and waits for their goroutines.
func (t *httpTransport) close() error {
	t.mu.Lock()
	t.closed = true
	sid := t.sessionID
	t.mu.Unlock()
	var err error
	if sid != "" {
		err = t.endSession()
	}
	t.cancel()
	t.wg.Wait()
	if t.ownClient {
		t.client.CloseIdleConnections()
	}
	return err
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
