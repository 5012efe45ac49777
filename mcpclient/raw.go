package mcpclient

import (
	"bytes"
	"context"
	"fmt"
)

// rawSender is implemented by transports that need to treat SendRaw frames
// differently from the messages the Client builds; the others get them
// through send, with outbound.raw set.
type rawSender interface {
	sendRaw(ctx context.Context, body []byte) error
}

// SendRaw writes b to the server as one frame, exactly as given, whatever
// it holds: malformed JSON, a wrong "jsonrpc" value, a duplicate or reused
// id, a request without _meta, a notification. Nothing is checked or added.
// The Tap records b as an outbound KindMessage frame, byte for byte.
//
// Over stdio, b is written followed by "\n" (a "\n" inside b splits it into
// several lines for the server). Over HTTP, b is POSTed as the request body
// with the session's usual headers, and SendRaw returns once the reply has
// been read; an HTTP error status is returned as an error, and its body is
// recorded and handled like any inbound data.
//
// Whatever the server sends back is recorded by the Tap and dispatched as
// usual: a response whose id matches a waiting call goes to that call (so a
// raw frame reusing the id of a pending Call can steal its answer, which is
// what such a probe is for); any other response goes to Options.OnUnmatched.
// A ctx without deadline gets Options.RequestTimeout.
func (c *Client) SendRaw(ctx context.Context, b []byte) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.opts.RequestTimeout)
		defer cancel()
	}
	if err := c.openErr(); err != nil {
		return fmt.Errorf("send raw: %w", err)
	}
	body := bytes.Clone(b)
	var err error
	if rs, ok := c.t.(rawSender); ok {
		err = rs.sendRaw(ctx, body)
	} else {
		err = c.t.send(ctx, outbound{body: body, raw: true})
	}
	if err != nil {
		return fmt.Errorf("send raw: %w", err)
	}
	return nil
}
