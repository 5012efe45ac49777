package web

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientIP returns the address of the client that made r, without port.
// It is the connection's peer, unless the peer is a trusted proxy
// (Config.TrustedProxies): then it is the right-most address of
// X-Forwarded-For that is not itself a trusted proxy. Each proxy appends
// the address it was reached from, so the entries right of the first
// untrusted one were written by trusted proxies, and everything left of
// it may have been made up by the client. When a trusted proxy wrote
// something that is no address, the last trusted hop is the answer.
func (s *Server) clientIP(r *http.Request) string {
	peer, ok := peerAddr(r)
	if !ok {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		if err != nil {
			return r.RemoteAddr
		}
		return host
	}
	client := peer
	hops := forwardedFor(r.Header)
	for i := len(hops) - 1; i >= 0 && s.trustedProxy(client); i-- {
		hop, err := netip.ParseAddr(hops[i])
		if err != nil {
			break
		}
		client = hop.Unmap()
	}
	return client.String()
}

// isHTTPS reports whether the browser reached the dashboard over TLS, so
// that cookies it is given are marked Secure: the connection is TLS, or
// its peer is a trusted proxy whose X-Forwarded-Proto (the last value,
// the one that proxy set) says https.
func (s *Server) isHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	peer, ok := peerAddr(r)
	if !ok || !s.trustedProxy(peer) {
		return false
	}
	protos := strings.Split(strings.Join(r.Header.Values("X-Forwarded-Proto"), ","), ",")
	return strings.EqualFold(strings.TrimSpace(protos[len(protos)-1]), "https")
}

// trustedProxy reports whether addr is inside Config.TrustedProxies.
func (s *Server) trustedProxy(addr netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

// peerAddr is the IP address of r's connection peer, IPv4 addresses
// mapped into IPv6 unmapped.
func peerAddr(r *http.Request) (netip.Addr, bool) {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{}, false
	}
	return ap.Addr().Unmap(), true
}

// forwardedFor lists the X-Forwarded-For entries of h, left to right,
// across repeated headers, without blanks.
func forwardedFor(h http.Header) []string {
	var hops []string
	for _, v := range h.Values("X-Forwarded-For") {
		for _, hop := range strings.Split(v, ",") {
			if hop = strings.TrimSpace(hop); hop != "" {
				hops = append(hops, hop)
			}
		}
	}
	return hops
}
