package oauth

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/mcp-playground/playground/backend"
)

// grantSecret is what a grant keeps sealed: the token and the client
// configuration that refreshes it.
type grantSecret struct {
	Token        *oauth2.Token    `json:"token"`
	ClientID     string           `json:"client_id"`
	ClientSecret string           `json:"client_secret,omitempty"`
	AuthURL      string           `json:"auth_url"`
	TokenURL     string           `json:"token_url"`
	AuthStyle    oauth2.AuthStyle `json:"auth_style"`
	Scopes       []string         `json:"scopes,omitempty"`  // asked for
	Granted      []string         `json:"granted,omitempty"` // granted, as the token answer said
	// FlowID is the sign-in that obtained the grant; its refreshes are
	// recorded as further steps of that flow.
	FlowID int64 `json:"flow_id"`
	// Resource is the URL of the MCP server the sign-in was for; the
	// token is presented to that origin only (grantCredentials.Sign). ""
	// in grants stored before it was kept: the server's URL then.
	Resource string `json:"resource,omitempty"`
}

func newGrantSecret(cfg *oauth2.Config, tok *oauth2.Token) grantSecret {
	return grantSecret{Token: tok, ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret, AuthURL: cfg.Endpoint.AuthURL,
		TokenURL: cfg.Endpoint.TokenURL, AuthStyle: cfg.Endpoint.AuthStyle, Scopes: cfg.Scopes, Granted: grantedScopes(tok, cfg.Scopes)}
}

func (g grantSecret) config() *oauth2.Config {
	return &oauth2.Config{ClientID: g.ClientID, ClientSecret: g.ClientSecret, Scopes: g.Scopes,
		Endpoint: oauth2.Endpoint{AuthURL: g.AuthURL, TokenURL: g.TokenURL, AuthStyle: g.AuthStyle}}
}

// grantedScopes are the scopes a token answer names, or those asked for
// when it names none (RFC 6749 section 5.1).
func grantedScopes(tok *oauth2.Token, asked []string) []string {
	if s, ok := tok.Extra("scope").(string); ok && s != "" {
		return strings.Fields(s)
	}
	return asked
}

// saveGrant stores g (its server, person and issuer) with secret.
func (o *Service) saveGrant(ctx context.Context, g Grant, secret grantSecret) error {
	g.ClientID, g.Scopes, g.ExpiresAt = secret.ClientID, secret.Granted, secret.Token.Expiry
	g.HasRefresh = secret.Token.RefreshToken != ""
	raw, err := json.Marshal(secret)
	if err != nil {
		return err
	}
	return o.store.SaveOAuthGrant(ctx, g, raw)
}

// grant returns the grant that connects userID to the server: their own,
// else the server's shared one; false with neither.
func (o *Service) grant(ctx context.Context, serverID, userID int64) (Grant, grantSecret, bool, error) {
	g, raw, ok, err := o.store.OAuthGrant(ctx, serverID, userID)
	if err == nil && !ok {
		g, raw, ok, err = o.store.SharedOAuthGrant(ctx, serverID)
	}
	if err != nil || !ok {
		return g, grantSecret{}, false, err
	}
	var secret grantSecret
	if err := json.Unmarshal(raw, &secret); err != nil || secret.Token == nil {
		return g, secret, false, backend.Errorf(backend.EInternal, "the stored sign-in to server %d is unreadable", serverID)
	}
	return g, secret, true, nil
}

// refresh renews a grant's access token with its refresh token, records
// the exchange as a step of flowID (when 0, of the sign-in that obtained
// the grant, else of a new flow; rerunOf marks a re-run step) and stores
// the new token in the grant.
func (o *Service) refresh(ctx context.Context, srv backend.Server, g Grant, secret grantSecret, flowID, rerunOf int64) (*oauth2.Token, error) {
	if secret.Token.RefreshToken == "" {
		return nil, backend.Errorf(backend.EUnavailable, "The access token expired and the authorization server gave no refresh token: sign in again.")
	}
	if flowID == 0 {
		flowID = secret.FlowID
	}
	newFlow := flowID == 0
	if newFlow {
		var err error
		if flowID, err = o.store.CreateOAuthFlow(ctx, Flow{ServerID: g.ServerID, UserID: g.UserID, Issuer: g.Issuer, StartedAt: time.Now()}); err != nil {
			return nil, err
		}
	}
	rec := o.recorder(flowID, srv, rerunOf)
	rec.facts.askedScopes = secret.Granted
	ctx, cancel := context.WithTimeout(ctx, exchangeTimeout)
	defer cancel()
	ctx = context.WithValue(ctx, oauth2.HTTPClient, &http.Client{Transport: rec})
	tok, err := secret.config().TokenSource(ctx, &oauth2.Token{RefreshToken: secret.Token.RefreshToken}).Token()
	if err != nil {
		reason := "The token refresh failed: " + o.failText(err)
		if newFlow {
			o.end(flowID, FlowFailed, g.Issuer, reason)
		}
		return nil, backend.Errorf(backend.EUnavailable, "%s", reason)
	}
	secret.Token = tok
	if s := grantedScopes(tok, nil); len(s) > 0 {
		secret.Granted = s
	}
	if err := o.saveGrant(context.WithoutCancel(ctx), g, secret); err != nil {
		o.log.Error("storing a refreshed OAuth token", "server", g.ServerID, "err", err)
	}
	if newFlow {
		o.end(flowID, FlowSucceeded, g.Issuer, "")
	}
	return tok, nil
}
