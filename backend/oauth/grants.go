package oauth

import (
	"context"

	"github.com/mcp-playground/playground/backend"
)

// Grants returns the server's grants, newest first.
func (o *Service) Grants(ctx context.Context, serverID int64) ([]Grant, error) {
	return o.store.OAuthGrants(ctx, serverID)
}

// SignOut forgets a person's grant for the server. Sessions open with it
// keep their token until they end.
func (o *Service) SignOut(ctx context.Context, serverID, userID int64) error {
	return o.store.DeleteOAuthGrant(ctx, serverID, userID)
}

// Share sets whether a person's own grant for the server serves the
// teammates who have none; ENotFound when they have no grant.
func (o *Service) Share(ctx context.Context, serverID, userID int64, shared bool) error {
	return o.store.ShareOAuthGrant(ctx, serverID, userID, shared)
}

// Flow returns one of the server's flows with its steps; ENotFound when
// the flow is another server's.
func (o *Service) Flow(ctx context.Context, serverID, flowID int64) (Flow, error) {
	f, err := o.store.OAuthFlow(ctx, flowID)
	if err == nil && f.ServerID != serverID {
		return Flow{}, backend.Errorf(backend.ENotFound, "Sign-in %d is not one of this server's.", flowID)
	}
	return f, err
}

// recentFlows is how many of a server's flows its page lists.
const recentFlows = 10

// Flows returns the server's latest flows, without their steps.
func (o *Service) Flows(ctx context.Context, serverID int64) ([]Flow, error) {
	return o.store.OAuthFlows(ctx, serverID, recentFlows)
}

// Settings returns the server's OAuth settings.
func (o *Service) Settings(ctx context.Context, serverID int64) (Settings, error) {
	return o.store.OAuthSettings(ctx, serverID)
}

// SaveSettings checks and stores the server's OAuth settings; the next
// sign-in or connection uses them. An empty client secret or private key
// keeps the stored one while the client ID stays the same, and with it the
// authorization server it may be sent to (Settings.Issuer), unless
// confirm (an admin saves) forgets that issuer, for the next successful
// use to pin the one discovered then. Invalid
// settings are an EInvalid *Error whose Fields name the form fields (see
// Settings.normalized).
func (o *Service) SaveSettings(ctx context.Context, serverID int64, s Settings, confirm bool) error {
	old, err := o.store.OAuthSettings(ctx, serverID)
	if err != nil {
		return err
	}
	s, err = s.keeping(old, confirm).normalized()
	if err != nil {
		return err
	}
	return o.store.SaveOAuthSettings(ctx, serverID, s)
}
