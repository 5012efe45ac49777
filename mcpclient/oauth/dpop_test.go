package oauth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"golang.org/x/oauth2"
)

// verifyProof checks a DPoP proof the way a server does (RFC 9449 section
// 4.3) and returns its claims.
func verifyProof(t *testing.T, proof string) proofClaims {
	t.Helper()
	tok, err := jwt.ParseSigned(proof, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatalf("proof is not a JWS: %v", err)
	}
	h := tok.Headers[0]
	if h.ExtraHeaders["typ"] != "dpop+jwt" {
		t.Errorf("typ = %v, want dpop+jwt", h.ExtraHeaders["typ"])
	}
	if h.JSONWebKey == nil || !h.JSONWebKey.IsPublic() {
		t.Fatalf("jwk header missing or not a public key: %+v", h.JSONWebKey)
	}
	var c proofClaims
	if err := tok.Claims(h.JSONWebKey.Key, &c); err != nil {
		t.Fatalf("the signature does not verify with the embedded key: %v", err)
	}
	return c
}

func TestDPoPProofClaims(t *testing.T) {
	p, err := NewDPoP()
	if err != nil {
		t.Fatal(err)
	}
	target, _ := url.Parse("https://mcp.example.com/mcp?x=1#frag")
	proof, err := p.Proof(http.MethodPost, target, "the-token")
	if err != nil {
		t.Fatal(err)
	}
	c := verifyProof(t, proof)
	sum := sha256.Sum256([]byte("the-token"))
	if want := base64.RawURLEncoding.EncodeToString(sum[:]); c.Hash != want {
		t.Errorf("ath = %q, want %q", c.Hash, want)
	}
	if c.Method != "POST" || c.URI != "https://mcp.example.com/mcp" {
		t.Errorf("htm, htu = %q, %q; want POST, the URL without query and fragment", c.Method, c.URI)
	}
	if c.ID == "" || c.IssuedAt == nil || time.Since(c.IssuedAt.Time()) > time.Minute || c.Nonce != "" {
		t.Errorf("jti %q, iat %v, nonce %q: want a jti, a current iat and no nonce", c.ID, c.IssuedAt, c.Nonce)
	}
	again, _ := p.Proof(http.MethodPost, target, "the-token")
	if verifyProof(t, again).ID == c.ID {
		t.Error("two proofs share a jti")
	}
}

// TestDPoPTokenRequestNonce: a token request refused with use_dpop_nonce is
// sent once more with the server's nonce.
func TestDPoPTokenRequestNonce(t *testing.T) {
	p, err := NewDPoP()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var nonces []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := verifyProof(t, r.Header.Get("DPoP"))
		_ = r.ParseForm()
		mu.Lock()
		nonces = append(nonces, c.Nonce)
		mu.Unlock()
		if r.Form.Get("grant_type") != "authorization_code" {
			t.Errorf("the form was lost: %v", r.Form)
		}
		w.Header().Set("Content-Type", "application/json")
		if c.Nonce != "n-1" {
			w.Header().Set("DPoP-Nonce", "n-1")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"use_dpop_nonce"}`))
			return
		}
		w.Write([]byte(`{"access_token":"at","token_type":"DPoP"}`))
	}))
	defer srv.Close()
	client := &http.Client{Transport: p.Transport(nil)}
	resp, err := client.PostForm(srv.URL+"/token", url.Values{"grant_type": {"authorization_code"}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d, want 200 after the nonce retry", resp.StatusCode)
	}
	if strings.Join(nonces, ",") != ",n-1" {
		t.Errorf("nonces sent: %q, want none and then n-1", nonces)
	}
}

type staticHandler struct {
	tok        *oauth2.Token
	authorized int
}

func (h *staticHandler) TokenSource(context.Context) (oauth2.TokenSource, error) {
	return oauth2.StaticTokenSource(h.tok), nil
}

func (h *staticHandler) Authorize(context.Context, *http.Request, *http.Response) error {
	h.authorized++
	return nil
}

// TestDPoPCredentials: a DPoP token goes with the DPoP scheme and a proof
// bound to it; a use_dpop_nonce refusal takes the nonce without
// authorizing again; a Bearer token goes as it is.
func TestDPoPCredentials(t *testing.T) {
	p, err := NewDPoP()
	if err != nil {
		t.Fatal(err)
	}
	h := &staticHandler{tok: &oauth2.Token{AccessToken: "at", TokenType: "DPoP"}}
	creds := p.Credentials(h)
	req := httptest.NewRequest(http.MethodPost, "http://mcp.example.com/mcp", nil)
	if err := creds.Sign(req); err != nil {
		t.Fatal(err)
	}
	if got := req.Header.Get("Authorization"); got != "DPoP at" {
		t.Errorf("Authorization = %q, want DPoP at", got)
	}
	if c := verifyProof(t, req.Header.Get("DPoP")); c.Hash == "" || c.Nonce != "" {
		t.Errorf("proof ath %q nonce %q: want an ath and no nonce yet", c.Hash, c.Nonce)
	}

	refusal := &http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{
		"Www-Authenticate": {`DPoP error="use_dpop_nonce"`}, "Dpop-Nonce": {"rs-1"}}}
	if err := creds.Refused(context.Background(), req, refusal); err != nil {
		t.Fatal(err)
	}
	if h.authorized != 0 {
		t.Error("a nonce challenge ran the authorization")
	}
	req = httptest.NewRequest(http.MethodPost, "http://mcp.example.com/mcp", nil)
	_ = creds.Sign(req)
	if c := verifyProof(t, req.Header.Get("DPoP")); c.Nonce != "rs-1" {
		t.Errorf("nonce = %q after the challenge, want rs-1", c.Nonce)
	}
	refusal.Header = http.Header{"Www-Authenticate": {`DPoP error="invalid_token"`}}
	_ = creds.Refused(context.Background(), req, refusal)
	if h.authorized != 1 {
		t.Error("an invalid_token refusal did not run the authorization")
	}

	h.tok = &oauth2.Token{AccessToken: "bt", TokenType: "Bearer"}
	req = httptest.NewRequest(http.MethodPost, "http://mcp.example.com/mcp", nil)
	_ = creds.Sign(req)
	if req.Header.Get("Authorization") != "Bearer bt" || req.Header.Get("DPoP") != "" {
		t.Errorf("a Bearer token went as %q with DPoP %q", req.Header.Get("Authorization"), req.Header.Get("DPoP"))
	}
}

func TestTokenErrorIsReported(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(map[string]string{"error": "invalid_grant", "error_description": "expired"})
	}))
	defer srv.Close()
	_, err := postToken(context.Background(), srv.Client(), srv.URL, url.Values{}, nil)
	te, ok := err.(*TokenError)
	if !ok || te.Code != "invalid_grant" || te.Description != "expired" {
		t.Errorf("err = %v, want the invalid_grant TokenError", err)
	}
}
