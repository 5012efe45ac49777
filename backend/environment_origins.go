package backend

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// An environment's secret values go only where the environment allows:
// Environment.Origins lists origins ("https://mcp.example.com") and, for
// the stdio servers (which only admins register), the word "stdio". A run
// with an environment that has secret variables is refused before any
// request when the session's server is reached anywhere not listed. With
// no origin listed, an environment's stored secret values go nowhere: it
// runs only once someone lists where they may go. Widening the list of an
// environment with stored secrets takes an admin, or the secret values
// typed again (see SaveEnvironment).

// StdioDestination is the Origins entry that allows the stdio servers.
const StdioDestination = "stdio"

// maxOrigins bounds an environment's Origins.
const maxOrigins = 50

// Destinations are the places a session of s sends what it is given:
// "stdio" for a stdio server; for an http or sse server the origin of its
// URL and, when it has one, of its proxy.
func Destinations(s Server) []string {
	if s.Transport == TransportStdio {
		return []string{StdioDestination}
	}
	var out []string
	for _, raw := range []string{s.URL, s.Proxy} {
		if raw == "" {
			continue
		}
		o, err := normalOrigin(raw)
		if err != nil {
			o = raw // never allowed: no listed origin equals it
		}
		out = append(out, o)
	}
	return out
}

// normalOrigin is the origin of an absolute http(s) URL, lower case,
// without user info, path or a default port.
func normalOrigin(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%q is not an origin such as https://mcp.example.com", raw)
	}
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if port == "" || (u.Scheme == "http" && port == "80") || (u.Scheme == "https" && port == "443") {
		if strings.Contains(host, ":") {
			return u.Scheme + "://[" + host + "]", nil
		}
		return u.Scheme + "://" + host, nil
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return u.Scheme + "://" + host + ":" + port, nil
}

// checkOrigins returns origins trimmed, normalised, without repeats, in
// order, or an EInvalid *Error for the field "origins".
func checkOrigins(origins []string) ([]string, error) {
	out := []string{}
	for _, o := range origins {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if o != StdioDestination {
			n, err := normalOrigin(o)
			if err != nil {
				return nil, InvalidField("origins", err.Error()+`, or "stdio".`)
			}
			o = n
		}
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	if len(out) > maxOrigins {
		return nil, InvalidField("origins", fmt.Sprintf("List at most %d origins.", maxOrigins))
	}
	return out, nil
}

// widens reports whether next allows a destination that prev did not.
func widens(prev, next []string) bool {
	for _, o := range next {
		if !slices.Contains(prev, o) {
			return true
		}
	}
	return false
}

// hasSecrets reports whether env has a secret variable.
func (env Environment) hasSecrets() bool {
	return slices.ContainsFunc(env.Values, func(v EnvValue) bool { return v.Secret })
}

// mayGo says, as an EForbidden *Error, why env's secret variables may not
// be sent to dest (a session's Destinations), or returns nil. stored says
// the environment holds secret values of its own (not only values given
// with the run).
func (env Environment) mayGo(dest []string, stored bool) error {
	if len(env.Origins) == 0 {
		if !stored {
			return nil
		}
		return Errorf(EForbidden, "The environment %q holds secret values and lists no origin they may be sent to: list this server's (%s) under the environment's \"Secrets go only to\" to run with it.",
			env.Name, strings.Join(dest, ", "))
	}
	for _, d := range dest {
		if !slices.Contains(env.Origins, d) {
			return Errorf(EForbidden, "The environment %q sends its secret values only to %s; this session's server is reached at %s. Nothing was sent.",
				env.Name, strings.Join(env.Origins, ", "), strings.Join(dest, ", "))
		}
	}
	return nil
}
