package oauth

import (
	"context"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Enterprise configures enterprise-managed authorization (SEP-990): an ID
// token of the user's identity provider is exchanged there for an
// identity assertion grant (ID-JAG, RFC 8693), which the MCP server's
// authorization server takes in a JWT bearer grant (RFC 7523).
type Enterprise struct {
	IdPIssuer        string // the identity provider's issuer, for its metadata
	IdPTokenEndpoint string // "" discovers it from IdPIssuer
	IdPClient        oauthex.ClientCredentials
	IDToken          string     // the user's ID token at the identity provider
	Client           ClientAuth // the client at the MCP server's authorization server
}

// Grant returns the JWT bearer grant of an ID-JAG the identity provider
// issues for the discovered authorization server and resource.
func (e Enterprise) Grant() Grant {
	return JWTBearerGrant(e.Client, func(ctx context.Context, client *http.Client, d *Discovery) (string, error) {
		endpoint := e.IdPTokenEndpoint
		if endpoint == "" {
			meta, err := auth.GetAuthServerMetadata(ctx, e.IdPIssuer, client)
			if err != nil {
				return "", fmt.Errorf("identity provider metadata: %w", err)
			}
			if meta == nil {
				return "", fmt.Errorf("no metadata found for the identity provider %s", e.IdPIssuer)
			}
			endpoint = meta.TokenEndpoint
		}
		idc := e.IdPClient
		jag, err := oauthex.ExchangeToken(ctx, endpoint, &oauthex.TokenExchangeRequest{
			RequestedTokenType: oauthex.TokenTypeIDJAG,
			Audience:           d.AS.Issuer,
			Resource:           d.Resource,
			Scope:              d.Scopes,
			SubjectToken:       e.IDToken,
			SubjectTokenType:   oauthex.TokenTypeIDToken,
		}, &idc, client)
		if err != nil {
			return "", fmt.Errorf("token exchange at the identity provider: %w", err)
		}
		return jag.AccessToken, nil
	})
}
