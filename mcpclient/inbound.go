package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
)

// receive records and dispatches one inbound message. Undecodable input is
// recorded as KindParseError and otherwise ignored.
func (c *Client) receive(body []byte, info *HTTPInfo) {
	m, err := decodeMessage(body)
	if err != nil {
		c.tap(Inbound, KindParseError, body, info)
		return
	}
	c.tap(Inbound, KindMessage, body, info)
	switch {
	case m.isResponse():
		c.deliver(m, body)
	case m.isNotification():
		c.notify(m)
	default:
		c.serve(m)
	}
}

// deliver hands a response to the call waiting for it. Responses to ids no
// call waits for (already recorded) go to Options.OnUnmatched.
func (c *Client) deliver(m *message, body []byte) {
	var id int64
	ch, ok := (chan reply)(nil), false
	if json.Unmarshal(m.ID, &id) == nil {
		ch, ok = c.take(id)
	}
	if !ok {
		if c.opts.OnUnmatched != nil {
			c.notifyMu.Lock()
			defer c.notifyMu.Unlock()
			c.opts.OnUnmatched(body)
		}
		return
	}
	if m.Error != nil {
		ch <- reply{err: m.Error}
		return
	}
	ch <- reply{result: m.Result}
}

// notify routes progress to the call that asked for it, cancels a server
// request the server gave up, and hands every notification to
// Options.OnNotification.
func (c *Client) notify(m *message) {
	switch m.Method {
	case "notifications/progress":
		c.progressed(m.Params)
	case "notifications/cancelled":
		c.serverCancelled(m.Params)
	}
	if c.opts.OnNotification == nil {
		return
	}
	c.notifyMu.Lock()
	defer c.notifyMu.Unlock()
	c.opts.OnNotification(Notification{Method: m.Method, Params: m.Params})
}

// served is a server request being answered.
type served struct {
	cancel    context.CancelFunc
	cancelled bool // by the server; no reply is sent
}

// serve answers a server-to-client request in its own goroutine, so that a
// slow answer never stalls the reader. The answer is not sent when the
// server cancelled the request or the Client is closing.
func (c *Client) serve(m *message) {
	key := idKey(m.ID)
	c.mu.Lock()
	if c.closing || c.ended {
		c.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(c.ctx)
	s := &served{cancel: cancel}
	c.serving[key] = s
	c.handlers.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.handlers.Done()
		defer cancel()
		result, rpcErr := c.handleRequest(ctx, m.Method, m.Params)
		c.mu.Lock()
		if c.serving[key] == s {
			delete(c.serving, key)
		}
		cancelled := s.cancelled
		c.mu.Unlock()
		if cancelled || c.ctx.Err() != nil {
			return
		}
		body, err := encodeResponse(m.ID, result, rpcErr)
		if err != nil {
			return
		}
		// A failed send is visible in the tap or ends the connection.
		_ = c.t.send(c.ctx, outbound{body: body})
	}()
}

// serverCancelled cancels the server request named by a
// notifications/cancelled.
func (c *Client) serverCancelled(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.serving[idKey(p.RequestID)]; s != nil {
		s.cancelled = true
		s.cancel()
	}
}

// idKey normalizes a raw JSON-RPC id for lookup.
func idKey(id json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, id) != nil {
		return string(id)
	}
	return buf.String()
}
