package mcpclient

import (
	"context"
	"fmt"
)

// Transport names how a server is reached.
type Transport string

const (
	// TransportStdio starts the server as a child process speaking over
	// its standard input and output.
	TransportStdio Transport = "stdio"
	// TransportHTTP reaches the server at a Streamable HTTP URL.
	TransportHTTP Transport = "http"
	// TransportSSE reaches the server with the deprecated HTTP+SSE
	// transport at its event-stream URL.
	TransportSSE Transport = "sse"
)

// Target is everything needed to reach one server: its transport and that
// transport's settings (Stdio for TransportStdio, HTTP for the other two).
type Target struct {
	Transport Transport
	Stdio     StdioConfig
	HTTP      HTTPConfig
}

// Dial connects to target with opts. It is the one way the playground
// reaches a server: the dashboard's pool and every CLI command dial
// through it, so a transport's options are applied in one place. ctx
// bounds only the connecting.
func Dial(ctx context.Context, target Target, opts Options) (*Client, error) {
	switch target.Transport {
	case TransportStdio:
		return ConnectStdio(ctx, target.Stdio, opts)
	case TransportHTTP:
		return ConnectHTTP(ctx, target.HTTP, opts)
	case TransportSSE:
		return ConnectSSE(ctx, target.HTTP, opts)
	default:
		return nil, fmt.Errorf("unknown transport %q: want stdio, http or sse", target.Transport)
	}
}
