package oauth

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// DPoP proves possession of a key with every request (RFC 9449): it signs
// proof JWTs with an ES256 key of its own and keeps the nonces servers
// hand out (DPoP-Nonce), one per origin.
type DPoP struct {
	signer jose.Signer

	mu     sync.Mutex
	nonces map[string]string // origin -> the last nonce it gave
}

// NewDPoP returns a DPoP prover with a fresh P-256 key.
func NewDPoP() (*DPoP, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key},
		(&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt"))
	if err != nil {
		return nil, err
	}
	return &DPoP{signer: signer, nonces: map[string]string{}}, nil
}

// proofClaims are the claims of a DPoP proof (RFC 9449 section 4.2).
type proofClaims struct {
	ID       string           `json:"jti"`
	Method   string           `json:"htm"`
	URI      string           `json:"htu"`
	IssuedAt *jwt.NumericDate `json:"iat"`
	Nonce    string           `json:"nonce,omitempty"`
	Hash     string           `json:"ath,omitempty"` // of the access token presented with it
}

// Proof signs a proof for a request of method to target, bound to
// accessToken when one is presented, with the target origin's nonce.
func (p *DPoP) Proof(method string, target *url.URL, accessToken string) (string, error) {
	htu := url.URL{Scheme: target.Scheme, Host: target.Host, Path: target.Path}
	c := proofClaims{ID: randomID(), Method: method, URI: htu.String(),
		IssuedAt: jwt.NewNumericDate(time.Now()), Nonce: p.nonce(target)}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		c.Hash = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	return jwt.Signed(p.signer).Claims(c).Serialize()
}

func origin(u *url.URL) string { return strings.ToLower(u.Scheme + "://" + u.Host) }

func (p *DPoP) nonce(u *url.URL) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.nonces[origin(u)]
}

// takeNonce keeps the DPoP-Nonce of resp, from a server at u, and reports
// whether it is a new one.
func (p *DPoP) takeNonce(u *url.URL, resp *http.Response) bool {
	n := resp.Header.Get("DPoP-Nonce")
	if n == "" {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fresh := p.nonces[origin(u)] != n
	p.nonces[origin(u)] = n
	return fresh
}

// Transport is for the authorization server: it adds a proof to every
// token request (a form POST) and sends it once more with the nonce the
// server asks for (error use_dpop_nonce, RFC 9449 section 8).
func (p *DPoP) Transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return tokenProofTransport{p, base}
}

type tokenProofTransport struct {
	p    *DPoP
	base http.RoundTripper
}

func (t tokenProofTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || !strings.HasPrefix(req.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		return t.base.RoundTrip(req)
	}
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
	}
	for attempt := 0; ; attempt++ {
		proof, err := t.p.Proof(req.Method, req.URL, "")
		if err != nil {
			return nil, err
		}
		r := req.Clone(req.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.Header.Set("DPoP", proof)
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		fresh := t.p.takeNonce(req.URL, resp)
		if attempt > 0 || !fresh || resp.StatusCode != http.StatusBadRequest || !asksForNonce(resp) {
			return resp, nil
		}
		resp.Body.Close()
	}
}

// asksForNonce reports whether a token endpoint's 400 answer is the error
// use_dpop_nonce; the body is left readable.
func asksForNonce(resp *http.Response) bool {
	b, _ := io.ReadAll(io.LimitReader(resp.Body, tokenResponseLimit))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(b))
	var e struct {
		Error string `json:"error"`
	}
	return json.Unmarshal(b, &e) == nil && e.Error == "use_dpop_nonce"
}

// Credentials returns credentials that present the tokens h obtains: a
// DPoP-bound token (token_type DPoP) with the DPoP scheme and a fresh
// proof per request, any other as it comes. h must reach the authorization
// server through Transport. A refusal that only asks for a new nonce
// (error use_dpop_nonce with a DPoP-Nonce header) is answered by taking
// the nonce; any other runs h's authorization.
func (p *DPoP) Credentials(h auth.OAuthHandler) *DPoPCredentials {
	return &DPoPCredentials{p: p, h: h}
}

// DPoPCredentials are the credentials of DPoP.Credentials.
type DPoPCredentials struct {
	p *DPoP
	h auth.OAuthHandler
}

func (c *DPoPCredentials) Sign(req *http.Request) error {
	ts, err := c.h.TokenSource(req.Context())
	if err != nil || ts == nil {
		return err
	}
	tok, err := ts.Token()
	if err != nil {
		return err
	}
	if !strings.EqualFold(tok.TokenType, "DPoP") {
		req.Header.Set("Authorization", tok.Type()+" "+tok.AccessToken)
		return nil
	}
	proof, err := c.p.Proof(req.Method, req.URL, tok.AccessToken)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "DPoP "+tok.AccessToken)
	req.Header.Set("DPoP", proof)
	return nil
}

func (c *DPoPCredentials) Refused(ctx context.Context, req *http.Request, resp *http.Response) error {
	if c.p.takeNonce(req.URL, resp) && challengeError(resp) == "use_dpop_nonce" {
		return nil
	}
	return c.h.Authorize(ctx, req, resp)
}

// challengeError is the error parameter of resp's WWW-Authenticate
// challenges, if any.
func challengeError(resp *http.Response) string {
	cs, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	for _, c := range cs {
		if e := c.Params["error"]; e != "" {
			return e
		}
	}
	return ""
}
