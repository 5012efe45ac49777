package oauth

import (
	"strings"

	"github.com/mcp-playground/playground/backend"
	mcpoauth "github.com/mcp-playground/playground/mcpclient/oauth"
)

// GrantType is how the playground obtains a server's access tokens.
type GrantType string

const (
	// GrantAuthorizationCode signs a person in through their browser.
	GrantAuthorizationCode GrantType = "authorization_code"
	// GrantClientCredentials has the playground obtain tokens as its
	// own client when it connects (RFC 6749 section 4.4): no browser.
	GrantClientCredentials GrantType = "client_credentials"
)

// ClientAuth is how a client credentials grant authenticates at the
// token endpoint.
type ClientAuth string

const (
	// ClientSecretBasic sends the client ID and secret with HTTP Basic.
	ClientSecretBasic ClientAuth = "client_secret_basic"
	// PrivateKeyJWT signs a client assertion with a private key
	// (RFC 7523 section 2.2).
	PrivateKeyJWT ClientAuth = "private_key_jwt"
)

// Grant is s's grant type, the authorization code flow when unset.
func (s Settings) Grant() GrantType {
	if s.GrantType == "" {
		return GrantAuthorizationCode
	}
	return s.GrantType
}

// Machine reports whether the playground obtains tokens without a person.
func (s Settings) Machine() bool { return s.Grant() == GrantClientCredentials }

// keeping returns s with the secrets of old that s leaves empty: the
// client secret and the private key stay stored while the client ID does,
// and so does the issuer they may be sent to unless confirm is set or a
// secret or key is typed anew (which forgets it: the next successful use
// pins it again).
func (s Settings) keeping(old Settings, confirm bool) Settings {
	s.Issuer = ""
	if strings.TrimSpace(s.ClientID) != old.ClientID {
		return s
	}
	typed := s.ClientSecret != "" || strings.TrimSpace(s.PrivateKeyPEM) != ""
	if !confirm && !typed {
		s.Issuer = old.Issuer
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
func (s Settings) normalized() (Settings, error) {
	fields := map[string]string{}
	s.GrantType = s.Grant()
	s.ClientID = strings.TrimSpace(s.ClientID)
	s.KeyID = ""
	switch s.GrantType {
	case GrantAuthorizationCode:
		s.ClientAuth, s.PrivateKeyPEM = "", ""
		if s.ClientID == "" {
			s.ClientSecret = ""
		}
	case GrantClientCredentials:
		if s.ClientID == "" {
			fields["client_id"] = "Client credentials need the client ID registered with the authorization server."
		}
		switch s.ClientAuth {
		case "", ClientSecretBasic:
			s.ClientAuth, s.PrivateKeyPEM = ClientSecretBasic, ""
			if s.ClientSecret == "" {
				fields["client_secret"] = "Enter the client secret the authorization server issued."
			}
		case PrivateKeyJWT:
			s.ClientSecret = ""
			if strings.TrimSpace(s.PrivateKeyPEM) == "" {
				fields["private_key"] = "Paste the client's private key (PEM)."
			} else if key, err := mcpoauth.ParsePrivateKey(s.PrivateKeyPEM); err != nil {
				fields["private_key"] = err.Error()
			} else {
				s.KeyID = key.ID
			}
		default:
			fields["client_auth"] = "Choose a client secret or a private key."
		}
	default:
		fields["grant_type"] = "Choose how the playground obtains tokens."
	}
	if len(fields) > 0 {
		return s, &backend.Error{Code: backend.EInvalid, Message: "The OAuth settings were not saved: please correct the fields marked.", Fields: fields}
	}
	return s, nil
}
