package oauth

import (
	"context"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// Settings are a server's own OAuth settings: how the playground
// obtains tokens, a client registered with its authorization server
// beforehand, and scopes to ask for instead of those the server names.
type Settings struct {
	GrantType GrantType // "" is GrantAuthorizationCode
	// ClientAuth is how a client credentials grant authenticates.
	ClientAuth   ClientAuth
	ClientID     string // "" registers a client dynamically (authorization code only)
	ClientSecret string // "" for a public client
	// PrivateKeyPEM signs the client assertions of private_key_jwt; it is
	// sealed at rest and never shown: KeyID names it instead.
	PrivateKeyPEM string
	KeyID         string // the key's JWK SHA-256 thumbprint (RFC 7638)
	// DPoP asks for sender-constrained tokens (RFC 9449).
	DPoP   bool
	Scopes []string
	// Issuer is the authorization server the client secret or private key
	// may be sent to: the one they were first used with successfully;
	// "" until then (see Service.SaveSettings for how it is confirmed anew).
	Issuer string
}

// ClientMethod says how a client came to be registered.
type ClientMethod string

const (
	ClientPreregistered ClientMethod = "preregistered"
	ClientDynamic       ClientMethod = "dcr"
	ClientMetadataDoc   ClientMethod = "cimd"
)

// Client is a client registered with an authorization server for one
// redirect URI.
type Client struct {
	Issuer       string
	RedirectURI  string
	ClientID     string
	ClientSecret string
	Method       ClientMethod
	CreatedAt    time.Time
}

// Store is what the service needs kept: OAuth settings, client
// registrations, grants and the recorded sign-in flows. Client secrets and
// tokens are sealed at rest.
type Store interface {
	// OAuthSettings returns the server's settings (zero when it has none).
	OAuthSettings(ctx context.Context, serverID int64) (Settings, error)
	SaveOAuthSettings(ctx context.Context, serverID int64, s Settings) error
	// PinOAuthIssuer sets the Issuer of the server's settings to issuer
	// when it is "", and does nothing otherwise.
	PinOAuthIssuer(ctx context.Context, serverID int64, issuer string) error

	// SaveOAuthClient stores c, replacing the client of its issuer and
	// redirect URI.
	SaveOAuthClient(ctx context.Context, c Client) error

	// SaveOAuthGrant stores a person's grant for a server with its token
	// (opaque, sealed at rest), replacing theirs and keeping it shared if
	// it was.
	SaveOAuthGrant(ctx context.Context, g Grant, token []byte) error
	// OAuthGrant returns a person's grant for a server and its token;
	// false when there is none.
	OAuthGrant(ctx context.Context, serverID, userID int64) (Grant, []byte, bool, error)
	// SharedOAuthGrant returns the most recently updated shared grant of
	// the server; false when there is none.
	SharedOAuthGrant(ctx context.Context, serverID int64) (Grant, []byte, bool, error)
	// OAuthGrants lists the server's grants, newest first.
	OAuthGrants(ctx context.Context, serverID int64) ([]Grant, error)
	// DeleteOAuthGrant forgets a person's grant; none is not an error.
	DeleteOAuthGrant(ctx context.Context, serverID, userID int64) error
	// ShareOAuthGrant sets whether a person's grant is shared; ENotFound
	// without one.
	ShareOAuthGrant(ctx context.Context, serverID, userID int64, shared bool) error

	// CreateOAuthFlow stores a new running flow and returns its id.
	CreateOAuthFlow(ctx context.Context, f Flow) (int64, error)
	// EndOAuthFlow stores how the flow ended.
	EndOAuthFlow(ctx context.Context, id int64, status FlowStatus, issuer, reason string, at time.Time) error
	// AddOAuthStep appends a step to its flow (its Seq is assigned) and
	// returns its id.
	AddOAuthStep(ctx context.Context, s Step) (int64, error)
	// OAuthFlow returns a flow with its steps in order; ENotFound when
	// there is none.
	OAuthFlow(ctx context.Context, id int64) (Flow, error)
	// OAuthStep returns one step; ENotFound when there is none.
	OAuthStep(ctx context.Context, id int64) (Step, error)
	// OAuthFlows returns the server's latest flows without their steps,
	// newest first, at most limit.
	OAuthFlows(ctx context.Context, serverID int64, limit int) ([]Flow, error)
}

// Servers finds the servers that sign-ins and re-runs are for;
// backend.ServerStore is one.
type Servers interface {
	// GetServer returns the server or an ENotFound *backend.Error.
	GetServer(ctx context.Context, id int64) (backend.Server, error)
}
