package web_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"
)

// TestStoredCertificateNamesAreShownAsText: the TLS summary of a server's
// edit page shows each stored CA certificate's subject and issuer, which
// whoever made the certificate chose; markup in them is shown as text.
func TestStoredCertificateNamesAreShownAsText(t *testing.T) {
	const payload = `<script>alert(1)</script><img src=x onerror=alert(2)>`
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: payload, Organization: []string{payload}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign, DNSNames: []string{"x.example"}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "tls", "transport": "http", "url": "https://127.0.0.1:1/mcp",
		"caCert": string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))})
	page := d.get(t, fmt.Sprintf("/servers/%d/edit", srv.ID)).Body
	if !strings.Contains(page, `data-testid="stored-cert"`) {
		t.Fatalf("the edit page shows no stored certificate:\n%s", page)
	}
	if strings.Contains(page, "<script>alert") || strings.Contains(page, "<img src=x") {
		t.Errorf("the edit page has the certificate's names as markup:\n%s", page)
	}
	if !strings.Contains(page, "CN=\\&lt;script") {
		i := strings.Index(page, `data-testid="stored-cert"`)
		t.Errorf("the edit page does not show the certificate's subject as text: %s", page[i:min(len(page), i+600)])
	}
}
