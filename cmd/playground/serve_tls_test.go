package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// e2eSelfSigned writes a self-signed certificate for 127.0.0.1 and its key
// to PEM files in a temporary directory, and returns their paths and a
// client that trusts the certificate alone.
func e2eSelfSigned(t *testing.T) (certFile, keyFile string, client *http.Client) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "playground test"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	client = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	return certFile, keyFile, client
}

var e2eAppsListeningRE = regexp.MustCompile(`msg="apps origin listening" url=(\S+)`)

// TestServeTLS runs the binary with --tls-cert and --tls-key: the
// dashboard and its apps origin answer over HTTPS with the given
// certificate, with HSTS, and the log gives both listeners' https URLs
// and the public URL.
func TestServeTLS(t *testing.T) {
	bin := e2eBuildPlayground(t)
	certFile, keyFile, client := e2eSelfSigned(t)
	s := e2eServeWith(t, bin, filepath.Join(t.TempDir(), "playground.db"), e2eServeOptions{client: client,
		flags: []string{"--tls-cert", certFile, "--tls-key", keyFile, "--apps-addr", "127.0.0.1:0", "--base-url", "https://playground.test"}})
	if !strings.HasPrefix(s.URL, "https://127.0.0.1:") {
		t.Fatalf("the dashboard logged url=%s, want an https URL", s.URL)
	}
	if !strings.Contains(s.Log.String(), "public_url=https://playground.test ") {
		t.Errorf("the log lacks public_url=https://playground.test:\n%s", s.Log.String())
	}
	m := e2eAppsListeningRE.FindStringSubmatch(s.Log.String())
	if m == nil || !strings.HasPrefix(m[1], "https://127.0.0.1:") {
		t.Fatalf("the apps origin did not log an https URL:\n%s", s.Log.String())
	}
	appsURL := m[1]

	// get fetches url signed in or anonymously.
	get := func(url, host string, signedIn bool) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		if host != "" {
			req.Host = host
		}
		c := client
		if signedIn {
			c = s.client
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	// Cookies go by Host, so only the listener's own host is signed in.
	for _, tc := range []struct {
		path, host, want string
		signedIn         bool
	}{
		{"/healthz", "10.0.0.9:8443", "ok", false},
		{"/", "", `Demo server`, true},
		{"/signin", "playground.test", `Sign in`, false},
	} {
		resp, body := get(s.URL+tc.path, tc.host, tc.signedIn)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, tc.want) {
			t.Errorf("GET %s (Host %q) = %d %.200q (ended at %s)", tc.path, tc.host, resp.StatusCode, body, resp.Request.URL)
		}
		if got := resp.Header.Get("Strict-Transport-Security"); got != "max-age=31536000" {
			t.Errorf("GET %s: Strict-Transport-Security = %q", tc.path, got)
		}
		if resp.TLS == nil || len(resp.TLS.PeerCertificates) == 0 || resp.TLS.PeerCertificates[0].Subject.CommonName != "playground test" {
			t.Errorf("GET %s was not answered with the test certificate", tc.path)
		}
		if tc.path == "/" && !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-src "+appsURL) {
			t.Errorf("the dashboard frames apps from elsewhere than %s: %s", appsURL, resp.Header.Get("Content-Security-Policy"))
		}
	}
	if resp, _ := get(appsURL+"/apps/NOSUCHTOKEN", "", false); resp.StatusCode != http.StatusNotFound || resp.TLS == nil {
		t.Errorf("the apps origin over TLS answered %d (TLS %v), want 404 over TLS", resp.StatusCode, resp.TLS != nil)
	}
	plain := "http" + strings.TrimPrefix(s.URL, "https") + "/healthz"
	if resp, err := http.Get(plain); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Errorf("GET %s over plain HTTP answered 200", plain)
		}
	}
}

// TestServeTLSRefusesBadFiles checks that a certificate that cannot be
// loaded stops the start with the flags' names, instead of serving
// without TLS.
func TestServeTLSRefusesBadFiles(t *testing.T) {
	certFile, _, _ := e2eSelfSigned(t)
	for _, cfg := range []Config{
		{TLSCert: filepath.Join(t.TempDir(), "missing.pem"), TLSKey: filepath.Join(t.TempDir(), "missing.pem")},
		{TLSCert: certFile, TLSKey: certFile}, // a certificate is no key
	} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		if _, err := serveTLS(cfg, ln); err == nil || !strings.Contains(err.Error(), "--tls-cert "+cfg.TLSCert) {
			t.Errorf("serveTLS(%+v) = %v, want an error naming the files", cfg, err)
		}
	}
}
