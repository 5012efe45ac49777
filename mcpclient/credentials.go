package mcpclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"golang.org/x/oauth2"
)

// Credentials authorize a client's HTTP requests to a server, such as an
// OAuth access token, and obtain new ones when the server refuses them.
type Credentials interface {
	// Sign sets the credential headers of req (Authorization, and a DPoP
	// proof for a sender-constrained token). A request sent before any
	// credentials exist is left unsigned.
	Sign(req *http.Request) error
	// Refused is told that the server answered req with resp, a 401 or
	// 403 (resp.Body holds the answer's start). It obtains new
	// credentials (sign in, refresh, step up to more scopes, take a DPoP
	// nonce) and returns nil for req to be signed and sent once more, or
	// why it could not. When the resent request is refused too, Refused
	// is called once more (a new DPoP-bound token may draw a nonce
	// challenge); a third refusal is the answer. Calls are serialized.
	Refused(ctx context.Context, req *http.Request, resp *http.Response) error
}

// OAuthCredentials adapts an OAuth handler of the official Go SDK (such as
// auth.AuthorizationCodeHandler): its token source's access token is sent
// as a Bearer token, and a refused request runs its Authorize.
func OAuthCredentials(h auth.OAuthHandler) Credentials { return sdkCredentials{h} }

type sdkCredentials struct{ h auth.OAuthHandler }

func (s sdkCredentials) Sign(req *http.Request) error {
	ts, err := s.h.TokenSource(req.Context())
	if err != nil || ts == nil {
		return err
	}
	tok, err := ts.Token()
	var refused *oauth2.RetrieveError
	if errors.As(err, &refused) && refused.ErrorCode == "invalid_grant" {
		return nil // the refresh token is no longer good: the server's 401 leads to Refused
	}
	if err != nil {
		return fmt.Errorf("OAuth token: %w", err)
	}
	req.Header.Set("Authorization", tok.Type()+" "+tok.AccessToken)
	return nil
}

func (s sdkCredentials) Refused(ctx context.Context, req *http.Request, resp *http.Response) error {
	return s.h.Authorize(ctx, req, resp)
}

// AuthError is a request the server refused (401 or 403) for which no new
// credentials could be obtained.
type AuthError struct {
	Status    int    // 401 or 403
	Challenge string // the WWW-Authenticate header of the refusal
	Err       error  // why no credentials were obtained
}

func (e *AuthError) Error() string {
	msg := fmt.Sprintf("the server refused the request with HTTP %d %s", e.Status, http.StatusText(e.Status))
	if e.Challenge != "" {
		msg += " (WWW-Authenticate: " + e.Challenge + ")"
	}
	return msg + " and authorization failed: " + e.Err.Error()
}

func (e *AuthError) Unwrap() error { return e.Err }

// refusalExcerpt bounds how much of a refusal's body is kept for Refused
// and the transport.
const refusalExcerpt = 64 << 10

// credentialTransport signs every request to origin with creds; a request
// answered 401 or 403 is handed to creds.Refused and, when that obtains new
// credentials, sent once more (up to maxRefusals times). Requests to other origins (redirects) are
// sent unsigned. Refusals are serialized: a request signed before another
// request's refusal obtained new credentials is simply sent again.
type credentialTransport struct {
	base   http.RoundTripper
	origin *url.URL
	creds  Credentials
	note   func(req *http.Request, resp *http.Response, text string)

	mu         sync.Mutex
	generation int // counts the credentials obtained by Refused
}

func (t *credentialTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !SameOrigin(req.URL, t.origin) {
		return t.base.RoundTrip(req)
	}
	for refusals := 0; ; refusals++ {
		resp, signedAt, err := t.send(req)
		if err != nil || (resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden) {
			return resp, err
		}
		if refusals == maxRefusals || (req.Body != nil && req.GetBody == nil) {
			return resp, nil // refused too often, or cannot be sent again
		}
		if err := t.refused(req, resp, signedAt); err != nil {
			return nil, err
		}
		if req.GetBody != nil {
			b, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			req = req.Clone(req.Context())
			req.Body = b
		}
	}
}

// maxRefusals bounds how often one request is refused and sent again: a
// new token can itself be refused once more with a challenge the
// credentials answer without the user (a DPoP nonce).
const maxRefusals = 2

// refused hands a refusal of req, signed with the credentials of
// generation signedAt, to creds.Refused, unless newer credentials exist
// already. resp.Body is read.
func (t *credentialTransport) refused(req *http.Request, resp *http.Response, signedAt int) error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, refusalExcerpt))
	resp.Body.Close()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.generation != signedAt {
		return nil
	}
	t.note(req, resp, fmt.Sprintf("HTTP %d: the server asks for authorization (%s); obtaining credentials",
		resp.StatusCode, challengeText(resp)))
	refusal := *resp
	refusal.Body = io.NopCloser(bytes.NewReader(body))
	if err := t.creds.Refused(req.Context(), req, &refusal); err != nil {
		return &AuthError{Status: resp.StatusCode, Challenge: resp.Header.Get("WWW-Authenticate"), Err: err}
	}
	t.generation++
	return nil
}

// send signs a copy of req and sends it, returning the credentials'
// generation it was signed with.
func (t *credentialTransport) send(req *http.Request) (*http.Response, int, error) {
	t.mu.Lock()
	gen := t.generation
	t.mu.Unlock()
	signed := req.Clone(req.Context())
	if err := t.creds.Sign(signed); err != nil {
		return nil, gen, err
	}
	resp, err := t.base.RoundTrip(signed)
	return resp, gen, err
}

func challengeText(resp *http.Response) string {
	if c := strings.Join(resp.Header.Values("WWW-Authenticate"), ", "); c != "" {
		return "WWW-Authenticate: " + c
	}
	return "no WWW-Authenticate challenge"
}

// noteRefused records a refused request before its credentials are renewed.
func (c *Client) noteRefused(req *http.Request, resp *http.Response, text string) {
	c.note(&HTTPInfo{Method: req.Method, URL: req.URL.String(), Status: resp.StatusCode, Header: resp.Header.Clone()}, "%s", text)
}
