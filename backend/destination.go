package backend

import (
	"encoding/pem"
	"fmt"
	"net/url"
	"strings"

	"github.com/mcp-playground/playground/mcpclient"
)

// DestinationChange names how an edit of a server changes where its
// traffic goes; "" is no change. A change of destination carries no stored
// secret along: header values, URL parts, the OAuth client secret and
// private key, and OAuth sign-ins stay with the old one (restoreSecrets,
// Registry.Update).
type DestinationChange string

const (
	// MovedOrigin: the URL moved to another scheme, host or port.
	MovedOrigin DestinationChange = "origin"
	// MovedProxy: the traffic goes through another proxy, through one
	// where it went direct, or direct where it went through one.
	MovedProxy DestinationChange = "proxy"
	// MovedVerifyOff: TLS certificate verification was turned off.
	MovedVerifyOff DestinationChange = "verify-off"
	// MovedCA: CA certificates that were not trusted before are.
	MovedCA DestinationChange = "ca"
)

// Phrase says the change in words that follow "and" or "because".
func (c DestinationChange) Phrase() string {
	switch c {
	case MovedOrigin:
		return "the URL moved to another scheme, host or port"
	case MovedProxy:
		return "the proxy changed"
	case MovedVerifyOff:
		return "TLS certificate verification was turned off"
	case MovedCA:
		return "other CA certificates are trusted"
	}
	return ""
}

// ParseDestinationChange returns the change named s; false for a name of none.
func ParseDestinationChange(s string) (DestinationChange, bool) {
	c := DestinationChange(s)
	return c, c.Phrase() != ""
}

// destinationChange says how edited, the settings of a server as they are
// about to be saved, change where the server's traffic goes compared with
// stored: to another origin (scheme, host and port) of its URL, or a
// change of the way there (pathChange).
func destinationChange(stored, edited Server) DestinationChange {
	if !sameOriginURLs(stored.URL, edited.URL) {
		return MovedOrigin
	}
	return pathChange(stored, edited)
}

// pathChange says how edited changes the way to the server, which the
// proxy's credentials travel too: through another proxy, with other CA
// certificates trusted, or with TLS verification turned off (both also
// apply to an https proxy). Turning verification back on, and dropping CA
// certificates, trust less: no change.
func pathChange(stored, edited Server) DestinationChange {
	switch {
	case !sameOriginURLs(stored.Proxy, edited.Proxy):
		return MovedProxy
	case edited.InsecureSkipVerify && !stored.InsecureSkipVerify:
		return MovedVerifyOff
	case !trustsNoMore(stored.CACertPEM, edited.CACertPEM):
		return MovedCA
	}
	return ""
}

// DroppedOAuth is what a change of a server's destination removed of its
// OAuth secrets.
type DroppedOAuth struct {
	ClientSecret bool // the client secret of its OAuth settings
	PrivateKey   bool // the private key of its client assertions
	Grants       int  // people's sign-ins, with their tokens
}

// Any reports whether anything was removed.
func (d DroppedOAuth) Any() bool { return d.ClientSecret || d.PrivateKey || d.Grants > 0 }

// sameOriginURLs reports whether a and b are both empty, or both URLs of
// the same scheme, host and port. A URL that does not parse has no origin
// in common with any other.
func sameOriginURLs(a, b string) bool {
	if a == "" || b == "" {
		return a == b
	}
	au, aerr := url.Parse(a)
	bu, berr := url.Parse(b)
	return aerr == nil && berr == nil && au.Host != "" && mcpclient.SameOrigin(au, bu)
}

// trustsNoMore reports whether every certificate of the PEM bundle edited
// is one of those of stored: the server is trusted with the same
// certificates as before, or fewer.
func trustsNoMore(stored, edited string) bool {
	if edited == stored {
		return true
	}
	have := map[string]bool{}
	for _, der := range pemCertificates(stored) {
		have[der] = true
	}
	for _, der := range pemCertificates(edited) {
		if !have[der] {
			return false
		}
	}
	return true
}

// pemCertificates returns the DER bytes of the PEM blocks of bundle.
func pemCertificates(bundle string) []string {
	var out []string
	rest := []byte(bundle)
	for {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			return out
		}
		out = append(out, string(block.Bytes))
	}
}

// StdioDestination is the destination of every stdio server (see
// Destinations); an environment lists it to let its secrets go there.
const StdioDestination = "stdio"

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
		o, err := NormalOrigin(raw)
		if err != nil {
			o = raw // never allowed: no listed origin equals it
		}
		out = append(out, o)
	}
	return out
}

// NormalOrigin is the origin of an absolute http(s) URL, lower case,
// without user info, path or a default port.
func NormalOrigin(raw string) (string, error) {
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
