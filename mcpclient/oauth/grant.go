package oauth

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"golang.org/x/oauth2"
)

// Grant obtains an access token from the authorization server d names,
// for d's resource.
type Grant func(ctx context.Context, client *http.Client, d *Discovery) (*oauth2.Token, error)

// GrantCredentials are credentials a grant that needs no user obtains:
// the first refusal of the server (or a refusal of the token) discovers
// the authorization server and runs the grant once; the token is sent as
// a Bearer token. A failed grant is not retried.
type GrantCredentials struct {
	serverURL string
	client    *http.Client
	grant     Grant

	mu    sync.Mutex
	token *oauth2.Token
}

// NewGrantCredentials returns credentials for the server at serverURL
// that grant obtains; client (nil: http.DefaultClient) reaches the
// metadata and the authorization server.
func NewGrantCredentials(serverURL string, client *http.Client, grant Grant) *GrantCredentials {
	if client == nil {
		client = http.DefaultClient
	}
	return &GrantCredentials{serverURL: serverURL, client: client, grant: grant}
}

func (g *GrantCredentials) Sign(req *http.Request) error {
	g.mu.Lock()
	tok := g.token
	g.mu.Unlock()
	if tok != nil {
		req.Header.Set("Authorization", tok.Type()+" "+tok.AccessToken)
	}
	return nil
}

func (g *GrantCredentials) Refused(ctx context.Context, _ *http.Request, resp *http.Response) error {
	d, err := Discover(ctx, g.client, g.serverURL, resp)
	if err != nil {
		return err
	}
	tok, err := g.grant(ctx, g.client, d)
	if err != nil {
		return err
	}
	if tok.AccessToken == "" {
		return errors.New("the authorization server's answer holds no access_token")
	}
	g.mu.Lock()
	g.token = tok
	g.mu.Unlock()
	return nil
}
