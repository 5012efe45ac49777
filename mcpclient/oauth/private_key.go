package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"strings"

	"github.com/go-jose/go-jose/v4"
)

// PrivateKey is a parsed private key that signs client assertions
// (private_key_jwt) or workload JWTs.
type PrivateKey struct {
	Key       any
	Algorithm jose.SignatureAlgorithm
	ID        string // the JWK SHA-256 thumbprint of its public key (RFC 7638)
}

// ParsePrivateKey reads a PEM private key (PKCS #8, or SEC 1 EC, or PKCS #1
// RSA) and picks its signing algorithm: ES256/384/512 by curve, RS256,
// EdDSA. RSA keys under 2048 bits are refused. Its errors are sentences a
// person can act on.
func ParsePrivateKey(text string) (PrivateKey, error) {
	block, _ := pem.Decode([]byte(strings.TrimSpace(text)))
	if block == nil {
		return PrivateKey{}, errors.New("This is not a PEM private key: paste the text from -----BEGIN PRIVATE KEY----- to its END line.")
	}
	var key any
	var err error
	switch block.Type {
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	}
	if err != nil {
		return PrivateKey{}, errors.New("The PEM block holds no private key this playground can read (PKCS #8, EC or RSA).")
	}
	var alg jose.SignatureAlgorithm
	var pub crypto.PublicKey
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P256():
			alg = jose.ES256
		case elliptic.P384():
			alg = jose.ES384
		case elliptic.P521():
			alg = jose.ES512
		}
		pub = k.Public()
	case *rsa.PrivateKey:
		if k.N.BitLen() < 2048 {
			return PrivateKey{}, errors.New("The RSA key is shorter than 2048 bits.")
		}
		alg, pub = jose.RS256, k.Public()
	case ed25519.PrivateKey:
		alg, pub = jose.EdDSA, k.Public()
	}
	if alg == "" {
		return PrivateKey{}, errors.New("The key is of a kind that cannot sign client assertions: use an EC (P-256), RSA or Ed25519 key.")
	}
	sum, err := (&jose.JSONWebKey{Key: pub}).Thumbprint(crypto.SHA256)
	if err != nil {
		return PrivateKey{}, errors.New("The key's thumbprint cannot be computed.")
	}
	return PrivateKey{Key: key, Algorithm: alg, ID: base64.RawURLEncoding.EncodeToString(sum)}, nil
}
