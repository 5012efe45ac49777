package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"
)

const (
	// endSessionTimeout bounds the DELETE that ends a session on Close.
	endSessionTimeout = 2 * time.Second
	// excerptLen bounds the body text quoted in an HTTP status error.
	excerptLen = 200
	// defaultRetry is how long to wait before reconnecting an event stream
	// when the server sent no retry field.
	defaultRetry = time.Second
	// maxRetryDelay caps the wait between failed reconnection attempts.
	maxRetryDelay = 30 * time.Second
	// maxStreamFailures is how many reconnection attempts in a row may fail
	// (or bring nothing) before an event stream is given up.
	maxStreamFailures = 5
	// listenWait bounds how long the handshake waits for the standalone
	// GET stream to be answered.
	listenWait = time.Second
	// replyDrainWait is how long a request's reply stream is still read
	// after its response arrived, for the server to end it: a reply read to
	// its end leaves the connection free for the next request, while one cut
	// short closes it.
	replyDrainWait = 100 * time.Millisecond
	// requestWorkerIdle is how long a request worker waits for another
	// request before it ends.
	requestWorkerIdle = 30 * time.Second
)

// HTTPStatusError is an HTTP error status that answered a request, when its
// body was not a JSON-RPC response to that request.
type HTTPStatusError struct {
	Status  int    // the status code, such as 404
	Text    string // the status line text, such as "404 Not Found"
	Body    string // the start of the response body, trimmed
	Session string // the Mcp-Session-Id the request carried, if any
	// SessionGone reports that the server no longer knows Session: a 404,
	// or a 400 whose body speaks of the session (as some servers answer).
	SessionGone bool
}

func (e *HTTPStatusError) Error() string {
	msg := "HTTP " + e.Text
	if e.SessionGone {
		return fmt.Sprintf("%s: session expired: the server no longer knows session %q; reconnect to start a new one", msg, e.Session)
	}
	if e.Body != "" {
		msg += ": " + e.Body
	}
	return msg
}

// ConnectHTTP connects to a Streamable HTTP server in the era Options.Era
// asks for. ctx bounds only the connecting.
//
// Legacy era: the initialize handshake; the Mcp-Session-Id of its answer and
// the negotiated MCP-Protocol-Version are sent on every later request; once
// notifications/initialized is accepted the standalone GET event stream is
// opened, and reopened (with Last-Event-ID, after the server's retry
// interval) whenever it ends, until the server refuses it. A request whose
// SSE reply ends before its response is resumed the same way. A request
// answered 404 (or a 400 that speaks of the session) for its session starts
// a new session, once, and is sent again on it. Close ends the session with
// DELETE (405 is fine).
//
// Modern era: no handshake and no session; server/discover is sent first;
// every request carries _meta and the MCP-Protocol-Version, Mcp-Method,
// Mcp-Name and Mcp-Param-* headers; giving up a request closes its response
// stream, which is how the modern era cancels over HTTP.
//
// Auto: server/discover first, then the legacy handshake, then the
// deprecated HTTP+SSE transport (ConnectSSE) when the endpoint refuses the
// handshake with 400, 404 or 405.
//
// Every message is recorded by the Tap with its HTTP exchange; so are HTTP
// error statuses, SSE events without data, reconnections and retries. An
// HTTP error status fails the request it answered; the connection stays
// open until Close, which stops every stream and waits for its goroutines.
func ConnectHTTP(ctx context.Context, cfg HTTPConfig, opts Options) (*Client, error) {
	if err := checkHTTPURL(cfg.URL); err != nil {
		return nil, err
	}
	c := newClient(opts)
	t, err := newHTTPTransport(c, cfg)
	if err != nil {
		return nil, err
	}
	c.t = t
	err = c.start(ctx)
	if err == nil {
		return c, nil
	}
	fallback := c.opts.Era == EraAuto && c.Era() == EraLegacy && refusedByEndpoint(err)
	if fallback {
		c.note(&HTTPInfo{URL: cfg.URL}, "era auto: the endpoint refused initialize (%v); trying the deprecated HTTP+SSE transport", err)
	}
	_ = c.Close()
	if !fallback {
		return nil, err
	}
	opts.Era = EraLegacy
	sc, serr := ConnectSSE(ctx, cfg, opts)
	if serr != nil {
		return nil, fmt.Errorf("%w; the deprecated HTTP+SSE transport failed too: %v", err, serr)
	}
	return sc, nil
}

func checkHTTPURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("invalid server URL: it does not parse; want http:// or https://")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("invalid server URL %q: want http:// or https://", urlText(u))
	}
	return nil
}

// refusedByEndpoint reports whether err is the 400, 404 or 405 with which
// a server of the deprecated HTTP+SSE transport answers a POST to its
// event-stream URL.
func refusedByEndpoint(err error) bool {
	var status *HTTPStatusError
	return errors.As(err, &status) && slices.Contains([]int{400, 404, 405}, status.Status)
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

	renewMu sync.Mutex // held while a new session is started

	mu        sync.Mutex
	closed    bool
	sessionID string
	listening bool                         // the standalone GET loop runs
	inflight  map[int64]context.CancelFunc // cancels the POST of a request

	jobs chan func() // hands a request's exchange to an idle request worker
}

func newHTTPTransport(c *Client, cfg HTTPConfig) (*httpTransport, error) {
	t := &httpTransport{c: c, url: cfg.URL, header: cfg.Header, inflight: make(map[int64]context.CancelFunc),
		jobs: make(chan func())}
	var err error
	if t.client, t.ownClient, err = httpClient(cfg, c); err != nil {
		return nil, err
	}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	return t, nil
}

// send POSTs m. A request is POSTed by a request worker (runRequest), whose
// failures go to requestFailed; a notification or response is POSTed before
// send returns. Once notifications/initialized is accepted, the GET stream
// is opened. In the modern era, notifications/cancelled is not POSTed: the
// request it names has its response stream closed instead.
func (t *httpTransport) send(ctx context.Context, m outbound) error {
	if !m.raw && m.method == "notifications/cancelled" && t.c.isModern() {
		t.cancelRequest(m.body)
		return nil
	}
	if m.id != 0 {
		if !t.track() {
			return ErrClosed
		}
		rctx, cancel := context.WithCancel(t.ctx)
		t.mu.Lock()
		t.inflight[m.id] = cancel
		t.mu.Unlock()
		t.runRequest(func() {
			defer t.wg.Done()
			defer func() {
				t.mu.Lock()
				delete(t.inflight, m.id)
				t.mu.Unlock()
				cancel()
			}()
			err := t.exchange(rctx, m)
			if err == nil {
				err = errors.New("the server's HTTP reply ended without the response")
			}
			t.c.requestFailed(m.id, err) // no-op when the response arrived
		})
		return nil
	}
	rctx, cancel := context.WithCancel(t.ctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	if err := t.exchange(rctx, m); err != nil {
		return err
	}
	if m.method == "notifications/initialized" {
		// Give the stream a moment to open, so that the server can reach
		// the client as soon as Connect returns.
		if ready := t.startListening(); ready != nil {
			timer := time.NewTimer(listenWait)
			defer timer.Stop()
			select {
			case <-ready:
			case <-timer.C:
			case <-ctx.Done():
			}
		}
	}
	return nil
}

// runRequest runs job, the exchange of one request, on an idle request
// worker or on a new one. A worker that has run an exchange keeps the
// stack it grew for the next, which spares each request a fresh
// goroutine's start and stack growth on its critical path.
func (t *httpTransport) runRequest(job func()) {
	select {
	case t.jobs <- job:
		return
	default:
	}
	t.wg.Add(1)
	go t.requestWorker(job)
}

// requestWorker runs job, then the jobs handed to it, until it has been
// idle for requestWorkerIdle or the transport closes.
func (t *httpTransport) requestWorker(job func()) {
	defer t.wg.Done()
	idle := time.NewTimer(requestWorkerIdle)
	defer idle.Stop()
	for {
		job()
		idle.Reset(requestWorkerIdle)
		select {
		case job = <-t.jobs:
		case <-idle.C:
			return
		case <-t.ctx.Done():
			return
		}
	}
}

// cancelRequest closes the response stream of the request that a
// notifications/cancelled body names.
func (t *httpTransport) cancelRequest(body []byte) {
	var n struct {
		Params struct {
			RequestID int64 `json:"requestId"`
		} `json:"params"`
	}
	_ = json.Unmarshal(body, &n)
	t.mu.Lock()
	cancel := t.inflight[n.Params.RequestID]
	t.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	t.c.note(&HTTPInfo{Method: http.MethodPost, URL: t.url},
		"request %d given up: its response stream was closed (the modern era's cancellation over HTTP; no notifications/cancelled is sent)", n.Params.RequestID)
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

func (t *httpTransport) session() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.sessionID
}

// newRequest builds a request to the endpoint with the configured headers,
// Accept and Content-Type, and the headers of the era: Mcp-Session-Id and
// the negotiated MCP-Protocol-Version (legacy), or MCP-Protocol-Version
// alone (modern).
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
	if sid := t.session(); sid != "" && !t.c.isModern() {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	if v := t.c.negotiatedVersion(); v != "" {
		req.Header.Set(headerProtocolVersion, v)
	}
	return req, nil
}

// newPost builds the POST of m: newRequest, without a protocol version on
// initialize, and with the modern-era headers derived from the body.
func (t *httpTransport) newPost(ctx context.Context, m outbound) (*http.Request, error) {
	req, err := t.newRequest(ctx, http.MethodPost, m.body)
	if err != nil {
		return nil, err
	}
	switch {
	case m.raw:
	case m.method == "initialize":
		req.Header.Del(headerProtocolVersion)
	case t.c.isModern():
		t.c.modernHeaders(req.Header, m.body, t.c.negotiatedVersion())
	}
	return req, nil
}

func requestInfo(req *http.Request) *HTTPInfo {
	return &HTTPInfo{Method: req.Method, URL: req.URL.String(), Header: req.Header.Clone()}
}

func responseInfo(req *http.Request, resp *http.Response) *HTTPInfo {
	return &HTTPInfo{Method: req.Method, URL: req.URL.String(), Status: resp.StatusCode, Header: resp.Header}
}

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
	t.c.tap(Outbound, KindMessage, m.body, requestInfo(req))
	start := time.Now()
	resp, err := t.client.Do(req)
	if err != nil {
		return false, describeHTTPError(req, err)
	}
	defer resp.Body.Close()
	info := responseInfo(req, resp)
	info.Elapsed = time.Since(start)
	if m.method == "initialize" && resp.StatusCode/100 == 2 && !t.c.isModern() {
		if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
			t.mu.Lock()
			t.sessionID = s
			t.mu.Unlock()
		}
	}
	if resp.StatusCode/100 != 2 {
		err := statusError(t.c, req, resp, info, m.id)
		var gone *HTTPStatusError
		if mayRenew && !m.raw && errors.As(err, &gone) && gone.SessionGone &&
			m.method != "notifications/initialized" && !t.isClosed() {
			if rerr := t.renewSession(ctx, sid, gone); rerr != nil {
				return false, fmt.Errorf("%w; starting a new session failed: %v", err, rerr)
			}
			t.c.note(info, "sending %s again on the new session %q", describeOutbound(m), t.session())
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
			if drain == nil && !t.c.isPending(m.id) {
				drain = time.AfterFunc(replyDrainWait, cancel)
			}
		}
	}
	st := &streamState{start: start, retry: -1}
	err = t.readReply(resp, info, st, answered)
	switch {
	case m.id == 0 || m.raw || !t.c.isPending(m.id):
		return false, err // answered (or given up): a cut-short read is no error
	case ctx.Err() != nil:
		return false, err
	case !t.c.isModern() && st.lastID != "":
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
	t.c.note(&HTTPInfo{Method: http.MethodPost, URL: t.url, Status: cause.Status},
		"session %q is gone (HTTP %s); starting a new session with initialize", stale, cause.Text)
	if err := t.c.initialize(ctx, true); err != nil {
		return err
	}
	t.c.note(&HTTPInfo{Method: http.MethodPost, URL: t.url}, "new session %q started", t.session())
	return nil
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
	if sid != "" && !t.c.isModern() {
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
	t.c.tap(Outbound, KindTransport, []byte("DELETE session"), requestInfo(req))
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
