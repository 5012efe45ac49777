package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// ConnectSSE connects to a server of the deprecated HTTP+SSE transport
// (protocol version 2024-11-05): cfg.URL is its event-stream URL (often
// ending in /sse). It opens the GET event stream, waits for the endpoint
// event that names the URL to POST messages to (it must be on the stream's
// origin), and runs the initialize handshake. Every server message arrives on the event stream; each POST is
// answered 202 Accepted. The transport has no modern era: Options.Era
// modern is refused, and auto means legacy. ctx bounds only the connecting.
// When the event stream ends, the connection ends (Done, Err): the
// transport cannot resume it. Close stops the stream and waits for its
// goroutine.
func ConnectSSE(ctx context.Context, cfg HTTPConfig, opts Options) (*Client, error) {
	if err := checkHTTPURL(cfg.URL); err != nil {
		return nil, err
	}
	switch opts.Era {
	case EraModern:
		return nil, errors.New("the deprecated HTTP+SSE transport has no modern era: use legacy or auto")
	case EraAuto:
		opts.Era = EraLegacy
	}
	c := newClient(opts)
	t := &sseTransport{peer: c, url: cfg.URL, header: cfg.Header, endpointSet: make(chan struct{})}
	var err error
	if t.client, t.ownClient, err = httpClient(cfg, c); err != nil {
		return nil, err
	}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	c.t = t
	if err := t.open(ctx); err != nil {
		_ = c.Close()
		return nil, err
	}
	return c.handshake(ctx)
}

// sseTransport speaks the deprecated HTTP+SSE transport. One goroutine
// (tracked by wg, stopped by cancel) reads the event stream; messages are
// POSTed by the goroutine that sends them.
type sseTransport struct {
	peer      peer
	url       string
	header    http.Header
	client    *http.Client
	ownClient bool

	ctx    context.Context // cancelled by close; bounds the event stream
	cancel context.CancelFunc
	wg     sync.WaitGroup

	endpointSet chan struct{} // closed when endpoint is known
	endpoint    string        // the POST URL, written before endpointSet closes
	// refused, set by the stream's reader before the stream ends, is why
	// the endpoint event was refused.
	refused error

	mu     sync.Mutex
	closed bool
}

// open GETs the event stream and waits, within ctx, for its endpoint event.
func (t *sseTransport) open(ctx context.Context) error {
	req, err := http.NewRequestWithContext(t.ctx, http.MethodGet, t.url, nil)
	if err != nil {
		return err
	}
	req.Header = t.header.Clone()
	if req.Header == nil {
		req.Header = make(http.Header)
	}
	req.Header.Set("Accept", "text/event-stream")
	t.peer.tap(Outbound, KindTransport, []byte("GET event stream"), requestInfo(req))
	stop := context.AfterFunc(ctx, func() {
		select {
		case <-t.endpointSet:
		default:
			t.cancel() // connecting gave up
		}
	})
	defer stop()
	start := time.Now()
	resp, err := t.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("open event stream: %w", ctx.Err())
		}
		return describeHTTPError(req, err)
	}
	info := responseInfo(req, resp)
	info.Elapsed = time.Since(start)
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		return statusError(t.peer, req, resp, info, 0)
	}
	if mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mediaType != "" && mediaType != "text/event-stream" {
		// A web page or some other document, not an event stream.
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, recordLimit))
		t.peer.tap(Inbound, KindParseError, body, info)
		return &ContentTypeError{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: BodySummary(resp.Header.Get("Content-Type"), body)}
	}
	streamEnded := make(chan error, 1)
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		defer resp.Body.Close()
		err := t.read(resp, info, start)
		streamEnded <- err
		t.streamEnded(err)
	}()
	select {
	case <-t.endpointSet:
		t.peer.note(info, "deprecated HTTP+SSE transport: messages go to %s", rawURLText(t.endpoint))
		return nil
	case err := <-streamEnded:
		if t.refused != nil {
			return t.refused
		}
		if ctx.Err() != nil {
			return fmt.Errorf("waiting for the endpoint event: %w", ctx.Err())
		}
		if err == nil {
			err = errors.New("the stream ended")
		}
		return fmt.Errorf("no endpoint event on %s: %w", rawURLText(t.url), err)
	}
}

// read parses the event stream: the endpoint event names the POST URL;
// every other event with data is a message.
func (t *sseTransport) read(resp *http.Response, info *HTTPInfo, start time.Time) error {
	err := parseSSE(resp.Body, t.peer.maxFrameSize(), func(ev sseEvent) {
		evInfo := *info
		evInfo.EventID, evInfo.EventType, evInfo.Retry = ev.id, ev.event, max(ev.retry, 0)
		evInfo.Elapsed = time.Since(start)
		switch {
		case ev.event == "endpoint":
			t.setEndpoint(string(ev.data), &evInfo)
		case len(ev.data) == 0:
			t.peer.tap(Inbound, KindTransport, []byte(describeEmptyEvent(ev)), &evInfo)
		default:
			t.peer.receive(ev.data, &evInfo)
		}
	})
	var tooLarge *frameTooLargeError
	if errors.As(err, &tooLarge) {
		t.peer.tap(Inbound, KindParseError, tooLarge.Head, info)
	}
	return err
}

// setEndpoint resolves the endpoint event's URI against the stream URL and
// records it; later endpoint events are recorded and ignored. An endpoint
// on another origin than the stream's is refused, and the stream closed:
// every message would carry the configured headers there.
func (t *sseTransport) setEndpoint(data string, info *HTTPInfo) {
	t.peer.tap(Inbound, KindTransport, []byte("endpoint event: "+data), info)
	select {
	case <-t.endpointSet:
		return
	default:
	}
	base, _ := url.Parse(t.url)
	ref, err := url.Parse(strings.TrimSpace(data))
	if err != nil {
		t.peer.note(info, "endpoint event ignored: %v", err)
		return
	}
	endpoint := base.ResolveReference(ref)
	if !SameOrigin(endpoint, base) {
		t.refused = fmt.Errorf("the endpoint event names another origin, %s, than the event stream's, %s: "+
			"messages and the configured headers go to the server's origin only", originOf(endpoint), originOf(base))
		t.peer.note(info, "endpoint event refused: %v", t.refused)
		t.cancel()
		return
	}
	t.endpoint = endpoint.String()
	close(t.endpointSet)
}

// streamEnded ends the connection when the event stream stops for any
// reason but Close.
func (t *sseTransport) streamEnded(err error) {
	if t.isClosed() {
		return
	}
	cause := errors.New("the server closed the event stream")
	switch {
	case t.refused != nil:
		cause = t.refused
	case err != nil:
		cause = fmt.Errorf("event stream failed: %w", err)
	}
	t.peer.note(&HTTPInfo{Method: http.MethodGet, URL: t.url}, "%v", cause)
	t.peer.connectionLost(cause)
}

func (t *sseTransport) isClosed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

// send POSTs m to the endpoint and returns once the server accepted it;
// its response, if any, arrives on the event stream.
func (t *sseTransport) send(ctx context.Context, m outbound) error {
	if t.isClosed() {
		return ErrClosed
	}
	select {
	case <-t.endpointSet:
	default:
		return errors.New("no endpoint yet")
	}
	rctx, cancel := context.WithCancel(t.ctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, t.endpoint, strings.NewReader(string(m.body)))
	if err != nil {
		return err
	}
	req.Header = t.header.Clone()
	if req.Header == nil {
		req.Header = make(http.Header)
	}
	req.Header.Set("Content-Type", "application/json")
	t.peer.tap(Outbound, KindMessage, m.body, requestInfo(req))
	start := time.Now()
	resp, err := t.client.Do(req)
	if err != nil {
		return describeHTTPError(req, err)
	}
	defer resp.Body.Close()
	info := responseInfo(req, resp)
	info.Elapsed = time.Since(start)
	if resp.StatusCode/100 != 2 {
		return statusError(t.peer, req, resp, info, m.id)
	}
	return nil
}

// close stops the event stream and waits for its reader.
func (t *sseTransport) close() error {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	t.cancel()
	t.wg.Wait()
	if t.ownClient {
		t.client.CloseIdleConnections()
	}
	return nil
}
