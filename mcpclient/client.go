package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// transport moves whole messages between a Client and a server. It holds
// the Client as a peer (or, for Streamable HTTP, an httpPeer), never as
// *Client: inbound messages go to peer.receive; transport-level failures go
// to peer.requestFailed (one request) or peer.connectionLost (everything).
type transport interface {
	// send records m with the peer's tap and writes it. For a request, a
	// failure found after send returned is reported through requestFailed.
	send(ctx context.Context, m outbound) error
	// close tears the transport down and waits for its goroutines.
	close() error
}

// peer is the side of a Client that its transport reports to: what
// arrives, what fails, and what happened on the wire. Every method may be
// called from any goroutine of the transport, concurrently, including
// while a send is in progress; none of them calls back into the transport,
// so none waits for it, and none blocks for longer than noted.
type peer interface {
	// tap hands one frame to Options.Tap. Calls are serialized: it blocks
	// while the Tap runs for another frame.
	tap(dir Direction, kind FrameKind, body []byte, info *HTTPInfo)
	// note records a transport event (a decision, a retry, a refusal) as an
	// inbound KindTransport frame; it blocks like tap.
	note(info *HTTPInfo, format string, args ...any)
	// receive records and dispatches one inbound message: a response goes
	// to the call waiting for it, a notification to Options.OnNotification,
	// a server request to a goroutine of its own that answers it through
	// send. It blocks while the Tap, OnNotification or OnUnmatched runs,
	// never while a server request is answered. Undecodable input is
	// recorded as KindParseError.
	receive(body []byte, info *HTTPInfo)
	// requestFailed fails the call waiting for request id with err, unless
	// it already got its response. It never blocks.
	requestFailed(id int64, err error)
	// connectionLost ends the connection with cause: every pending call
	// fails with it and Done closes. It is ignored once Close has begun or
	// the connection has ended, and never blocks.
	connectionLost(cause error)
	// isPending reports whether a call still waits for the response to
	// request id. It never blocks.
	isPending(id int64) bool
	// Done is closed when the connection has ended.
	Done() <-chan struct{}
	// maxFrameSize is the bound of one inbound message
	// (Options.MaxFrameSize, with its default applied).
	maxFrameSize() int
}

// httpPeer is the peer of the Streamable HTTP transport, which also asks
// the Client about the era its requests speak and may start a new session.
type httpPeer interface {
	peer
	// isModern reports whether requests go out in the modern era. It may
	// change while connecting (Options.Era auto), not after Connect
	// returned. It never blocks.
	isModern() bool
	// negotiatedVersion returns the protocol version requests carry; ""
	// before initialize succeeded (legacy era). It never blocks.
	negotiatedVersion() string
	// modernHeaders sets the modern-era headers of a POST carrying body
	// (see headers.go); version is the one to send when body's _meta names
	// none.
	modernHeaders(h http.Header, body []byte, version string)
	// initializeAgain runs the initialize handshake again, after the
	// server lost the session, and keeps the first InitializeResult. It
	// sends initialize and notifications/initialized through the
	// transport and waits, within ctx and Options.InitializeTimeout, for
	// their outcome: it must not be called from a goroutine the transport
	// needs to deliver that outcome.
	initializeAgain(ctx context.Context) error
}

// outbound is one message for the server.
type outbound struct {
	body   []byte
	id     int64  // the request id; 0 for notifications and responses
	method string // "" for responses
	raw    bool   // from SendRaw: write body exactly, derive nothing from it
}

// reply is the outcome of one request: a raw result, or an error that is
// either an *RPCError from the server or a transport failure.
type reply struct {
	result json.RawMessage
	err    error
}

// Client is a connection to one MCP server, after a successful handshake.
// Its methods are safe for concurrent use. The connection lives until Close
// is called or the transport fails; the caller must always call Close.
type Client struct {
	opts Options
	t    transport

	// ctx is cancelled by Close; it bounds the answering of server requests.
	ctx      context.Context
	cancel   context.CancelFunc
	handlers sync.WaitGroup // goroutines answering server requests

	nextID     atomic.Int64
	tapMu      sync.Mutex
	notifyMu   sync.Mutex
	initRes    InitializeResult // written once, before Connect* returns
	caps       json.RawMessage  // client capabilities, from Options.Handler
	legacyCaps json.RawMessage  // caps with the tasks it hosts, for initialize (tasks_host.go)
	hosting    bool             // legacyCaps declares tasks the client hosts
	host       hostedTasks      // tasks run for the server (tasks_host.go)

	progressMu sync.Mutex                // held while a progress callback runs
	progress   map[string]func(Progress) // by token; see WithProgress

	headers headerCache // x-mcp-header bindings of listed tools (headers.go)

	mu              sync.Mutex
	pending         map[int64]chan reply
	closing         bool            // Close has begun
	ended           bool            // done is closed
	err             error           // why the connection ended; nil when by Close
	protocolVersion string          // negotiated; "" until initialize succeeded
	era             Era             // resolved era (era.go); set while connecting
	discovery       *DiscoverResult // server/discover answer, modern era
	done            chan struct{}
	serving         map[string]*served // server requests being answered, by raw id

	closeOnce sync.Once
	closeErr  error
}

func newClient(opts Options) *Client {
	ctx, cancel := context.WithCancel(context.Background())
	caps := clientCapabilities(opts.Handler)
	legacyCaps, hosting := hostedTasksCapabilities(caps)
	return &Client{
		opts:       opts.withDefaults(),
		caps:       caps,
		legacyCaps: legacyCaps,
		hosting:    hosting,
		serving:    make(map[string]*served),
		ctx:        ctx,
		cancel:     cancel,
		pending:    make(map[int64]chan reply),
		done:       make(chan struct{}),
	}
}

// InitializeResult returns what the server answered to initialize.
func (c *Client) InitializeResult() InitializeResult { return c.initRes }

// ClientCapabilities returns the capabilities this client declares to the
// server, in initialize (legacy era, with the tasks it hosts) or in every
// request's _meta (modern era). Callers must not modify it.
func (c *Client) ClientCapabilities() json.RawMessage {
	if c.isModern() {
		return c.caps
	}
	return c.legacyCaps
}

// Done returns a channel that is closed when the connection has ended, by
// Close or by a failure.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err returns why the connection ended: nil while it is open or when it was
// ended by Close, otherwise the cause (such as the server process exiting).
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Call sends a request and waits for its response. params may be nil
// (omitted), a json.RawMessage (sent as is, compacted) or any value that
// encodes to JSON. It returns the raw result, or an *RPCError when the server
// answered with an error. When ctx is done first, Call sends
// notifications/cancelled (except for initialize) and returns an error
// wrapping ctx.Err(). When the connection ends, pending calls fail at
// once with an error wrapping the cause (ErrClosed after Close).
//
// A ctx without deadline gets the method's timeout from Options.Timeouts
// (or Options.RequestTimeout). opts may ask for progress (WithProgress).
//
// In the modern era (see Era) params must be absent or a JSON object: Call
// adds the per-request _meta, retries once or twice after
// UnsupportedProtocolVersion, and answers input_required results through
// Options.Handler, retrying with a new id each round (at most 32 rounds).
func (c *Client) Call(ctx context.Context, method string, params any, opts ...CallOption) (json.RawMessage, error) {
	if c.modernDispatch(ctx) {
		return c.callModern(ctx, method, params, opts...) // era.go
	}
	var co callOptions
	for _, o := range opts {
		o(&co)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.timeout(method))
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	id := c.nextID.Add(1)
	if co.sentID != nil {
		co.sentID(id)
	}
	if co.progress != nil {
		p, token, err := withProgressToken(params, id)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", method, err)
		}
		params = p
		defer c.watchProgress(token, co.progress)()
	}
	body, err := encodeRequest(id, method, params)
	if err != nil {
		return nil, fmt.Errorf("%s: encode params: %w", method, err)
	}
	ch, err := c.register(id)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if err := c.t.send(ctx, outbound{body: body, id: id, method: method}); err != nil {
		if !c.unregister(id) {
			// The connection ended meanwhile; its cause is more telling.
			return (<-ch).unwrap(method)
		}
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r := <-ch:
		return r.unwrap(method)
	case <-ctx.Done():
		if !c.unregister(id) {
			// The reply won the race and is being delivered.
			return (<-ch).unwrap(method)
		}
		if method != "initialize" { // the spec forbids cancelling initialize
			c.sendCancelled(ctx, id)
		}
		return nil, fmt.Errorf("%s (id %d): gave up waiting for the response: %w", method, id, ctx.Err())
	}
}

func (r reply) unwrap(method string) (json.RawMessage, error) {
	var rpcErr *RPCError
	switch {
	case errors.As(r.err, &rpcErr):
		return nil, rpcErr
	case r.err != nil:
		return nil, fmt.Errorf("%s: %w", method, r.err)
	}
	return r.result, nil
}

// cancelTimeout bounds sending notifications/cancelled for a request that
// was given up.
const cancelTimeout = 5 * time.Second

// sendCancelled tells the server that the request id was given up.
func (c *Client) sendCancelled(ctx context.Context, id int64) {
	reason := "request cancelled by the client"
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		reason = "request timed out"
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelTimeout)
	defer cancel()
	_ = c.Notify(ctx, "notifications/cancelled", map[string]any{"requestId": id, "reason": reason})
}

// Notify sends a notification. Over HTTP it waits, within ctx, for the
// server to accept it.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	body, err := encodeNotification(method, params)
	if err != nil {
		return fmt.Errorf("%s: encode params: %w", method, err)
	}
	if err := c.openErr(); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if err := c.t.send(ctx, outbound{body: body, method: method}); err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// openErr returns nil while the connection is open, else why it is not.
func (c *Client) openErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.openErrLocked()
}

func (c *Client) openErrLocked() error {
	switch {
	case c.closing:
		return ErrClosed
	case c.ended:
		return c.err
	}
	return nil
}

// register makes a slot for the response to request id.
func (c *Client) register(id int64) (chan reply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.openErrLocked(); err != nil {
		return nil, err
	}
	ch := make(chan reply, 1)
	c.pending[id] = ch
	return ch, nil
}

// unregister removes the slot of request id and reports whether it was
// still there.
func (c *Client) unregister(id int64) bool {
	_, ok := c.take(id)
	return ok
}

func (c *Client) take(id int64) (chan reply, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch, ok := c.pending[id]
	delete(c.pending, id)
	return ch, ok
}

// requestFailed fails request id with err, unless it already got its reply.
func (c *Client) requestFailed(id int64, err error) {
	if ch, ok := c.take(id); ok {
		ch <- reply{err: err}
	}
}

// negotiatedVersion returns the protocol version agreed in initialize, or ""
// before that.
func (c *Client) negotiatedVersion() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.protocolVersion
}

// maxFrameSize is the bound of one inbound message.
func (c *Client) maxFrameSize() int { return c.opts.MaxFrameSize }

// tap hands one frame to Options.Tap, one frame at a time.
func (c *Client) tap(dir Direction, kind FrameKind, body []byte, info *HTTPInfo) {
	if c.opts.Tap == nil {
		return
	}
	c.tapMu.Lock()
	defer c.tapMu.Unlock()
	c.opts.Tap(Frame{Time: time.Now(), Direction: dir, Kind: kind, Body: body, HTTP: info})
}

// connectionLost ends the connection because the transport failed. It is
// ignored once Close has begun.
func (c *Client) connectionLost(cause error) {
	c.mu.Lock()
	closing := c.closing
	c.mu.Unlock()
	if !closing {
		c.end(cause)
	}
}

// end marks the connection ended with cause (nil when by Close), fails every
// pending call and closes Done. Only the first call has an effect.
func (c *Client) end(cause error) {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		return
	}
	c.ended = true
	c.err = cause
	pending := c.pending
	c.pending = nil
	c.mu.Unlock()
	if cause == nil {
		cause = ErrClosed
	}
	for _, ch := range pending {
		ch <- reply{err: cause}
	}
	close(c.done)
}

// Close ends the connection: pending calls fail with ErrClosed, the
// transport is shut down (see ConnectStdio and ConnectHTTP for how) and all
// goroutines are waited for. It is idempotent and safe for concurrent use;
// every call returns the result of the first.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closing = true
		pending := c.pending
		c.pending = nil
		c.mu.Unlock()
		for _, ch := range pending {
			ch <- reply{err: ErrClosed}
		}
		c.cancel()
		c.closeErr = c.t.close()
		c.handlers.Wait()
		c.end(nil)
	})
	return c.closeErr
}
