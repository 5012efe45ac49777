package mcpclient

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/url"
)

// HTTPConfig describes a Streamable HTTP server endpoint (or, for
// ConnectSSE, the event-stream URL of a deprecated HTTP+SSE server) and
// how to reach it.
type HTTPConfig struct {
	URL string
	// Header holds extra headers sent with every request to the server's
	// origin; a redirect to another origin does not get them
	// (withRedirectPolicy).
	Header http.Header
	// CACertPEM holds certificates (PEM) trusted besides the system's, for
	// a server whose certificate a private authority signed.
	CACertPEM []byte
	// InsecureSkipVerify accepts any certificate the server presents. It
	// is for test servers only: anyone on the path can read and change
	// the traffic.
	InsecureSkipVerify bool
	// Proxy is the URL of the proxy to reach the server through (http,
	// https or socks5). "" means the environment's HTTP_PROXY, HTTPS_PROXY
	// and NO_PROXY.
	Proxy string
	// Credentials, if non-nil, sign every request to the server's origin
	// and obtain new credentials when the server refuses a request with
	// 401 or 403 (see Credentials).
	Credentials Credentials
	// Client is the HTTP client to use; nil means a client of our own
	// with no overall timeout, built from CACertPEM, InsecureSkipVerify
	// and Proxy. A given client is copied, never changed, and cannot be
	// combined with those three.
	Client *http.Client
}

// httpClient returns the http.Client a transport of c uses for cfg, and
// whether it is the transport's own (to close its idle connections at the
// end): the configured client or one built from the TLS and proxy
// settings, with the redirect policy that keeps credentials to the
// server's origin and, with Credentials, the signing round tripper.
func httpClient(cfg HTTPConfig, c *Client) (client *http.Client, own bool, err error) {
	if cfg.Client != nil {
		if len(cfg.CACertPEM) > 0 || cfg.InsecureSkipVerify || cfg.Proxy != "" {
			return nil, false, errors.New("an HTTP client of the caller's cannot be combined with CA certificates, skipped TLS verification or a proxy")
		}
		client = cfg.Client
	} else {
		t, err := NewHTTPTransport(cfg)
		if err != nil {
			return nil, false, err
		}
		client, own = &http.Client{Transport: t}, true
	}
	client = withRedirectPolicy(client, cfg.Header, c.noteDropped)
	if cfg.Credentials != nil {
		u, err := url.Parse(cfg.URL)
		if err != nil {
			return nil, false, err
		}
		base := client.Transport
		if base == nil {
			base = http.DefaultTransport
		}
		client.Transport = &credentialTransport{base: base, origin: u, creds: cfg.Credentials, note: c.noteRefused}
	}
	return client, own, nil
}

// NewHTTPTransport builds the net/http transport of cfg's TLS and proxy
// settings, from a clone of the default one: the transports use it, and so
// may anything else that must reach the server as they do (the connection
// doctor's probes). It ignores cfg.Client.
func NewHTTPTransport(cfg HTTPConfig) (*http.Transport, error) {
	t := http.DefaultTransport.(*http.Transport).Clone()
	if cfg.Proxy != "" {
		p, err := ParseProxyURL(cfg.Proxy)
		if err != nil {
			return nil, err
		}
		t.Proxy = http.ProxyURL(p)
	}
	if len(cfg.CACertPEM) > 0 || cfg.InsecureSkipVerify {
		t.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	if len(cfg.CACertPEM) > 0 {
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(cfg.CACertPEM) {
			return nil, errors.New("the CA certificates hold no PEM certificate (want -----BEGIN CERTIFICATE----- blocks)")
		}
		t.TLSClientConfig.RootCAs = pool
	}
	if cfg.InsecureSkipVerify {
		t.TLSClientConfig.InsecureSkipVerify = true
	}
	return t, nil
}

// ParseProxyURL checks a proxy setting: an absolute http, https or socks5
// URL with a host.
func ParseProxyURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("invalid proxy URL: want http://host:port, https://host:port or socks5://host:port")
	}
	switch u.Scheme {
	case "http", "https", "socks5":
		return u, nil
	}
	return nil, fmt.Errorf("invalid proxy URL: scheme %q; want http, https or socks5", u.Scheme)
}
