package web

import (
	"net"
	"net/http"
)

// clientIP returns the address of the client that made r, without port:
// the peer of the connection.
func (s *Server) clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// isHTTPS reports whether the browser reached the dashboard over TLS, so
// that cookies it is given are marked Secure.
func (s *Server) isHTTPS(r *http.Request) bool { return r.TLS != nil }
