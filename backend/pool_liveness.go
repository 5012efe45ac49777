package backend

import "time"

// defaultKeepAlive is how often the pool pings a server over Streamable
// HTTP in the legacy era that holds no event stream open, to notice that
// it went away (mcpclient.Options.KeepAlive). A server over stdio is
// watched through its process, one over HTTP with an event stream through
// that stream, and either closes its session as soon as it is gone, with
// the cause as the close reason.
const defaultKeepAlive = 30 * time.Second

// WithKeepAlive sets how often the pool pings a quiet HTTP server (30 s by
// default); 0 turns the pings off.
func WithKeepAlive(every time.Duration) PoolOption {
	return func(p *Pool) { p.keepAlive = every }
}
