package mcpclient

// The client's requests and notifications, and the slots in which calls
// wait for their responses.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

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
