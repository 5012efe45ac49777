package web

import (
	"net/url"
	"slices"
)

// PublicURL returns the address people use to reach path (which starts
// with "/") on the dashboard: Config.BaseURL + path, or, without a base
// URL, the listener's scheme://addr + path. Links the dashboard prints or
// sends out use it.
func (s *Server) PublicURL(path string) string {
	if s.cfg.BaseURL != "" {
		return s.cfg.BaseURL + path
	}
	return s.cfg.scheme() + "://" + s.cfg.Addr + path
}

// scheme is the listeners' scheme: https with TLS, else http.
func (c Config) scheme() string {
	if c.TLS {
		return "https"
	}
	return "http"
}

// appsURL is where the dashboard frames MCP Apps from: AppsBaseURL, or
// the apps listener's URL.
func (c Config) appsURL() string {
	if c.AppsBaseURL != "" {
		return c.AppsBaseURL
	}
	return c.scheme() + "://" + c.AppsAddr
}

// dashboardOrigins are the origins the dashboard's pages can have, sorted:
// its base URL's, and the listeners' scheme with each Host it answers to
// (host:port, as in a URL).
func dashboardOrigins(c Config, hosts hostPolicy) []string {
	var origins []string
	if c.BaseURL != "" {
		origins = append(origins, c.BaseURL)
	}
	for h := range hosts {
		origins = append(origins, c.scheme()+"://"+h)
	}
	slices.Sort(origins)
	return slices.Compact(origins)
}

// urlHosts is the host (host[:port]) of u, as a list for newHostPolicy's
// extra hosts; none when u is "" or has no host.
func urlHosts(u string) []string {
	parsed, err := url.Parse(u)
	if u == "" || err != nil || parsed.Host == "" {
		return nil
	}
	return []string{parsed.Host}
}
