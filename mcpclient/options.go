package mcpclient

import "time"

// Options tune a connection. The zero value is usable.
type Options struct {
	// Tap, if non-nil, receives every frame of the connection.
	Tap Tap
	// ClientInfo is sent in initialize; zero means {Name: "mcp-playground", Version: "dev"}.
	ClientInfo Implementation
	// ProtocolVersion is the version requested in initialize; "" means "2025-11-25".
	ProtocolVersion string
	// RequestTimeout bounds a request whose context has no deadline; 0 means 60s.
	RequestTimeout time.Duration
	// InitializeTimeout bounds the initialize request; 0 means 10s.
	InitializeTimeout time.Duration
	// OnNotification, if non-nil, receives server-to-client notifications,
	// including those that arrive before the initialize reply. Calls are
	// serialized and made from the goroutine reading the connection, so it
	// must not block for long nor call back into the Client synchronously.
	OnNotification func(Notification)
	// MaxFrameSize bounds one inbound message; 0 means 16 MiB. A larger frame
	// is refused: its start is recorded as KindParseError, and the request it
	// belongs to (HTTP) or the whole connection (stdio) fails with an error
	// naming the limit.
	MaxFrameSize int
}

const (
	defaultProtocolVersion   = "2025-11-25"
	defaultRequestTimeout    = 60 * time.Second
	defaultInitializeTimeout = 10 * time.Second
	defaultMaxFrameSize      = 16 << 20
)

func (o Options) withDefaults() Options {
	if o.ClientInfo == (Implementation{}) {
		o.ClientInfo = Implementation{Name: "mcp-playground", Version: "dev"}
	}
	if o.ProtocolVersion == "" {
		o.ProtocolVersion = defaultProtocolVersion
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = defaultRequestTimeout
	}
	if o.InitializeTimeout <= 0 {
		o.InitializeTimeout = defaultInitializeTimeout
	}
	if o.MaxFrameSize <= 0 {
		o.MaxFrameSize = defaultMaxFrameSize
	}
	return o
}
