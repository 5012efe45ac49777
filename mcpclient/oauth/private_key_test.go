package oauth

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"testing"

	"github.com/go-jose/go-jose/v4"
)

func TestParsePrivateKeyPicksTheAlgorithm(t *testing.T) {
	ec, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	ecDER, _ := x509.MarshalECPrivateKey(ec)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	weak, _ := rsa.GenerateKey(rand.Reader, 1024)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	edDER, _ := x509.MarshalPKCS8PrivateKey(ed)
	pemOf := func(typ string, der []byte) string {
		return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
	}
	tests := []struct {
		name, pem string
		alg       jose.SignatureAlgorithm // "" when refused
	}{
		{"SEC 1 EC P-384", pemOf("EC PRIVATE KEY", ecDER), jose.ES384},
		{"PKCS #1 RSA", pemOf("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey)), jose.RS256},
		{"PKCS #8 Ed25519", pemOf("PRIVATE KEY", edDER), jose.EdDSA},
		{"RSA under 2048 bits", pemOf("RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(weak)), ""},
		{"a certificate", pemOf("CERTIFICATE", []byte{1, 2, 3}), ""},
		{"no PEM", "MIIB...", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := ParsePrivateKey(tt.pem)
			if tt.alg == "" {
				if err == nil {
					t.Fatalf("accepted, want refused")
				}
				return
			}
			if err != nil || k.Algorithm != tt.alg || len(k.ID) != 43 {
				t.Errorf("alg %q, id %q, err %v; want %s and a SHA-256 thumbprint", k.Algorithm, k.ID, err, tt.alg)
			}
		})
	}
}
