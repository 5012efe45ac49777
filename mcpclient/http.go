package mcpclient

// The Streamable HTTP transport: connecting, sending and closing. Its
// other jobs have files of their own: http_request.go builds the requests,
// http_post.go makes the POST exchange, http_replies.go reads the replies,
// http_stream.go and http_listen.go hold the GET event streams,
// http_session.go the session, http_workers.go the request workers and
// http_errors.go describes what fails.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"
)

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
// open until Close, which stops every stream and waits for its goroutines,
// or until the server is gone: the standalone event stream ended and
// twice in a row reopening it got no HTTP answer at all (a refused or
// broken connection), or a keep-alive ping went unanswered
// (Options.KeepAlive).
func ConnectHTTP(ctx context.Context, cfg HTTPConfig, opts Options) (*Client, error) {
	if err := checkHTTPURL(cfg.URL); err != nil {
		return nil, err
	}
	c := newClient(opts)
	client, own, err := httpClient(cfg, c)
	if err != nil {
		return nil, err
	}
	c.t = newHTTPTransport(c, cfg, client, own)
	err = c.start(ctx)
	if err == nil {
		c.startKeepAlive()
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
	peer      httpPeer
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

// newHTTPTransport returns the transport to cfg.URL that reports to p and
// makes its requests with client, whose idle connections it closes at the
// end when own.
func newHTTPTransport(p httpPeer, cfg HTTPConfig, client *http.Client, own bool) *httpTransport {
	t := &httpTransport{peer: p, url: cfg.URL, header: cfg.Header, client: client, ownClient: own,
		inflight: make(map[int64]context.CancelFunc), jobs: make(chan func())}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	return t
}

// send POSTs m. A request is POSTed by a request worker (runRequest), whose
// failures go to requestFailed; a notification or response is POSTed before
// send returns. Once notifications/initialized is accepted, the GET stream
// is opened. In the modern era, notifications/cancelled is not POSTed: the
// request it names has its response stream closed instead.
func (t *httpTransport) send(ctx context.Context, m outbound) error {
	if !m.raw && m.method == "notifications/cancelled" && t.peer.isModern() {
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
			t.peer.requestFailed(m.id, err) // no-op when the response arrived
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
	t.peer.note(&HTTPInfo{Method: http.MethodPost, URL: t.url},
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

// close ends the session with DELETE, unless the connection was lost
// already (the server is gone), then stops every request and stream and
// waits for their goroutines.
func (t *httpTransport) close() error {
	t.mu.Lock()
	t.closed = true
	sid := t.sessionID
	t.mu.Unlock()
	var err error
	select {
	case <-t.peer.Done():
	default:
		if sid != "" && !t.peer.isModern() {
			err = t.endSession()
		}
	}
	t.cancel()
	t.wg.Wait()
	if t.ownClient {
		t.client.CloseIdleConnections()
	}
	return err
}
