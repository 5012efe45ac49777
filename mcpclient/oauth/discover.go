package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Discovery is what a server's refusal leads to (RFC 9728, RFC 8414): the
// resource to ask a token for, the scopes to ask, and the metadata of the
// authorization server that issues it.
type Discovery struct {
	Resource string   // the protected resource's identifier
	Scopes   []string // from the challenge, else the resource's scopes_supported
	AS       *oauthex.AuthServerMeta
}

// Discover follows a refusal of serverURL (resp, a 401 or 403) to the
// protected resource metadata, from the challenge's resource_metadata or
// the well-known locations, and to its first authorization server's
// metadata.
func Discover(ctx context.Context, client *http.Client, serverURL string, resp *http.Response) (*Discovery, error) {
	challenges, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	var metadataURL string
	var scopes []string
	for _, c := range challenges {
		if metadataURL == "" {
			metadataURL = c.Params["resource_metadata"]
		}
		if scopes == nil && c.Params["scope"] != "" {
			scopes = strings.Fields(c.Params["scope"])
		}
	}
	candidates, err := metadataURLs(metadataURL, serverURL)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, c := range candidates {
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, c.url, c.resource, client)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("the protected resource metadata at %s names no authorization server", c.url)
		}
		asm, err := auth.GetAuthServerMetadata(ctx, prm.AuthorizationServers[0], client)
		if err != nil {
			return nil, err
		}
		if asm == nil {
			return nil, fmt.Errorf("no authorization server metadata found for %s", prm.AuthorizationServers[0])
		}
		if scopes == nil {
			scopes = prm.ScopesSupported
		}
		return &Discovery{Resource: prm.Resource, Scopes: scopes, AS: asm}, nil
	}
	return nil, fmt.Errorf("no protected resource metadata for %s: %w", serverURL, errors.Join(errs...))
}

type metadataURL struct{ url, resource string }

// metadataURLs lists where the protected resource metadata of serverURL
// may be: the challenge's URL, else the path-aware and the root
// well-known URLs (RFC 9728 section 3.1).
func metadataURLs(fromChallenge, serverURL string) ([]metadataURL, error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil, err
	}
	resource := serverURL
	if fromChallenge != "" {
		return []metadataURL{{fromChallenge, resource}}, nil
	}
	root := u.Scheme + "://" + u.Host
	var out []metadataURL
	if p := strings.TrimSuffix(u.Path, "/"); p != "" {
		out = append(out, metadataURL{root + "/.well-known/oauth-protected-resource" + p, resource})
	}
	return append(out, metadataURL{root + "/.well-known/oauth-protected-resource", root}), nil
}
