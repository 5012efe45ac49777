package oauth

import (
	"context"
	"fmt"

	"github.com/mcp-playground/playground/backend"
)

// An OAuth client's secret or private key authenticates it at the token
// endpoint of the authorization server that the MCP server's metadata
// names, which the server (or whoever answers at its URL) can change at
// any time. So the settings remember the issuer the secret was first used
// with successfully (Settings.Issuer), and the secret goes to no
// other until someone confirms: an admin saving the OAuth settings, or
// anyone typing the secret or key again (Service.SaveSettings).

// issuerRefusal returns nil when the client secret or key of the server's
// settings may be sent to the token endpoint of issuer, and otherwise an
// error, a plain sentence that names both issuers and says who may
// confirm the new one.
func issuerRefusal(srv backend.Server, settings Settings, issuer string) error {
	if settings.Issuer == "" || settings.Issuer == issuer {
		return nil
	}
	return fmt.Errorf("the authorization server of %s is now %s, not %s, which its OAuth client was confirmed for: the client secret or key is not sent to it until an admin confirms the new one by saving the server's OAuth settings again (or someone enters the secret or key again)",
		srv.Name, issuer, settings.Issuer)
}

// pinIssuer remembers issuer as the one the server's client secret or key
// may be sent to, when none is yet, after a first successful use.
// A failure is logged: the next use tries again.
func (o *Service) pinIssuer(ctx context.Context, serverID int64, settings *Settings, issuer string) {
	if settings.Issuer != "" || issuer == "" {
		return
	}
	if err := o.store.PinOAuthIssuer(context.WithoutCancel(ctx), serverID, issuer); err != nil {
		o.log.Error("remembering the OAuth issuer", "server", serverID, "err", err)
		return
	}
	settings.Issuer = issuer
}
