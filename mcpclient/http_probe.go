package mcpclient

// Probes: HTTP requests to a Streamable HTTP connection's endpoint built
// as a tester wants them (a foreign Host, a bad MCP-Protocol-Version, an
// unknown session, a DELETE), recorded like every other exchange.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// ErrNotStreamableHTTP is returned by ProbeHTTP on a connection that does
// not speak Streamable HTTP (stdio, or the deprecated HTTP+SSE transport).
var ErrNotStreamableHTTP = errors.New("the connection does not speak Streamable HTTP")

// HTTPProbe is one HTTP request for ProbeHTTP.
type HTTPProbe struct {
	// Method is POST, GET or DELETE; "" means POST.
	Method string
	// Body is sent exactly as given (a JSON-RPC message, usually); nil
	// sends none.
	Body []byte
	// Header is set over the headers the connection sends with every
	// request (the configured ones, Accept, Content-Type, Mcp-Session-Id,
	// MCP-Protocol-Version and, in the modern era, the headers derived from
	// the body); a name given with the empty value is removed.
	Header http.Header
	// Host, when set, is sent as the Host header in place of the URL's.
	Host string
}

// HTTPProbeResult is how the server answered a probe.
type HTTPProbeResult struct {
	Status int
	Header http.Header
	// Body is the reply's body, at most 64 KiB of it.
	Body []byte
}

// HTTPEndpoint returns the URL of the connection's Streamable HTTP
// endpoint and the Mcp-Session-Id its requests carry ("" when the server
// keeps no session, and in the modern era); ok is false on a connection of
// another transport.
func (c *Client) HTTPEndpoint() (url, sessionID string, ok bool) {
	t, ok := c.t.(*httpTransport)
	if !ok {
		return "", "", false
	}
	if !t.peer.isModern() {
		sessionID = t.session()
	}
	return t.url, sessionID, true
}

// ProbeHTTP sends p to the connection's Streamable HTTP endpoint, with the
// connection's HTTP client, headers and credentials, and returns the
// server's answer; an HTTP error status is an answer, not an error. The
// exchange is recorded by the Tap: the request as an outbound message
// (with the headers sent, Host included when p sets it) or, without a
// body, as a transport frame; a 2xx reply's messages are handed to the
// Client as usual (a response to no waiting call reaches
// Options.OnUnmatched); an error status is recorded as a transport frame,
// then its body as a message when it is JSON, or in that transport frame's
// text when it is not (a refusal need not speak JSON-RPC). A ctx without
// deadline gets Options.RequestTimeout. It returns ErrNotStreamableHTTP on
// a connection of another transport.
func (c *Client) ProbeHTTP(ctx context.Context, p HTTPProbe) (HTTPProbeResult, error) {
	t, ok := c.t.(*httpTransport)
	if !ok {
		return HTTPProbeResult{}, ErrNotStreamableHTTP
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.RequestTimeout)
		defer cancel()
	}
	if err := c.openErr(); err != nil {
		return HTTPProbeResult{}, fmt.Errorf("probe: %w", err)
	}
	return t.probe(ctx, p)
}

func (t *httpTransport) probe(ctx context.Context, p HTTPProbe) (HTTPProbeResult, error) {
	if !t.track() {
		return HTTPProbeResult{}, ErrClosed
	}
	defer t.wg.Done()
	rctx, cancel := context.WithCancel(t.ctx)
	defer cancel()
	defer context.AfterFunc(ctx, cancel)()
	method := p.Method
	if method == "" {
		method = http.MethodPost
	}
	req, err := t.newRequest(rctx, method, p.Body)
	if err != nil {
		return HTTPProbeResult{}, err
	}
	if len(p.Body) > 0 && t.peer.isModern() {
		t.peer.modernHeaders(req.Header, p.Body, t.peer.negotiatedVersion())
	}
	for name, values := range p.Header {
		req.Header.Del(name)
		if len(values) > 0 && !(len(values) == 1 && values[0] == "") {
			req.Header[http.CanonicalHeaderKey(name)] = values
		}
	}
	info := requestInfo(req)
	if p.Host != "" {
		req.Host = p.Host
		info.Header.Set("Host", p.Host)
	}
	if len(p.Body) > 0 {
		t.peer.tap(Outbound, KindMessage, p.Body, info)
	} else {
		t.peer.tap(Outbound, KindTransport, []byte(method+" (probe)"), info)
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return HTTPProbeResult{}, describeHTTPError(req, err)
	}
	defer resp.Body.Close()
	rinfo := responseInfo(req, resp)
	res := HTTPProbeResult{Status: resp.StatusCode, Header: resp.Header}
	kept := &capped{limit: recordLimit}
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.TeeReader(resp.Body, kept), resp.Body}
	switch {
	case resp.StatusCode/100 == 2 && resp.StatusCode != http.StatusAccepted && hasBody(resp):
		err = t.readBody(resp, rinfo)
		res.Body = kept.Bytes()
		return res, err
	case resp.StatusCode/100 == 2:
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, recordLimit))
		t.note(req, resp, "HTTP "+resp.Status)
		res.Body = kept.Bytes()
		return res, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, recordLimit))
	res.Body = body
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) > 0 && (mt == "application/json" || trimmed[0] == '{'):
		t.peer.tap(Inbound, KindTransport, []byte("HTTP "+resp.Status), rinfo)
		t.peer.receive(body, rinfo)
	case len(trimmed) > 0:
		t.peer.tap(Inbound, KindTransport, []byte("HTTP "+resp.Status+": "+strings.Join(strings.Fields(string(trimmed)), " ")), rinfo)
	default:
		t.peer.tap(Inbound, KindTransport, []byte("HTTP "+resp.Status), rinfo)
	}
	if err != nil {
		return res, fmt.Errorf("HTTP %s: read body: %w", resp.Status, err)
	}
	return res, nil
}

// hasBody reports whether resp may carry a body to read as messages.
func hasBody(resp *http.Response) bool {
	return resp.ContentLength != 0 && resp.Header.Get("Content-Type") != ""
}

// capped keeps the first limit bytes written to it.
type capped struct {
	bytes.Buffer
	limit int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.limit - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
