package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
)

// Handler answers the requests a server sends to the client:
// sampling/createMessage, elicitation/create (form and URL mode),
// roots/list, and whatever else the server asks, such as tasks/get when the
// client runs a request as a task. In the legacy era they arrive as
// JSON-RPC requests; in the modern era as the inputRequests of an
// input_required result. Both reach the same Handler.
//
// Handle gets the method and its raw params (nil when absent) and returns
// the raw result (nil means {}). An error that is an *RPCError is sent as
// that JSON-RPC error; any other error is sent as -32603 (internal error)
// with the error's text as its message. ctx is cancelled when the server
// cancels the request (notifications/cancelled; no reply is sent then) and
// when the Client is closed. Handle is called from its own goroutine, one
// per request, so it may block (for instance while a person answers) and
// may call back into the Client; but Close waits for every Handle to
// return, so Handle must return soon after ctx is done.
//
// ping is answered by the Client itself and never reaches the Handler.
// With no Handler (Options.Handler nil), every other method is answered
// with -32601 (method not found).
type Handler interface {
	Handle(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
}

// CapabilityProvider is an optional interface of a Handler. Capabilities
// returns the client capabilities object (a JSON object such as
// {"sampling":{},"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true}})
// that the Client declares in initialize (and, in the modern era, in each
// request's _meta). It is called once per connection, before the handshake.
// A Handler that does not implement it, or returns nil, makes the Client
// declare no capabilities ({}), so that servers send it nothing it cannot
// answer.
type CapabilityProvider interface {
	Capabilities() json.RawMessage
}

// HandlerFunc adapts a function to a Handler. It declares no capabilities.
type HandlerFunc func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	return f(ctx, method, params)
}

// Mux is a Handler that routes each method to the function registered for
// it and answers other methods with -32601. It is a CapabilityProvider:
// unless Caps is set, it declares the capabilities implied by the methods
// registered (see Capabilities). Register every method before passing the
// Mux to a Connect function; a Mux is not safe for registering while in use.
type Mux struct {
	// Caps, if non-nil, is returned by Capabilities as is.
	Caps json.RawMessage
	// Extensions, when Caps is nil, are declared under the capabilities'
	// "extensions" member, keyed by extension id (for instance
	// "io.modelcontextprotocol/ui" with its settings object).
	Extensions map[string]json.RawMessage

	funcs map[string]HandlerFunc
}

// HandleFunc registers f for method, replacing any earlier registration.
func (m *Mux) HandleFunc(method string, f HandlerFunc) {
	if m.funcs == nil {
		m.funcs = make(map[string]HandlerFunc)
	}
	m.funcs[method] = f
}

// Handle calls the function registered for method, or answers -32601.
func (m *Mux) Handle(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	if f, ok := m.funcs[method]; ok {
		return f(ctx, method, params)
	}
	return nil, &RPCError{Code: codeMethodNotFound, Message: "Method not found"}
}

// Capabilities returns Caps when set. Otherwise it declares sampling when
// sampling/createMessage is registered, elicitation in form and URL mode
// when elicitation/create is, roots (with listChanged) when roots/list
// is, and Extensions when there are any.
func (m *Mux) Capabilities() json.RawMessage {
	if m.Caps != nil {
		return m.Caps
	}
	var caps ClientCapabilities
	for method := range m.funcs {
		switch method {
		case MethodSample:
			caps.Sampling = &SamplingCapability{}
		case MethodElicit:
			caps.Elicitation = BothElicitModes()
		case MethodRootsList:
			caps.Roots = &RootsCapability{ListChanged: true}
		}
	}
	caps.Extensions = m.Extensions
	return caps.JSON()
}

// Error codes the client sends in answers to server requests.
const (
	codeInternalError = -32603
)

// clientCapabilities returns the capabilities to declare: what the
// Handler provides, else {}. It is computed once, in newClient.
func clientCapabilities(h Handler) json.RawMessage {
	if p, ok := h.(CapabilityProvider); ok {
		if caps := p.Capabilities(); len(caps) > 0 && json.Valid(caps) {
			return caps
		}
	}
	return json.RawMessage(`{}`)
}

// handleRequest computes the answer to a server-to-client request: ping
// and, in the legacy era, client-hosted tasks (tasks_host.go) are answered
// here, the rest by the Handler. It returns the result, or the
// error to send.
func (c *Client) handleRequest(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *RPCError) {
	if method == "ping" {
		return json.RawMessage(`{}`), nil
	}
	if res, rpcErr, ok := c.hostRequest(method, params); ok {
		return res, rpcErr
	}
	if c.opts.Handler == nil {
		return nil, &RPCError{Code: codeMethodNotFound, Message: "Method not found"}
	}
	res, err := c.opts.Handler.Handle(ctx, method, params)
	if err != nil {
		var rpcErr *RPCError
		if errors.As(err, &rpcErr) {
			return nil, rpcErr
		}
		return nil, &RPCError{Code: codeInternalError, Message: err.Error()}
	}
	if len(res) == 0 {
		return json.RawMessage(`{}`), nil
	}
	if !json.Valid(res) {
		return nil, &RPCError{Code: codeInternalError, Message: "the client's handler returned invalid JSON"}
	}
	return res, nil
}
