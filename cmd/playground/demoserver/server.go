// Package demoserver is the MCP server bundled with MCP Playground.
//
// It registers one example of every feature a playground needs to show:
// tools with rich input schemas, structured output, images, errors, progress,
// cancellation, elicitation, sampling and logging; static, binary, templated
// and changing resources with subscriptions; prompts with arguments; and
// argument completion. See tools.go, resources.go and prompts.go.
package demoserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	serverName    = "playground-demo"
	serverVersion = "1.0.0"

	// clockInterval is how often subscribers of demo://clock are told it changed.
	clockInterval = 2 * time.Second
	// shutdownTimeout bounds how long Run waits for HTTP connections to drain.
	shutdownTimeout = 5 * time.Second
	// httpSessionTimeout closes HTTP sessions that have been idle this long.
	httpSessionTimeout = 30 * time.Minute
)

const instructions = `This is the MCP Playground demo server. It exists to exercise every MCP feature:
- tools: echo, add, greet, create_user, plan_trip (rich input schemas), weather (structured output),
  tiny_image (image content), rich_result (every kind of content block), big_result (a result of
  any size), fail (isError result), protocol_error (a JSON-RPC error), slow (progress and
  cancellation), ask_name (elicitation), summarize (sampling), log (log notifications),
  toggle_bonus (changes the tool list);
- resources: demo://readme, demo://config.json, demo://logo.png (binary),
  demo://clock (changes; subscribe to get notifications/resources/updated),
  and the template demo://users/{id};
- prompts: code_review and greeting, with argument completion.`

// demo is a demo server together with what it owns: the lifetime of its
// in-flight requests and of the clock that notifies subscribers.
type demo struct {
	server *mcp.Server
	clock  *clock
	// life ends every in-flight request handler and the clock when it is done.
	life context.Context
}

// New returns the demo server with every feature registered.
//
// The server is not bound to any lifetime: a clock goroutine runs only while
// some live session is subscribed to demo://clock, and stops on its own when
// no subscriber remains. Use [Run] to serve with a bounded lifetime.
func New() *mcp.Server {
	return newDemo(context.Background(), clockInterval).server
}

// newDemo builds the demo server. When life is done, in-flight request
// handlers see their contexts cancelled and the clock stops; the caller must
// then call d.clock.wait to join the clock goroutine.
func newDemo(life context.Context, tick time.Duration) *demo {
	d := &demo{life: life}
	d.clock = newClock(life, tick)
	d.server = mcp.NewServer(
		&mcp.Implementation{Name: serverName, Title: "MCP Playground demo server", Version: serverVersion},
		&mcp.ServerOptions{
			Instructions:       instructions,
			Capabilities:       &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}},
			CompletionHandler:  complete,
			SubscribeHandler:   d.clock.subscribe,
			UnsubscribeHandler: d.clock.unsubscribe,
		})
	d.clock.server = d.server
	d.server.AddReceivingMiddleware(d.bindLifetime)
	addTools(d.server)
	addDynamicTools(d.server)
	addResources(d.server)
	addPrompts(d.server)
	return d
}

// bindLifetime cancels every request handler's context when the demo's
// lifetime ends, so that a pending slow call or an unanswered elicitation
// cannot hold up shutdown. It also hardens handlers against odd input: it
// turns "arguments": null into {} (the SDK v1.8.0 panics applying schema
// defaults to null) and turns a handler panic into an internal error instead
// of a crashed process.
func (d *demo) bindLifetime(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (_ mcp.Result, err error) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		stop := context.AfterFunc(d.life, cancel)
		defer stop()
		defer func() {
			if r := recover(); r != nil {
				err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("demoserver: %s panicked: %v", method, r)}
			}
		}()
		if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && isJSONNull(p.Arguments) {
			p.Arguments = json.RawMessage("{}")
		}
		return next(ctx, method, req)
	}
}

// isJSONNull reports whether raw is the JSON literal null.
func isJSONNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// Run serves the demo server until ctx is done: over stdio (stdin/stdout)
// when httpAddr is "", else over Streamable HTTP on httpAddr at path /mcp,
// logging the listening URL to stderr.
//
// When ctx is done, Run cancels in-flight requests, closes every session and
// returns nil once they are gone; it returns an error only when serving
// failed (for example, httpAddr cannot be listened on).
//
// Over stdio, Run also returns nil when the client closes stdin. If stdin is
// an [io.Closer], Run closes it before returning, which unblocks a pending
// read; stdout is never closed. Over HTTP, stdin and stdout are unused.
func Run(ctx context.Context, httpAddr string, stdin io.Reader, stdout, stderr io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	d := newDemo(ctx, clockInterval)
	defer d.clock.wait()
	defer cancel()
	if httpAddr == "" {
		return d.serveStdio(ctx, stdin, stdout)
	}
	return d.serveHTTP(ctx, httpAddr, stderr)
}

// serveStdio serves one session over newline-delimited JSON on stdin/stdout.
// A line that is not a JSON-RPC message the SDK can take gets a JSON-RPC
// error, and the session goes on (see lineFilter).
func (d *demo) serveStdio(ctx context.Context, stdin io.Reader, stdout io.Writer) error {
	rc, ok := stdin.(io.ReadCloser)
	if !ok {
		rc = io.NopCloser(stdin)
	}
	defer rc.Close() // the session usually has closed it already
	out := &syncWriter{w: stdout}
	// The filter passes frames of at most DefaultMaxLineLength bytes and a
	// newline.
	in := newLineFilter(rc, out, mcp.DefaultMaxLineLength)
	t := &mcp.IOTransport{Reader: in, Writer: out, MaxLineLength: mcp.DefaultMaxLineLength + 1}
	err := d.server.Run(ctx, t)
	if ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("demoserver: stdio: %w", err)
	}
	return nil
}

// serveHTTP serves Streamable HTTP on addr at /mcp until ctx is done.
func (d *demo) serveHTTP(ctx context.Context, addr string, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("demoserver: listen: %w", err)
	}
	handler := mcp.NewStreamableHTTPHandler(
		func(*http.Request) *mcp.Server { return d.server },
		&mcp.StreamableHTTPOptions{SessionTimeout: httpSessionTimeout},
	)
	mux := http.NewServeMux()
	mux.Handle("/mcp", checkPosts(handler, mcp.DefaultMaxRequestBodyBytes))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	fmt.Fprintf(stderr, "%s %s listening on %s\n", serverName, serverVersion, endpointURL(ln.Addr()))

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	select {
	case err := <-served:
		d.closeSessions()
		return fmt.Errorf("demoserver: serve: %w", err)
	case <-ctx.Done():
	}
	// ctx is done, so handlers are cancelled: closing sessions ends their
	// long-lived streams, after which the HTTP server drains quickly.
	d.closeSessions()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		srv.Close()
	}
	<-served // http.ErrServerClosed
	return nil
}

// closeSessions closes every session of the server.
func (d *demo) closeSessions() {
	for ss := range d.server.Sessions() {
		ss.Close()
	}
}

// endpointURL is the URL of the /mcp endpoint on a listening address; an
// unspecified host (":8080", "0.0.0.0") is shown as localhost.
func endpointURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/mcp"
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/mcp"
}
