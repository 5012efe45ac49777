package backend

import (
	"context"
	"errors"
	"net/http"
	"time"

	"golang.org/x/oauth2"

	"github.com/mcp-playground/playground/mcpclient"
)

// ErrOAuthSignInNeeded is in the chain of a connection the server refused
// because nobody signed in to it (or the sign-in can no longer be renewed).
var ErrOAuthSignInNeeded = errors.New("the server needs OAuth sign-in")

// Credentials returns the credentials that connect userID to the server:
// the access token of their grant, else of the server's shared grant,
// refreshed when it expires (each refresh a recorded flow, its new token
// stored). Without a grant the requests go unsigned and a refusal fails
// with ErrOAuthSignInNeeded.
func (o *OAuth) Credentials(ctx context.Context, srv Server, userID int64) (mcpclient.Credentials, error) {
	g, secret, ok, err := o.grant(ctx, srv.ID, userID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return signInNeeded{}, nil
	}
	refresher := &tokenRefresher{o: o, srv: srv, grant: g, secret: secret}
	return grantCredentials{ts: oauth2.ReuseTokenSourceWithExpiry(secret.Token, refresher, earlyExpiry(secret.Token))}, nil
}

// earlyExpiry is how long before its expiry a token is renewed: ten
// seconds (oauth2's default, for clock skew), a quarter of the lifetime
// of a token that lives less than 40 seconds, so that it is not renewed
// on every request.
func earlyExpiry(tok *oauth2.Token) time.Duration {
	const skew = 10 * time.Second
	if tok.ExpiresIn <= 0 {
		return skew
	}
	return max(time.Millisecond, min(skew, time.Duration(tok.ExpiresIn)*time.Second/4))
}

// tokenRefresher is the oauth2.TokenSource behind a grant's access token:
// called when the token has expired, never concurrently (the
// ReuseTokenSource around it serializes calls).
type tokenRefresher struct {
	o      *OAuth
	srv    Server
	grant  OAuthGrant
	secret grantSecret
}

func (r *tokenRefresher) Token() (*oauth2.Token, error) {
	tok, err := r.o.refresh(r.o.ctx, r.srv, r.grant, r.secret, 0, 0)
	if err == nil {
		r.secret.Token = tok
	}
	return tok, err
}

// grantCredentials sign requests with a grant's access token. A token
// that cannot be had (the refresh failed) leaves the request unsigned, so
// that the server's refusal says a sign-in is needed.
type grantCredentials struct{ ts oauth2.TokenSource }

func (c grantCredentials) Sign(req *http.Request) error {
	tok, err := c.ts.Token()
	if err != nil {
		return nil
	}
	req.Header.Set("Authorization", tok.Type()+" "+tok.AccessToken)
	return nil
}

func (grantCredentials) Refused(context.Context, *http.Request, *http.Response) error {
	return ErrOAuthSignInNeeded
}

// signInNeeded are the credentials of a server nobody signed in to.
type signInNeeded struct{}

func (signInNeeded) Sign(*http.Request) error { return nil }

func (signInNeeded) Refused(context.Context, *http.Request, *http.Response) error {
	return ErrOAuthSignInNeeded
}
