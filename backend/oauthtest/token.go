package oauthtest

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// authCode is an issued, not yet exchanged authorization code.
type authCode struct {
	clientID      string
	redirectURI   string
	codeChallenge string
	resource      string
	scopes        []string
	expires       time.Time
}

// grant is what an access or refresh token stands for.
type grant struct {
	clientID string
	subject  string
	resource string
	scopes   []string
	expires  time.Time // of an access token; zero for a refresh token
	jkt      string    // the thumbprint of the DPoP key the token is bound to; "" for a Bearer token
}

// serveToken is the token endpoint: the authorization_code grant (with
// the PKCE verifier, redirect URI and resource checked against the code)
// and the refresh_token grant, which rotates the refresh token.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	c, ok := s.authenticateClient(r)
	if !ok {
		w.Header().Set("WWW-Authenticate", `Basic realm="oauthtest"`)
		oauthError(w, http.StatusUnauthorized, "invalid_client", "client authentication failed")
		return
	}
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		s.exchangeCode(w, r, c)
	case "refresh_token":
		s.refreshGrant(w, r, c)
	case "client_credentials":
		s.clientCredentialsGrant(w, r, c)
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be authorization_code, refresh_token or client_credentials")
	}
}

// authenticateClient finds the client by private_key_jwt (the only way a
// client with a public key authenticates), client_secret_basic,
// client_secret_post, or client_id alone for a public client.
func (s *Server) authenticateClient(r *http.Request) (Client, bool) {
	if r.PostForm.Has("client_assertion") {
		return s.authenticateAssertion(r.PostForm)
	}
	id, secret, basic := r.BasicAuth()
	if basic {
		id, _ = url.QueryUnescape(id) // RFC 6749 section 2.3.1 form-encodes both
		secret, _ = url.QueryUnescape(secret)
	}
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	c, ok := s.client(id)
	if !ok || c.PublicKey != nil {
		return Client{}, false
	}
	return c, subtle.ConstantTimeCompare([]byte(c.Secret), []byte(secret)) == 1
}

func (s *Server) exchangeCode(w http.ResponseWriter, r *http.Request, c Client) {
	f := r.PostForm
	s.mu.Lock()
	code, ok := s.codes[f.Get("code")]
	delete(s.codes, f.Get("code")) // single use, whatever happens next
	s.mu.Unlock()
	switch {
	case !ok || time.Now().After(code.expires):
		oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown, used or expired authorization code")
	case code.clientID != c.ID:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "the code was issued to another client")
	case code.redirectURI != f.Get("redirect_uri"):
		oauthError(w, http.StatusBadRequest, "invalid_grant", "redirect_uri differs from the authorization request's")
	case s256(f.Get("code_verifier")) != code.codeChallenge:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "code_verifier does not match the code_challenge")
	case f.Get("resource") != code.resource:
		oauthError(w, http.StatusBadRequest, "invalid_target", "resource differs from the authorization request's")
	default:
		s.issueTokens(w, grant{clientID: c.ID, subject: s.opts.Subject, resource: code.resource, scopes: code.scopes}, false)
	}
}

func (s *Server) refreshGrant(w http.ResponseWriter, r *http.Request, c Client) {
	rt := r.PostForm.Get("refresh_token")
	s.mu.Lock()
	g, ok := s.refresh[rt]
	delete(s.refresh, rt) // rotated: a refresh token works once
	s.mu.Unlock()
	switch {
	case !ok:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "unknown or already used refresh token")
	case g.clientID != c.ID:
		oauthError(w, http.StatusBadRequest, "invalid_grant", "the refresh token was issued to another client")
	case r.PostForm.Has("resource") && r.PostForm.Get("resource") != g.resource:
		oauthError(w, http.StatusBadRequest, "invalid_target", "resource differs from the grant's")
	default:
		s.issueTokens(w, g, true)
	}
}

// issueTokens answers a new access token and a new refresh token for g.
func (s *Server) issueTokens(w http.ResponseWriter, g grant, refreshed bool) {
	access, refresh := "at-"+rand.Text(), "rt-"+rand.Text()
	ag := g
	ag.expires = time.Now().Add(s.opts.AccessTokenLifetime)
	rg := g
	rg.expires = time.Time{}
	s.mu.Lock()
	s.access[access] = ag
	s.refresh[refresh] = rg
	if refreshed {
		s.stats.Refreshes++
	} else {
		s.stats.CodeExchanges++
	}
	s.noteIssued(g)
	s.mu.Unlock()

	writeJSON(w, http.StatusOK, map[string]any{
		"access_token":  access,
		"token_type":    "Bearer",
		"expires_in":    int(s.opts.AccessTokenLifetime.Seconds()),
		"refresh_token": refresh,
		"scope":         strings.Join(g.scopes, " "),
	})
}

// noteIssued records in the stats that a token was issued for g; mu is held.
func (s *Server) noteIssued(g grant) {
	s.stats.LastScopes = g.scopes
	s.stats.LastClientID = g.clientID
	s.stats.LastResource = g.resource
	s.stats.LastIssued = time.Now()
}

// s256 is the PKCE S256 transform of a code verifier (RFC 7636 §4.2).
func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}
