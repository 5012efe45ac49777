package mcpclient

// What a failed HTTP exchange of either HTTP transport turns into: an
// error status (HTTPStatusError, or the JSON-RPC error its body carries)
// and a request that got no answer at all.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// ContentTypeError reports a 2xx answer that is not what the transport
// reads (JSON or an event stream to a Streamable HTTP POST, an event
// stream to the HTTP+SSE GET): the URL is most likely not an MCP endpoint.
type ContentTypeError struct {
	Status      int    // the status code, such as 200
	ContentType string // as the server sent it, "" when it sent none
	Body        string // what the body holds, in a few words (BodySummary)
}

func (e *ContentTypeError) Error() string {
	return fmt.Sprintf("unexpected response Content-Type %q (HTTP %d with %s)", e.ContentType, e.Status, e.Body)
}

// HTTPStatusError is an HTTP error status that answered a request, when its
// body was not a JSON-RPC response to that request.
type HTTPStatusError struct {
	Status  int    // the status code, such as 404
	Text    string // the status line text, such as "404 Not Found"
	Body    string // what the response body holds, in a few words (BodySummary); "" when empty
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

// statusError records an HTTP error status and its body. A body that is a
// JSON-RPC response is recorded and dispatched as a message, and when it
// answers request id, statusError returns nil: the request has its (error)
// response. Otherwise it returns an *HTTPStatusError.
func statusError(p peer, req *http.Request, resp *http.Response, info *HTTPInfo, id int64) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, recordLimit))
	sid := req.Header.Get("Mcp-Session-Id")
	serr := &HTTPStatusError{
		Status:  resp.StatusCode,
		Text:    resp.Status,
		Session: sid,
		SessionGone: sid != "" && (resp.StatusCode == http.StatusNotFound ||
			resp.StatusCode == http.StatusBadRequest && strings.Contains(strings.ToLower(string(body)), "session")),
	}
	if len(bytes.TrimSpace(body)) > 0 {
		serr.Body = BodySummary(resp.Header.Get("Content-Type"), body)
	}
	if m, err := decodeMessage(body); err == nil && m.isResponse() && !serr.SessionGone {
		p.tap(Inbound, KindTransport, []byte("HTTP "+resp.Status), info)
		p.receive(body, info)
		var got int64
		if id != 0 && json.Unmarshal(m.ID, &got) == nil && got == id {
			return nil
		}
		return serr
	}
	text := "HTTP " + resp.Status
	if len(body) > 0 {
		text += ": " + string(body)
	}
	p.tap(Inbound, KindTransport, []byte(text), info)
	return serr
}

// describeHTTPError rewrites a client error for a human: "connect <url>:
// connection refused" when the server cannot be reached. The URL is named
// by urlText, without its credentials.
func describeHTTPError(req *http.Request, err error) error {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		inner := opErr.Err
		var sysErr *os.SyscallError
		if errors.As(inner, &sysErr) {
			inner = sysErr.Err
		}
		return fmt.Errorf("connect %s: %w", urlText(req.URL), inner)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	return fmt.Errorf("%s %s: %w", req.Method, urlText(req.URL), err)
}
