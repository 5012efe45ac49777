package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"

	"github.com/go-jose/go-jose/v4"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/mcpclient/oauth"
)

// The conformance suite's authorization servers take this client ID
// metadata document URL (they do not fetch it), and any redirect URI: they
// approve at once and redirect to it with the code.
const (
	conformanceClientMetadataURL = "https://conformance-test.local/client-metadata.json"
	conformanceRedirectURL       = "http://localhost:3000/callback"
)

// conformanceAuth is what a scenario's MCP_CONFORMANCE_CONTEXT holds for
// authorization.
type conformanceAuth struct {
	ClientID         string `json:"client_id"`
	ClientSecret     string `json:"client_secret"`
	Issuer           string `json:"issuer"` // of the pre-registered client's authorization server
	PrivateKeyPEM    string `json:"private_key_pem"`
	SigningAlgorithm string `json:"signing_algorithm"`
	IdPClientID      string `json:"idp_client_id"`
	IdPIDToken       string `json:"idp_id_token"`
	IdPIssuer        string `json:"idp_issuer"`
	IdPTokenEndpoint string `json:"idp_token_endpoint"`
	WorkloadJWT      string `json:"valid_jwt"`
}

// conformanceCredentials chooses the credentials from what the context
// holds: an identity provider's ID token means enterprise-managed
// authorization, a workload JWT a JWT bearer grant, a private key the
// client credentials grant with private_key_jwt. Otherwise the choice
// waits for the authorization server's metadata: one that grants client
// credentials but no authorization code gets the client ID and secret,
// any other the authorization code flow (client ID metadata document,
// the pre-registered client, or dynamic registration), with DPoP-bound
// tokens where the server issues them.
func conformanceCredentials(raw json.RawMessage, serverURL string) (mcpclient.Credentials, error) {
	var c conformanceAuth
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &c); err != nil {
			return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	client := &http.Client{}
	switch {
	case c.IdPIDToken != "":
		e := oauth.Enterprise{
			IdPIssuer: c.IdPIssuer, IdPTokenEndpoint: c.IdPTokenEndpoint,
			IdPClient: oauthex.ClientCredentials{ClientID: c.IdPClientID},
			IDToken:   c.IdPIDToken,
			Client:    oauth.ClientAuth{ClientID: c.ClientID, ClientSecret: c.ClientSecret},
		}
		return oauth.NewGrantCredentials(serverURL, client, e.Grant()), nil
	case c.WorkloadJWT != "":
		assertion := func(context.Context, *http.Client, *oauth.Discovery) (string, error) { return c.WorkloadJWT, nil }
		return oauth.NewGrantCredentials(serverURL, client, oauth.JWTBearerGrant(oauth.ClientAuth{ClientID: c.ClientID}, assertion)), nil
	case c.PrivateKeyPEM != "":
		key, err := oauth.ParsePrivateKey(c.PrivateKeyPEM)
		if err != nil {
			return nil, fmt.Errorf("MCP_CONFORMANCE_CONTEXT: private_key_pem: %w", err)
		}
		if c.SigningAlgorithm != "" {
			key.Algorithm = jose.SignatureAlgorithm(c.SigningAlgorithm)
		}
		ca := oauth.ClientAuth{ClientID: c.ClientID, Key: key.Key, Algorithm: key.Algorithm}
		return oauth.NewGrantCredentials(serverURL, client, oauth.ClientCredentialsGrant(ca)), nil
	}
	return &grantChoice{serverURL: serverURL, client: client, ctx: c}, nil
}

// grantChoice defers the choice of a grant to the first refusal, when the
// authorization server's metadata is known.
type grantChoice struct {
	serverURL string
	client    *http.Client
	ctx       conformanceAuth

	mu     sync.Mutex
	chosen mcpclient.Credentials
}

func (g *grantChoice) Sign(req *http.Request) error {
	g.mu.Lock()
	chosen := g.chosen
	g.mu.Unlock()
	if chosen == nil {
		return nil
	}
	return chosen.Sign(req)
}

// Refused is serialized by the transport; only Sign runs alongside it.
func (g *grantChoice) Refused(ctx context.Context, req *http.Request, resp *http.Response) error {
	g.mu.Lock()
	chosen := g.chosen
	g.mu.Unlock()
	if chosen == nil {
		creds, err := g.choose(ctx, resp)
		if err != nil {
			return err
		}
		g.mu.Lock()
		g.chosen, chosen = creds, creds
		g.mu.Unlock()
	}
	return chosen.Refused(ctx, req, resp)
}

func (g *grantChoice) choose(ctx context.Context, resp *http.Response) (mcpclient.Credentials, error) {
	var grants []string
	if d, err := oauth.Discover(ctx, g.client, g.serverURL, resp); err == nil {
		grants = d.AS.GrantTypesSupported
	}
	c := g.ctx
	if c.ClientSecret != "" && slices.Contains(grants, "client_credentials") && !slices.Contains(grants, "authorization_code") {
		h, err := extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
			Credentials: &oauthex.ClientCredentials{ClientID: c.ClientID, ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: c.ClientSecret}},
			HTTPClient:  g.client,
		})
		if err != nil {
			return nil, err
		}
		return mcpclient.OAuthCredentials(h), nil
	}
	dpop, err := oauth.NewDPoP()
	if err != nil {
		return nil, err
	}
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:                    conformanceRedirectURL,
		AuthorizationCodeFetcher:       fetchAuthorizationCode,
		ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{URL: conformanceClientMetadataURL},
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{conformanceRedirectURL}},
		},
		RequestRefreshToken: true,
		Client:              &http.Client{Transport: dpop.Transport(g.client.Transport)},
	}
	if c.ClientID != "" && c.ClientSecret != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: c.ClientID,
			ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: c.ClientSecret}, Issuer: c.Issuer}
	}
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return nil, err
	}
	return dpop.Credentials(h), nil
}

// fetchAuthorizationCode follows the authorization URL the way a browser
// would, without a user: the suite's authorization servers approve at
// once, and the redirect's Location holds the code, the state and the
// issuer.
func fetchAuthorizationCode(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, args.URL, nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.Header.Get("Location") == "" {
		return nil, fmt.Errorf("the authorization endpoint answered HTTP %d without a redirect", resp.StatusCode)
	}
	q := loc.Query()
	if e := q.Get("error"); e != "" {
		return nil, fmt.Errorf("authorization refused: %s %s", e, q.Get("error_description"))
	}
	return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
}
