package mcpclient

import "encoding/json"

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
		c.deliver(m)
	case m.isNotification():
		c.notify(m)
	default:
		c.serve(m)
	}
}

// deliver hands a response to the call waiting for it; responses to unknown
// ids (already recorded) are ignored.
func (c *Client) deliver(m *message) {
	var id int64
	if json.Unmarshal(m.ID, &id) != nil {
		return
	}
	ch, ok := c.take(id)
	if !ok {
		return
	}
	if m.Error != nil {
		ch <- reply{err: m.Error}
		return
	}
	ch <- reply{result: m.Result}
}

func (c *Client) notify(m *message) {
	if c.opts.OnNotification == nil {
		return
	}
	c.notifyMu.Lock()
	defer c.notifyMu.Unlock()
	c.opts.OnNotification(Notification{Method: m.Method, Params: m.Params})
}

// serve answers a server-to-client request in its own goroutine, so that a
// slow answer never stalls the reader.
func (c *Client) serve(m *message) {
	c.mu.Lock()
	if c.closing || c.ended {
		c.mu.Unlock()
		return
	}
	c.handlers.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.handlers.Done()
		result, rpcErr := c.handle(m)
		body, err := encodeResponse(m.ID, result, rpcErr)
		if err != nil {
			return
		}
		// A failed send is visible in the tap or ends the connection.
		_ = c.t.send(c.ctx, outbound{body: body})
	}()
}

// handle computes the answer to a server-to-client request. Handlers for
// more methods (sampling, elicitation, roots) belong in this switch.
func (c *Client) handle(m *message) (any, *RPCError) {
	switch m.Method {
	case "ping":
		return struct{}{}, nil
	}
	return nil, &RPCError{Code: codeMethodNotFound, Message: "Method not found"}
}
