package mcpclient

import (
	"context"
	"encoding/json"
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
// while a send is in progress. None of them calls back into the transport
// or waits for it; unless noted, each returns at once.
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
	// send. It blocks while the Tap, a WithProgress callback,
	// OnNotification or OnUnmatched runs, never while a server request is
	// answered. Undecodable input is recorded as KindParseError.
	receive(body []byte, info *HTTPInfo)
	// requestFailed fails the call waiting for request id with err, unless
	// it already got its response.
	requestFailed(id int64, err error)
	// connectionLost ends the connection with cause: every pending call
	// fails with it and Done closes. It is ignored once Close has begun or
	// the connection has ended.
	connectionLost(cause error)
	// isPending reports whether a call still waits for the response to
	// request id.
	isPending(id int64) bool
	// Done is closed when the connection has ended.
	Done() <-chan struct{}
	// maxFrameSize is the bound of one inbound message
	// (Options.MaxFrameSize, with its default applied).
	maxFrameSize() int
}

// httpPeer is the peer of the Streamable HTTP transport, which also asks
// the Client about the era its requests speak and may start a new session
// (the one method that sends through the transport).
type httpPeer interface {
	peer
	// isModern reports whether requests go out in the modern era. It may
	// change while connecting (Options.Era auto), not after Connect
	// returned.
	isModern() bool
	// negotiatedVersion returns the protocol version requests carry; ""
	// before initialize succeeded (legacy era).
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
