package backend_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/serverconfig"
)

// testCertPEM returns a self-signed CA certificate named cn, valid until
// notAfter, as PEM.
func testCertPEM(t *testing.T, cn string, notAfter time.Time) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: cn, Organization: []string{"Test"}},
		NotBefore: notAfter.Add(-48 * time.Hour), NotAfter: notAfter, IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

func TestParseCACerts(t *testing.T) {
	later := time.Now().Add(365 * 24 * time.Hour).Truncate(time.Second)
	gone := time.Now().Add(-time.Hour).Truncate(time.Second)
	bundle := "# root\n" + testCertPEM(t, "Root A", later) + "junk between\n" + testCertPEM(t, "Old B", gone)
	certs, err := backend.ParseCACerts(bundle)
	if err != nil || len(certs) != 2 {
		t.Fatalf("ParseCACerts = %+v, %v; want 2 certificates", certs, err)
	}
	if certs[0].Subject != "CN=Root A,O=Test" || certs[0].Issuer != certs[0].Subject || !certs[0].NotAfter.Equal(later) || certs[0].Expired(time.Now()) {
		t.Errorf("first certificate = %+v", certs[0])
	}
	if !certs[1].Expired(time.Now()) {
		t.Errorf("second certificate %+v not expired", certs[1])
	}

	for _, tt := range []struct{ name, bundle, want string }{
		{"empty", "   ", "No PEM certificate found"},
		{"no PEM", "hello", "No PEM certificate found"},
		{"private key", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "Block 1 is a private key"},
		{"other block", testCertPEM(t, "ok", later) + "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", "Block 2 is a PUBLIC KEY"},
		{"garbage certificate", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "Certificate 1 does not parse"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := backend.ParseCACerts(tt.bundle); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseCACerts = %v; want an error with %q", err, tt.want)
			}
		})
	}
}

func TestServerTLSSettingsValidate(t *testing.T) {
	ca := testCertPEM(t, "Root", time.Now().Add(time.Hour))
	httpSrv := func(mod func(*backend.Server)) backend.Server {
		s := backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "https://example.com/mcp"}
		mod(&s)
		return s
	}
	for _, tt := range []struct {
		name   string
		server backend.Server
		field  string // "" when valid
	}{
		{"all set", httpSrv(func(s *backend.Server) {
			s.CACertPEM, s.InsecureSkipVerify, s.Proxy = ca, true, "http://u:p@proxy.example:3128"
		}), ""},
		{"socks proxy", httpSrv(func(s *backend.Server) { s.Proxy = "socks5://127.0.0.1:1080" }), ""},
		{"sse with CA", httpSrv(func(s *backend.Server) { s.Transport, s.CACertPEM = backend.TransportSSE, ca }), ""},
		{"CA not PEM", httpSrv(func(s *backend.Server) { s.CACertPEM = "MIIB..." }), "ca_cert"},
		{"CA is a key", httpSrv(func(s *backend.Server) {
			s.CACertPEM = "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----"
		}), "ca_cert"},
		{"proxy without scheme", httpSrv(func(s *backend.Server) { s.Proxy = "proxy.example:3128" }), "proxy"},
		{"proxy ftp", httpSrv(func(s *backend.Server) { s.Proxy = "ftp://proxy.example" }), "proxy"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.server.Normalized().Validate()
			fields := fieldsOf(err)
			if tt.field == "" && err != nil {
				t.Fatalf("Validate = %v, want nil", err)
			}
			if tt.field != "" && (len(fields) != 1 || fields[tt.field] == "") {
				t.Fatalf("Validate fields = %v, want one at %q", fields, tt.field)
			}
		})
	}
}

func TestServerTLSSettingsNormalizedAndTarget(t *testing.T) {
	ca := testCertPEM(t, "Root", time.Now().Add(time.Hour))
	stdio := backend.Server{Name: "s", Transport: backend.TransportStdio, Command: "cat",
		CACertPEM: ca, InsecureSkipVerify: true, Proxy: "http://proxy:1"}.Normalized()
	if stdio.CACertPEM != "" || stdio.InsecureSkipVerify || stdio.Proxy != "" {
		t.Errorf("stdio server keeps TLS settings: %+v", stdio)
	}
	remote := backend.Server{Name: "r", Transport: backend.TransportHTTP, URL: "https://h/mcp",
		CACertPEM: "\n" + ca + "\n", InsecureSkipVerify: true, Proxy: " http://proxy:1 "}.Normalized()
	if remote.CACertPEM != strings.TrimSpace(ca) || remote.Proxy != "http://proxy:1" {
		t.Errorf("Normalized = %q, %q; want them trimmed", remote.CACertPEM, remote.Proxy)
	}
	cfg := remote.Target().HTTP
	if string(cfg.CACertPEM) != remote.CACertPEM || !cfg.InsecureSkipVerify || cfg.Proxy != "http://proxy:1" {
		t.Errorf("Target().HTTP = %+v", cfg)
	}
	if cfg := (backend.Server{Transport: backend.TransportHTTP, URL: "https://h/mcp"}).Target().HTTP; cfg.CACertPEM != nil || cfg.InsecureSkipVerify || cfg.Proxy != "" {
		t.Errorf("Target of a server without TLS settings = %+v", cfg)
	}
}

func TestProxyURLRedactedAndKept(t *testing.T) {
	const stored = "http://alice:pw@proxy.example:3128"
	e := MustEnv(t)
	ctx := backendtest.Context(t)
	id := e.MustServer(t, backend.Server{Name: "p", Transport: backend.TransportHTTP, URL: "https://h/mcp", Proxy: stored})
	s, err := e.Reg.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	shown := s.Redacted()
	if shown.Proxy != "http://REDACTED:REDACTED@proxy.example:3128" {
		t.Fatalf("Redacted().Proxy = %q", shown.Proxy)
	}
	if _, err := e.Reg.Update(ctx, shown); err != nil {
		t.Fatal(err)
	}
	if got, err := e.Reg.Get(ctx, id); err != nil || got.Proxy != stored {
		t.Errorf("after saving the redacted form the proxy is %q, %v; want %q", got.Proxy, err, stored)
	}
	shown.Proxy = "http://REDACTED:REDACTED@elsewhere.example:3128"
	if _, err := e.Reg.Update(ctx, shown); fieldsOf(err)["proxy"] == "" {
		t.Errorf("moving a redacted proxy password to another host: %v, want an error at proxy", err)
	}
}

// TestCookieHeaderIsSecret: a Cookie header's value is a secret: redacted
// on pages and written as a placeholder on export.
func TestCookieHeaderIsSecret(t *testing.T) {
	for _, name := range []string{"Cookie", "cookie", "Set-Cookie"} {
		if !backend.IsSecretName(name) {
			t.Errorf("IsSecretName(%q) = false", name)
		}
	}
	s := backend.Server{Name: "c", Transport: backend.TransportHTTP, URL: "https://h/mcp", Headers: map[string]string{"Cookie": "sid=abc123"}}
	if got := s.Redacted().Headers["Cookie"]; got != backend.RedactedValue {
		t.Errorf("Redacted Cookie header = %q", got)
	}
	out, err := serverconfig.Export([]backend.Server{s}, serverconfig.FormatClaude)
	if err != nil || strings.Contains(string(out.JSON), "abc123") {
		t.Errorf("export = %s, %v; want the cookie left out", out.JSON, err)
	}
}

// fieldsOf returns the field errors of an EInvalid *backend.Error, or nil.
func fieldsOf(err error) map[string]string {
	var e *backend.Error
	if errors.As(err, &e) {
		return e.Fields
	}
	return nil
}

// TestExportNotesTLSSettings: no export format holds the TLS and proxy
// settings, so every export of a server with them says so, with the
// proxy's password redacted.
func TestExportNotesTLSSettings(t *testing.T) {
	s := backend.Server{Name: "tls", Transport: backend.TransportHTTP, URL: "https://h/mcp",
		CACertPEM: testCertPEM(t, "Root", time.Now().Add(time.Hour)), InsecureSkipVerify: true, Proxy: "http://u:secretpw@proxy:3128"}
	plain := backend.Server{Name: "plain", Transport: backend.TransportHTTP, URL: "https://h2/mcp"}
	for _, format := range []serverconfig.Format{serverconfig.FormatClaude, serverconfig.FormatVSCode, serverconfig.FormatRegistry} {
		out, err := serverconfig.Export([]backend.Server{s, plain}, format)
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		notes := strings.Join(out.Notes, "\n")
		want := "tls: this format has no place for its CA certificates, skipping TLS verification, its proxy http://REDACTED:REDACTED@proxy:3128"
		if !strings.Contains(notes, want) || strings.Contains(notes, "plain: this format has no place") {
			t.Errorf("%s notes:\n%s\nwant one on tls only: %q", format, notes, want)
		}
		if strings.Contains(string(out.JSON), "secretpw") || strings.Contains(string(out.JSON), "CERTIFICATE") {
			t.Errorf("%s export holds the proxy or the certificates: %s", format, out.JSON)
		}
	}
}
