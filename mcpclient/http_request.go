package mcpclient

// The requests of the Streamable HTTP transport, and how the tap describes
// an HTTP exchange.

import (
	"bytes"
	"context"
	"io"
	"net/http"
)

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
	if sid := t.session(); sid != "" && !t.peer.isModern() {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	if v := t.peer.negotiatedVersion(); v != "" {
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
	case t.peer.isModern():
		t.peer.modernHeaders(req.Header, m.body, t.peer.negotiatedVersion())
	}
	return req, nil
}

func requestInfo(req *http.Request) *HTTPInfo {
	return &HTTPInfo{Method: req.Method, URL: req.URL.String(), Header: req.Header.Clone()}
}

func responseInfo(req *http.Request, resp *http.Response) *HTTPInfo {
	return &HTTPInfo{Method: req.Method, URL: req.URL.String(), Status: resp.StatusCode, Header: resp.Header}
}

// note records a transport event about the exchange req (and resp, if any).
func (t *httpTransport) note(req *http.Request, resp *http.Response, text string) {
	info := &HTTPInfo{Method: req.Method, URL: req.URL.String()}
	if resp != nil {
		info = responseInfo(req, resp)
	}
	t.peer.tap(Inbound, KindTransport, []byte(text), info)
}
