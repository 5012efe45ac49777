package backend

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

// OAuthGrantType is how the playground obtains a server's access tokens.
type OAuthGrantType string

const (
	// OAuthGrantAuthorizationCode signs a person in through their browser.
	OAuthGrantAuthorizationCode OAuthGrantType = "authorization_code"
	// OAuthGrantClientCredentials has the playground obtain tokens as its
	// own client when it connects (RFC 6749 section 4.4): no browser.
	OAuthGrantClientCredentials OAuthGrantType = "client_credentials"
)

// OAuthClientAuth is how a client credentials grant authenticates at the
// token endpoint.
type OAuthClientAuth string

const (
	// OAuthClientSecretBasic sends the client ID and secret with HTTP Basic.
	OAuthClientSecretBasic OAuthClientAuth = "client_secret_basic"
	// OAuthPrivateKeyJWT signs a client assertion with a private key
	// (RFC 7523 section 2.2).
	OAuthPrivateKeyJWT OAuthClientAuth = "private_key_jwt"
)

// Grant is s's grant type, the authorization code flow when unset.
func (s OAuthSettings) Grant() OAuthGrantType {
	if s.GrantType == "" {
		return OAuthGrantAuthorizationCode
	}
	return s.GrantType
}

// Machine reports whether the playground obtains tokens without a person.
func (s OAuthSettings) Machine() bool { return s.Grant() == OAuthGrantClientCredentials }

// keeping returns s with the secrets of old that s leaves empty: the
// client secret and the private key stay stored while the client ID does.
func (s OAuthSettings) keeping(old OAuthSettings) OAuthSettings {
	if strings.TrimSpace(s.ClientID) != old.ClientID {
		return s
	}
	if s.ClientSecret == "" {
		s.ClientSecret = old.ClientSecret
	}
	if strings.TrimSpace(s.PrivateKeyPEM) == "" {
		s.PrivateKeyPEM = old.PrivateKeyPEM
	}
	return s
}

// normalized checks s and returns it with what its grant does not use
// dropped and the key's ID set; an EInvalid *Error names the offending
// fields (grant_type, client_auth, client_id, client_secret, private_key,
// dpop).
func (s OAuthSettings) normalized() (OAuthSettings, error) {
	fields := map[string]string{}
	s.GrantType = s.Grant()
	s.ClientID = strings.TrimSpace(s.ClientID)
	s.KeyID = ""
	switch s.GrantType {
	case OAuthGrantAuthorizationCode:
		s.ClientAuth, s.PrivateKeyPEM = "", ""
		if s.ClientID == "" {
			s.ClientSecret = ""
		}
	case OAuthGrantClientCredentials:
		if s.ClientID == "" {
			fields["client_id"] = "Client credentials need the client ID registered with the authorization server."
		}
		switch s.ClientAuth {
		case "", OAuthClientSecretBasic:
			s.ClientAuth, s.PrivateKeyPEM = OAuthClientSecretBasic, ""
			if s.ClientSecret == "" {
				fields["client_secret"] = "Enter the client secret the authorization server issued."
			}
		case OAuthPrivateKeyJWT:
			s.ClientSecret = ""
			if strings.TrimSpace(s.PrivateKeyPEM) == "" {
				fields["private_key"] = "Paste the client's private key (PEM)."
			} else if key, err := parseClientKey(s.PrivateKeyPEM); err != nil {
				fields["private_key"] = err.Error()
			} else {
				s.KeyID = key.id
			}
		default:
			fields["client_auth"] = "Choose a client secret or a private key."
		}
	default:
		fields["grant_type"] = "Choose how the playground obtains tokens."
	}
	if len(fields) > 0 {
		return s, &Error{Code: EInvalid, Message: "The OAuth settings were not saved: please correct the fields marked.", Fields: fields}
	}
	return s, nil
}

// clientKey is a parsed private key for private_key_jwt.
type clientKey struct {
	key any
	alg jose.SignatureAlgorithm
	id  string // JWK SHA-256 thumbprint of the public key
}

// parseClientKey reads a PEM private key (PKCS #8, or SEC 1 EC, or PKCS #1
// RSA) and picks its signing algorithm: ES256/384/512 by curve, RS256,
// EdDSA. Its errors are sentences for the form.
func parseClientKey(text string) (clientKey, error) {
	block, _ := pem.Decode([]byte(strings.TrimSpace(text)))
	if block == nil {
		return clientKey{}, errors.New("This is not a PEM private key: paste the text from -----BEGIN PRIVATE KEY----- to its END line.")
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
		return clientKey{}, errors.New("The PEM block holds no private key this playground can read (PKCS #8, EC or RSA).")
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
			return clientKey{}, errors.New("The RSA key is shorter than 2048 bits.")
		}
		alg, pub = jose.RS256, k.Public()
	case ed25519.PrivateKey:
		alg, pub = jose.EdDSA, k.Public()
	}
	if alg == "" {
		return clientKey{}, errors.New("The key is of a kind that cannot sign client assertions: use an EC (P-256), RSA or Ed25519 key.")
	}
	sum, err := (&jose.JSONWebKey{Key: pub}).Thumbprint(crypto.SHA256)
	if err != nil {
		return clientKey{}, errors.New("The key's thumbprint cannot be computed.")
	}
	return clientKey{key: key, alg: alg, id: base64.RawURLEncoding.EncodeToString(sum)}, nil
}
