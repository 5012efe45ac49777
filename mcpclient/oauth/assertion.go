package oauth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"
)

// Grant types and client assertion types of RFC 7523 and RFC 8693.
const (
	GrantTypeJWTBearer      = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	ClientAssertionJWTType  = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	grantTypeClientCreds    = "client_credentials"
	clientAssertionLifetime = 5 * time.Minute
)

// ClientAuth is how a client authenticates at the token endpoint.
type ClientAuth struct {
	ClientID string
	// ClientSecret, if set, is sent with HTTP Basic (client_secret_basic).
	ClientSecret string
	// Key, if set, signs a client assertion JWT (private_key_jwt,
	// RFC 7523 section 2.2) with Algorithm (default ES256).
	Key       any
	Algorithm jose.SignatureAlgorithm
}

// ClientCredentialsGrant is the client credentials grant (RFC 6749 section
// 4.4) authenticated by auth.
func ClientCredentialsGrant(auth ClientAuth) Grant {
	return func(ctx context.Context, client *http.Client, d *Discovery) (*oauth2.Token, error) {
		return tokenRequest(ctx, client, d, auth, url.Values{"grant_type": {grantTypeClientCreds}})
	}
}

// JWTBearerGrant is the JWT bearer grant (RFC 7523 section 2.1) with the
// assertion that assertion returns, authenticated by auth.
func JWTBearerGrant(auth ClientAuth, assertion func(ctx context.Context, client *http.Client, d *Discovery) (string, error)) Grant {
	return func(ctx context.Context, client *http.Client, d *Discovery) (*oauth2.Token, error) {
		a, err := assertion(ctx, client, d)
		if err != nil {
			return nil, err
		}
		return tokenRequest(ctx, client, d, auth, url.Values{"grant_type": {GrantTypeJWTBearer}, "assertion": {a}})
	}
}

// tokenRequest posts form, with the resource, the scopes and the client's
// authentication, to d's token endpoint.
func tokenRequest(ctx context.Context, client *http.Client, d *Discovery, auth ClientAuth, form url.Values) (*oauth2.Token, error) {
	form.Set("resource", d.Resource)
	if len(d.Scopes) > 0 {
		form.Set("scope", strings.Join(d.Scopes, " "))
	}
	var basic *url.Userinfo
	switch {
	case auth.Key != nil:
		a, err := ClientAssertion(auth, d.AS.Issuer)
		if err != nil {
			return nil, err
		}
		form.Set("client_id", auth.ClientID)
		form.Set("client_assertion_type", ClientAssertionJWTType)
		form.Set("client_assertion", a)
	case auth.ClientSecret != "":
		basic = url.UserPassword(auth.ClientID, auth.ClientSecret)
	default:
		form.Set("client_id", auth.ClientID)
	}
	return postToken(ctx, client, d.AS.TokenEndpoint, form, basic)
}

// ClientAssertion signs the private_key_jwt assertion of auth for the
// authorization server issuer: iss and sub the client, aud the issuer, a
// random jti and a short lifetime.
func ClientAssertion(auth ClientAuth, issuer string) (string, error) {
	alg := auth.Algorithm
	if alg == "" {
		alg = jose.ES256
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: auth.Key}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	now := time.Now()
	return jwt.Signed(signer).Claims(jwt.Claims{
		Issuer:   auth.ClientID,
		Subject:  auth.ClientID,
		Audience: jwt.Audience{issuer},
		ID:       randomID(),
		IssuedAt: jwt.NewNumericDate(now),
		Expiry:   jwt.NewNumericDate(now.Add(clientAssertionLifetime)),
	}).Serialize()
}

func randomID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
