package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// streamWatcher is a transport that may hold an event stream open whose
// end, or the server's absence when reopening it, ends the connection:
// while it holds one, pings would tell nothing more.
type streamWatcher interface {
	watchingStream() bool
}

// defaultKeepAliveTimeout bounds a keep-alive ping when
// Options.KeepAliveTimeout is 0.
const defaultKeepAliveTimeout = 10 * time.Second

// startKeepAlive starts, for a connection over HTTP with Options.KeepAlive
// set, the goroutine that pings the server every
// KeepAlive while no event stream watches it, and ends the connection when
// a ping gets no answer within KeepAliveTimeout. Any answer, an error
// included, says the server is there. The goroutine stops at Close or when
// the connection ends.
func (c *Client) startKeepAlive() {
	watcher, overHTTP := c.t.(streamWatcher)
	if c.opts.KeepAlive <= 0 || !overHTTP {
		return
	}
	c.handlers.Add(1)
	go func() {
		defer c.handlers.Done()
		ticker := time.NewTicker(c.opts.KeepAlive)
		defer ticker.Stop()
		for {
			select {
			case <-c.ctx.Done():
				return
			case <-c.done:
				return
			case <-ticker.C:
			}
			if watcher.watchingStream() {
				continue
			}
			if err := c.ping(); err != nil {
				c.connectionLost(err)
				return
			}
		}
	}()
}

// ping sends a keep-alive ping — in the modern era, which has no ping,
// a server/discover — and returns why the server is taken for gone, nil
// when it answered or the connection is closing.
func (c *Client) ping() error {
	timeout := c.opts.KeepAliveTimeout
	if timeout <= 0 {
		timeout = defaultKeepAliveTimeout
	}
	ctx, cancel := context.WithTimeout(c.ctx, timeout)
	defer cancel()
	method := "ping"
	if c.isModern() {
		method = "server/discover"
	}
	_, err := c.Call(ctx, method, nil)
	var rpcErr *RPCError
	if err == nil || errors.As(err, &rpcErr) || c.ctx.Err() != nil || c.openErr() != nil {
		return nil
	}
	return fmt.Errorf("the server did not answer a keep-alive ping within %v: %w", timeout, err)
}
