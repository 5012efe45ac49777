package oauth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

// Credentials returns the credentials that connect userID to the server:
// when its settings choose client credentials, tokens the playground
// obtains itself (clientCredentials); otherwise the access token of their grant, else of the server's shared grant,
// refreshed when it expires or the server refuses it (each refresh a
// recorded step, its new token stored). Without a grant the requests go
// unsigned and a refusal fails with ErrOAuthSignInNeeded.
func (o *Service) Credentials(ctx context.Context, srv backend.Server, userID int64) (mcpclient.Credentials, error) {
	settings, err := o.store.OAuthSettings(ctx, srv.ID)
	if err != nil {
		return nil, err
	}
	if settings.Machine() {
		return o.clientCredentials(srv, userID, settings)
	}
	g, secret, ok, err := o.grant(ctx, srv.ID, userID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return signInNeeded{}, nil
	}
	return &grantCredentials{o: o, srv: srv, grant: g, secret: secret}, nil
}

// grantCredentials sign requests with a grant's access token, renewed
// with its refresh token shortly before it expires (earlyExpiry) and when
// the server refuses it. A token that cannot be had (the refresh failed)
// leaves the request unsigned, so that the server's refusal says a
// sign-in is needed. Safe for concurrent use.
type grantCredentials struct {
	o     *Service
	srv   backend.Server
	grant Grant

	mu     sync.Mutex
	secret grantSecret // its Token is the current one
}

// token returns the current access token, refreshed first when it is
// about to expire or renew is set.
func (c *grantCredentials) token(renew bool) (*oauth2.Token, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tok := c.secret.Token
	if !renew && tok.AccessToken != "" && (tok.Expiry.IsZero() || time.Until(tok.Expiry) > earlyExpiry(tok)) {
		return tok, nil
	}
	fresh, err := c.o.refresh(c.o.ctx, c.srv, c.grant, c.secret, 0, 0)
	if err != nil {
		return nil, err
	}
	c.secret.Token = fresh
	return fresh, nil
}

// Sign presents the access token to the origin of the resource the
// grant was obtained for, and refuses any other: a token is no key to a
// server it was not issued for, whatever its settings say now.
func (c *grantCredentials) Sign(req *http.Request) error {
	resource := c.secret.Resource
	if resource == "" {
		resource = c.srv.URL
	}
	if r, err := url.Parse(resource); err != nil || !mcpclient.SameOrigin(r, req.URL) {
		return fmt.Errorf("the OAuth sign-in to %s was obtained for %s and is not presented to %s: sign in again", c.srv.Name, backend.RedactURL(resource), backend.RedactURL(req.URL.Scheme+"://"+req.URL.Host))
	}
	tok, err := c.token(false)
	if err != nil {
		return nil
	}
	req.Header.Set("Authorization", tok.Type()+" "+tok.AccessToken)
	return nil
}

// Refused renews a refused access token once (the server may have
// revoked it, or its clock runs ahead); a token that cannot be renewed,
// and a refusal for want of scopes (403), need a new sign-in.
func (c *grantCredentials) Refused(_ context.Context, _ *http.Request, resp *http.Response) error {
	if resp.StatusCode != http.StatusUnauthorized {
		return backend.ErrOAuthSignInNeeded
	}
	if _, err := c.token(true); err != nil {
		return fmt.Errorf("%w: %v", backend.ErrOAuthSignInNeeded, err)
	}
	return nil
}

// earlyExpiry is how long before its expiry a token is renewed: ten
// seconds (oauth2's default, for clock skew), a tenth of the lifetime of
// a token that lives less than 100 seconds, so that it is not renewed on
// every request.
func earlyExpiry(tok *oauth2.Token) time.Duration {
	const skew = 10 * time.Second
	if tok.ExpiresIn <= 0 {
		return skew
	}
	return min(skew, time.Duration(tok.ExpiresIn)*time.Second/10)
}

// signInNeeded are the credentials of a server nobody signed in to.
type signInNeeded struct{}

func (signInNeeded) Sign(*http.Request) error { return nil }

func (signInNeeded) Refused(context.Context, *http.Request, *http.Response) error {
	return backend.ErrOAuthSignInNeeded
}
