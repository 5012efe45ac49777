package lint

import "fmt"

// lifecycle is where a legacy session is in its handshake.
type lifecycle struct {
	requested   bool // the client sent initialize
	answered    bool // the server answered it
	initialized bool // the client sent notifications/initialized
	told        bool // a lifecycle finding was made: one a session is enough
}

// lifecycleOf checks a request against the legacy handshake: initialize
// first and once, then notifications/initialized before anything but ping.
// A request carrying the modern _meta, or a session of a modern version,
// has no handshake.
func (l *Linter) lifecycleOf(m *msg, out *findings) {
	if l.opts.Excerpt {
		return
	}
	if s := specOf(l.Version()); s != nil && s.modern() || objectOf(m.params()["_meta"])[metaProtocolVersion] != nil {
		return
	}
	life := &l.life
	switch {
	case m.sender == client && m.method == "initialize":
		if life.requested {
			out.add(ruleInitializeTwice, m.ptr("method"), "The client sent initialize a second time.")
		}
		life.requested = true
	case life.told || m.method == "ping":
	case m.sender == client && !life.requested:
		life.told = true
		out.add(ruleInitializeFirst, m.ptr("method"), fmt.Sprintf("The client sent %s before initialize.", m.method))
	case m.sender == client && !life.initialized:
		life.told = true
		out.add(ruleInitializedFirst, m.ptr("method"), fmt.Sprintf("The client sent %s before notifications/initialized.", m.method))
	case m.sender == server && !life.initialized && m.method != "logging/setLevel":
		life.told = true
		out.add(ruleServerEarly, m.ptr("method"), fmt.Sprintf("The server sent %s before the client's notifications/initialized.", m.method))
	}
}
