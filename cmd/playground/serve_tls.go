package main

import (
	"crypto/tls"
	"fmt"
	"net"
)

// serveTLS wraps the listeners in TLS with the certificate of --tls-cert
// and --tls-key, loaded once and shared, so that the apps origin is HTTPS
// whenever the dashboard that frames it is (browsers block an http frame
// in an https page). Without those flags it returns the listeners as they
// are.
func serveTLS(cfg Config, listeners ...net.Listener) ([]net.Listener, error) {
	if cfg.TLSCert == "" {
		return listeners, nil
	}
	cert, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("serve: --tls-cert %s, --tls-key %s: %w", cfg.TLSCert, cfg.TLSKey, err)
	}
	conf := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	wrapped := make([]net.Listener, len(listeners))
	for i, ln := range listeners {
		wrapped[i] = tls.NewListener(ln, conf)
	}
	return wrapped, nil
}

// urlScheme is the scheme of the listeners' URLs.
func (c Config) urlScheme() string {
	if c.TLSCert != "" {
		return "https"
	}
	return "http"
}
