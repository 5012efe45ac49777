package doctor

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/mcp-playground/playground/mcpclient"
)

// checkNetwork checks how far the server's address can be reached: DNS,
// TCP and, for https, the TLS handshake with the target's settings. It
// records each step as a finding and, at the first that fails, sets the
// summary and suggestions and returns false. Behind a proxy it checks
// nothing directly (the proxy resolves and connects) and returns true.
func checkNetwork(ctx context.Context, d *Diagnosis, u *url.URL, tr *http.Transport, cfg mcpclient.HTTPConfig) bool {
	if tr.Proxy != nil {
		if p, err := tr.Proxy(&http.Request{URL: u}); err == nil && p != nil {
			d.find("Proxy", urlText(p)+" (DNS, TCP and TLS to the server go through it and were not checked directly)")
			return true
		}
	}
	host, port := u.Hostname(), u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	lctx, cancel := context.WithTimeout(ctx, stepTimeout)
	addrs, err := net.DefaultResolver.LookupHost(lctx, host)
	cancel()
	if err != nil {
		d.find("DNS", fmt.Sprintf("%s: %v", host, err))
		d.Summary = fmt.Sprintf("The host name %q does not resolve to an address (DNS lookup failed).", host)
		d.suggest("Check the spelling of the host in the URL; a name known only inside a container or a VPN does not resolve on the playground's machine.", nil)
		return false
	}
	if net.ParseIP(host) == nil {
		d.find("DNS", host+" → "+strings.Join(addrs, ", "))
	}
	addr := net.JoinHostPort(host, port)
	start := time.Now()
	conn, err := (&net.Dialer{Timeout: stepTimeout}).DialContext(ctx, "tcp", addr)
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		d.find("TCP", addr+": connection refused")
		d.Summary = fmt.Sprintf("Nothing is listening at %s: the connection was refused.", addr)
		d.suggest("Start the server, or check the port in the URL: the server may listen on another one.", nil)
		return false
	case err != nil && isTimeout(err):
		d.find("TCP", fmt.Sprintf("%s: no answer within %v", addr, stepTimeout))
		d.Summary = fmt.Sprintf("The connection to %s timed out: the host does not answer on that port (it may be down, or a firewall drops the packets).", addr)
		d.suggest("Check that the host is up and the port is open from the playground's machine; a proxy setting may be needed.", nil)
		return false
	case err != nil:
		d.find("TCP", fmt.Sprintf("%s: %v", addr, err))
		d.Summary = fmt.Sprintf("Could not connect to %s: %v.", addr, err)
		return false
	}
	d.find("TCP", fmt.Sprintf("%s: connected in %v", addr, time.Since(start).Round(10*time.Microsecond)))
	defer conn.Close()
	if u.Scheme != "https" {
		return true
	}
	return checkTLS(ctx, d, conn, host, tr, cfg)
}

// checkTLS shakes hands over conn as the transport would and records the
// server's certificate.
func checkTLS(ctx context.Context, d *Diagnosis, conn net.Conn, host string, tr *http.Transport, cfg mcpclient.HTTPConfig) bool {
	conf := &tls.Config{}
	if tr.TLSClientConfig != nil {
		conf = tr.TLSClientConfig.Clone()
	}
	conf.ServerName = host
	tc := tls.Client(conn, conf)
	hctx, cancel := context.WithTimeout(ctx, stepTimeout)
	defer cancel()
	err := tc.HandshakeContext(hctx)
	if err == nil {
		certs := tc.ConnectionState().PeerCertificates
		if len(certs) > 0 {
			d.find("TLS certificate", certText(certs[0]))
		}
		if cfg.InsecureSkipVerify {
			d.find("TLS", "verification is skipped for this server")
		}
		return true
	}
	var verr *tls.CertificateVerificationError
	if !errors.As(err, &verr) {
		d.find("TLS", err.Error())
		d.Summary = fmt.Sprintf("The TLS handshake with %s failed: %v.", host, err)
		var rec tls.RecordHeaderError
		if errors.As(err, &rec) {
			d.Summary = fmt.Sprintf("%s does not speak TLS on that port: it answered in plain text.", host)
			d.suggest("Use http:// instead of https:// in the URL.", nil)
		}
		return false
	}
	if len(verr.UnverifiedCertificates) > 0 {
		d.find("TLS certificate", certText(verr.UnverifiedCertificates[0]))
	}
	d.find("TLS", verr.Err.Error())
	var unknown x509.UnknownAuthorityError
	var name x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.As(verr.Err, &unknown):
		d.Summary = "The server's certificate is signed by an authority this machine does not trust (a private CA, or a self-signed certificate)."
		d.suggest("Add the authority's certificate (PEM) to the server's CA bundle setting.", nil)
	case errors.As(verr.Err, &name):
		d.Summary = fmt.Sprintf("The server's certificate is not valid for the name %q.", host)
		names := name.Certificate.DNSNames
		for _, ip := range name.Certificate.IPAddresses {
			names = append(names, ip.String())
		}
		if len(names) > 0 {
			d.suggest("Connect by a name the certificate covers: "+strings.Join(names, ", ")+".", nil)
		}
	case errors.As(verr.Err, &invalid) && invalid.Reason == x509.Expired:
		d.Summary = "The server's certificate has expired, or is not valid yet (check this machine's clock)."
		d.suggest("Ask the server's owner to renew the certificate.", nil)
	default:
		d.Summary = "The server's certificate could not be verified: " + verr.Err.Error()
	}
	d.suggest("For a test server only, skip TLS verification (anyone on the path can then read and change the traffic).", &Change{SkipTLSVerify: true})
	return false
}

// certText describes a certificate: subject, issuer, names and validity.
func certText(c *x509.Certificate) string {
	s := fmt.Sprintf("subject %q, issuer %q", c.Subject.String(), c.Issuer.String())
	names := append([]string(nil), c.DNSNames...)
	for _, ip := range c.IPAddresses {
		names = append(names, ip.String())
	}
	if len(names) > 0 {
		s += ", names " + strings.Join(names, ", ")
	}
	s += fmt.Sprintf(", valid %s to %s", c.NotBefore.UTC().Format(time.DateOnly), c.NotAfter.UTC().Format(time.DateOnly))
	if time.Now().After(c.NotAfter) {
		s += " (expired)"
	}
	return s
}
