package oauthtest

import (
	"crypto/rand"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// clientAssertionType is the client_assertion_type of private_key_jwt
// (RFC 7523 section 2.2).
const clientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// clientCredentialsGrant issues an access token, without a refresh token,
// to a confidential client for itself (RFC 6749 section 4.4): the subject
// is the client, the resource must be the MCP server, and the scopes are
// those asked for that the servers support (all of them when none are).
func (s *Server) clientCredentialsGrant(w http.ResponseWriter, r *http.Request, c Client) {
	f := r.PostForm
	if c.Secret == "" && c.PublicKey == nil {
		oauthError(w, http.StatusBadRequest, "unauthorized_client", "a public client cannot use client credentials")
		return
	}
	if f.Get("resource") != s.MCPURL {
		oauthError(w, http.StatusBadRequest, "invalid_target", "resource must name the MCP server")
		return
	}
	scopes := s.opts.Scopes
	if asked := strings.Fields(f.Get("scope")); len(asked) > 0 {
		scopes = nil
		for _, sc := range asked {
			if slices.Contains(s.opts.Scopes, sc) {
				scopes = append(scopes, sc)
			}
		}
	}
	g := grant{clientID: c.ID, subject: c.ID, resource: s.MCPURL, scopes: scopes, expires: time.Now().Add(s.opts.AccessTokenLifetime)}
	tokenType := "Bearer"
	if proof := r.Header.Get("DPoP"); s.opts.DPoP || proof != "" {
		jkt, ok := s.checkTokenProof(w, r)
		if !ok {
			return
		}
		g.jkt, tokenType = jkt, "DPoP"
	}
	access := "at-" + rand.Text()
	s.mu.Lock()
	s.access[access] = g
	s.stats.ClientCredentials++
	s.noteIssued(g)
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": access,
		"token_type":   tokenType,
		"expires_in":   int(s.opts.AccessTokenLifetime.Seconds()),
		"scope":        strings.Join(scopes, " "),
	})
}

// authenticateAssertion authenticates a client by its private_key_jwt
// assertion: signed with the key of the client it names (iss and sub),
// for this authorization server (aud its issuer or token endpoint), not
// expired.
func (s *Server) authenticateAssertion(f url.Values) (Client, bool) {
	if f.Get("client_assertion_type") != clientAssertionType {
		return Client{}, false
	}
	tok, err := jwt.ParseSigned(f.Get("client_assertion"), []jose.SignatureAlgorithm{jose.ES256, jose.ES384, jose.ES512, jose.RS256, jose.PS256, jose.EdDSA})
	if err != nil {
		return Client{}, false
	}
	var claims jwt.Claims
	if err := tok.UnsafeClaimsWithoutVerification(&claims); err != nil {
		return Client{}, false
	}
	c, ok := s.client(claims.Subject)
	if !ok || c.PublicKey == nil || (f.Has("client_id") && f.Get("client_id") != c.ID) {
		return Client{}, false
	}
	if err := tok.Claims(c.PublicKey, &claims); err != nil {
		return Client{}, false
	}
	err = claims.Validate(jwt.Expected{Issuer: c.ID, Subject: c.ID, AnyAudience: jwt.Audience{s.Issuer, s.Issuer + "/token"}, Time: time.Now()})
	return c, err == nil && claims.ID != ""
}
