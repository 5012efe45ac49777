package oauthtest

import (
	"context"
	"crypto"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// dpopProofMaxAge bounds how old a DPoP proof's iat may be.
const dpopProofMaxAge = time.Minute

// proofClaims are the claims of a DPoP proof (RFC 9449 section 4.2).
type proofClaims struct {
	ID       string           `json:"jti"`
	Method   string           `json:"htm"`
	URI      string           `json:"htu"`
	IssuedAt *jwt.NumericDate `json:"iat"`
	Hash     string           `json:"ath"`
}

// verifyProof checks a DPoP proof for a request of method to uri (RFC 9449
// section 4.3) and returns the thumbprint of its key and its claims.
func verifyProof(proof, method, uri string) (string, proofClaims, error) {
	var c proofClaims
	tok, err := jwt.ParseSigned(proof, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		return "", c, errors.New("the DPoP proof is not an ES256 JWS")
	}
	h := tok.Headers[0]
	if h.ExtraHeaders["typ"] != "dpop+jwt" || h.JSONWebKey == nil || !h.JSONWebKey.IsPublic() {
		return "", c, errors.New("the DPoP proof needs typ dpop+jwt and a public jwk")
	}
	if err := tok.Claims(h.JSONWebKey.Key, &c); err != nil {
		return "", c, errors.New("the DPoP proof's signature does not verify")
	}
	switch {
	case c.Method != method || c.URI != uri:
		return "", c, errors.New("the DPoP proof's htm or htu does not match the request")
	case c.ID == "" || c.IssuedAt == nil || time.Since(c.IssuedAt.Time()).Abs() > dpopProofMaxAge:
		return "", c, errors.New("the DPoP proof needs a jti and a current iat")
	}
	sum, err := h.JSONWebKey.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", c, err
	}
	return base64.RawURLEncoding.EncodeToString(sum), c, nil
}

// checkTokenProof checks the DPoP proof of a token request and returns
// its key's thumbprint; without a valid one it answers invalid_dpop_proof.
func (s *Server) checkTokenProof(w http.ResponseWriter, r *http.Request) (string, bool) {
	jkt, _, err := verifyProof(r.Header.Get("DPoP"), http.MethodPost, s.Issuer+"/token")
	if err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_dpop_proof", err.Error())
		return "", false
	}
	return jkt, true
}

type dpopProvenKey struct{}

// dpopScheme takes access tokens sent with the DPoP scheme: the proof
// must be for this request, bound to the token (ath) and signed with the
// key the token is bound to. The request goes on with the token as a
// Bearer token, marked as proven for verifyToken; a bound token sent as a
// Bearer token is refused there.
func (s *Server) dpopScheme(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "DPoP ")
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		jkt, c, err := verifyProof(r.Header.Get("DPoP"), r.Method, s.MCPURL)
		sum := sha256.Sum256([]byte(token))
		if err != nil || c.Hash != base64.RawURLEncoding.EncodeToString(sum[:]) {
			w.Header().Set("WWW-Authenticate", `DPoP error="invalid_dpop_proof", algs="ES256"`)
			http.Error(w, "invalid DPoP proof", http.StatusUnauthorized)
			return
		}
		r = r.Clone(context.WithValue(r.Context(), dpopProvenKey{}, jkt))
		r.Header.Set("Authorization", "Bearer "+token)
		next.ServeHTTP(w, r)
	})
}

// provenKey is the thumbprint of the DPoP key the request proved it
// holds; "" when it brought no proof.
func provenKey(r *http.Request) string {
	if r == nil {
		return ""
	}
	jkt, _ := r.Context().Value(dpopProvenKey{}).(string)
	return jkt
}
