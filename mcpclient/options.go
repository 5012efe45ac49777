package mcpclient

import "time"

// Options tune a connection. The zero value is usable.
type Options struct {
	// Tap, if non-nil, receives every frame of the connection.
	Tap Tap
	// ClientInfo is sent in initialize; zero means {Name: "mcp-playground", Version: "dev"}.
	ClientInfo Implementation
	// ProtocolVersion is the version requested in initialize; "" means "2025-11-25".
	// In the modern era it is the version requests carry when it is a
	// modern one (else the newest modern version).
	ProtocolVersion string
	// Era is the protocol era to speak: EraLegacy (initialize handshake),
	// EraModern (per-request _meta, server/discover) or EraAuto (probe, as
	// the specification says). "" asks for RequestedEra's choice: EraModern
	// when ProtocolVersion is a modern version, else EraLegacy. See era.go.
	Era Era
	// RequestTimeout bounds a request whose context has no deadline and whose
	// method has no timeout in Timeouts; 0 means 60s. It also bounds SendRaw.
	RequestTimeout time.Duration
	// Timeouts bound requests, by method, whose context has no deadline.
	// Entries here override the defaults: initialize, tools/list,
	// resources/list, resources/templates/list and prompts/list 5s,
	// tools/call 60s, resources/read 10s, prompts/get 5s. A non-positive
	// entry means the default. The map is read, never modified.
	Timeouts map[string]time.Duration
	// InitializeTimeout bounds the handshake; 0 means the initialize entry
	// of Timeouts (5s by default).
	InitializeTimeout time.Duration
	// Handler, if non-nil, answers the server's requests (sampling,
	// elicitation, roots, ...) and, if it is a CapabilityProvider, says which
	// capabilities the client declares. With none, the client declares no
	// capabilities, answers ping and refuses every other request with
	// -32601.
	Handler Handler
	// OnUnmatched, if non-nil, receives every inbound response whose id
	// matches no waiting call: answers to requests sent with SendRaw, late
	// answers to calls that gave up, answers to ids never used. Such
	// responses are recorded by the Tap whether or not OnUnmatched is set.
	// It is called like OnNotification (serialized with it, from the reading
	// goroutine), with the exact bytes received, which it must not modify.
	OnUnmatched func(body []byte)
	// OnNotification, if non-nil, receives server-to-client notifications,
	// including those that arrive before the initialize reply. Calls are
	// serialized and made from the goroutine reading the connection, so it
	// must not block for long nor call back into the Client synchronously.
	OnNotification func(Notification)
	// MaxFrameSize bounds one inbound message; 0 means 16 MiB. A larger frame
	// is refused: its start is recorded as KindParseError, and the request it
	// belongs to fails with an error naming the limit. Over stdio, when the
	// frame is not plainly a response with an id (found in its first 64 KiB
	// or its last bytes), the whole connection fails instead.
	MaxFrameSize int
	// KeepAlive, when positive, is how often a connection over Streamable
	// HTTP in the legacy era pings the server while no standalone event
	// stream watches it (the server offers none, or it was given up); a
	// ping unanswered within KeepAliveTimeout (0: 10s) ends the
	// connection, as the end of the stream does (see ConnectHTTP). The
	// pings are recorded like every request.
	KeepAlive        time.Duration
	KeepAliveTimeout time.Duration
}

// defaultTimeouts are the per-method defaults of Options.Timeouts.
var defaultTimeouts = map[string]time.Duration{
	"initialize":               5 * time.Second,
	"tools/list":               5 * time.Second,
	"resources/list":           5 * time.Second,
	"resources/templates/list": 5 * time.Second,
	"prompts/list":             5 * time.Second,
	"tools/call":               60 * time.Second,
	"resources/read":           10 * time.Second,
	"prompts/get":              5 * time.Second,
}

// timeout returns how long a request for method may take when its context
// has no deadline.
func (o Options) timeout(method string) time.Duration {
	if d := o.Timeouts[method]; d > 0 {
		return d
	}
	if d := defaultTimeouts[method]; d > 0 {
		return d
	}
	return o.RequestTimeout
}

const (
	defaultProtocolVersion = "2025-11-25"
	defaultRequestTimeout  = 60 * time.Second
	defaultMaxFrameSize    = 16 << 20
)

func (o Options) withDefaults() Options {
	if o.ClientInfo.Name == "" && o.ClientInfo.Version == "" {
		o.ClientInfo = Implementation{Name: "mcp-playground", Version: "dev"}
	}
	if o.ProtocolVersion == "" {
		o.ProtocolVersion = defaultProtocolVersion
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = defaultRequestTimeout
	}
	if o.InitializeTimeout <= 0 {
		o.InitializeTimeout = o.timeout("initialize")
	}
	if o.MaxFrameSize <= 0 {
		o.MaxFrameSize = defaultMaxFrameSize
	}
	return o
}
