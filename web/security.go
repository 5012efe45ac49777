package web

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

const csrfKey = "csrf"

// hostPolicy is the set of Host header values the dashboard answers to.
// Checking it defeats DNS rebinding: a page on evil.example that resolves
// to 127.0.0.1 still sends Host: evil.example.
type hostPolicy map[string]bool

// newHostPolicy accepts addr itself and, for loopback listeners, the
// loopback names with the same port, plus extra (host or host:port).
func newHostPolicy(addr string, extra []string) hostPolicy {
	p := hostPolicy{}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		host, port = addr, ""
	}
	withPort := func(h string) string {
		if port == "" {
			return h
		}
		return net.JoinHostPort(h, port)
	}
	p[strings.ToLower(withPort(host))] = true
	if ip := net.ParseIP(host); (ip != nil && ip.IsLoopback()) || host == "localhost" {
		for _, h := range []string{"127.0.0.1", "localhost", "::1"} {
			p[withPort(h)] = true
		}
	}
	for _, h := range extra {
		p[strings.ToLower(h)] = true
	}
	return p
}

func (p hostPolicy) allows(host string) bool {
	return host != "" && p[strings.ToLower(host)]
}

// checkHostAndOrigin refuses requests whose Host is not the dashboard's, and
// requests (WebSocket upgrades included) whose Origin is another site's.
func (s *Server) checkHostAndOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		// Orchestrators probe the pod's address, not a name the dashboard
		// answers to, so the health check answers whatever the Host and
		// Origin. That is safe: it is GET only, reads no data (its answer
		// is "ok" or a short reason) and changes no state, so a page that
		// reaches it by DNS rebinding learns only whether the dashboard is
		// up. Probes send no fetch metadata: other sites' pages are still
		// refused below.
		probe := r.Method == http.MethodGet && r.URL.Path == healthPath
		if !probe && !s.hosts.allows(r.Host) {
			s.deps.Log.Warn("refused request for an unknown host", "host", r.Host, "path", r.URL.Path)
			return c.String(http.StatusMisdirectedRequest, "This dashboard does not answer to the host "+r.Host+".\n")
		}
		if origin := r.Header.Get("Origin"); origin != "" && !probe && !s.sameOrigin(r, origin) {
			s.deps.Log.Warn("refused cross-origin request", "origin", origin, "path", r.URL.Path)
			return c.String(http.StatusForbidden, "Cross-origin requests are refused.\n")
		}
		if foreignSubresource(r) {
			s.deps.Log.Warn("refused a request another site's page made", "site", r.Header.Get("Sec-Fetch-Site"),
				"dest", r.Header.Get("Sec-Fetch-Dest"), "path", r.URL.Path)
			return c.String(http.StatusForbidden, "This dashboard answers other sites' pages only when they link to it.\n")
		}
		return next(c)
	}
}

// foreignSubresource reports whether the browser marked r as made by
// another site's page, or by a same-site one such as an MCP App on the
// apps origin, for anything but following a link (a top-level GET
// navigation): an image, a script, a frame, a fetch. Such requests carry
// no Origin when they are GETs, yet a GET of a section sends MCP requests
// (listing the server's items), so they are refused whatever their
// method. Requests without fetch metadata are judged by the other checks.
func foreignSubresource(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "cross-site", "same-site":
	default:
		return false
	}
	link := (r.Method == http.MethodGet || r.Method == http.MethodHead) &&
		r.Header.Get("Sec-Fetch-Mode") == "navigate" && r.Header.Get("Sec-Fetch-Dest") == "document"
	return !link
}

// sameOrigin reports whether origin, the Origin header of r, is one of the
// dashboard's own: scheme://host with a host it answers to and the scheme
// r came over (https over TLS or from a trusted proxy that says so, else
// http), or else exactly the base URL's scheme and host. An https page of
// the dashboard's host is another origin than its http one, and may be
// another server's (a port forward, a proxy in front of something else).
func (s *Server) sameOrigin(r *http.Request, origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil || u.Opaque != "" || !s.hosts.allows(u.Host) {
		return false
	}
	scheme := "http"
	if s.isHTTPS(r) {
		scheme = "https"
	}
	if u.Scheme == scheme {
		return true
	}
	base, err := url.Parse(s.cfg.BaseURL)
	return s.cfg.BaseURL != "" && err == nil && strings.EqualFold(u.Scheme, base.Scheme) && strings.EqualFold(u.Host, base.Host)
}
