package backend

import (
	"context"
	"errors"

	"github.com/mcp-playground/playground/mcpclient"
)

// CredentialSource gives the credentials that connect a person to an HTTP
// server; the OAuth service (backend/oauth) is one. Credentials that the
// server refused because nobody signed in to it (or the sign-in can no
// longer be renewed) fail with ErrOAuthSignInNeeded in the chain.
type CredentialSource interface {
	Credentials(ctx context.Context, srv Server, userID int64) (mcpclient.Credentials, error)
}

// ErrOAuthSignInNeeded is in the chain of a connection the server refused
// because nobody signed in to it (or the sign-in can no longer be renewed).
var ErrOAuthSignInNeeded = errors.New("the server needs OAuth sign-in")

// WithCredentials makes the pool sign its HTTP connections with the
// credentials src gives the person connecting (ConnectingAs).
func WithCredentials(src CredentialSource) PoolOption {
	return func(p *Pool) { p.creds = src }
}

type connectingUserKey struct{}

// ConnectingAs returns ctx naming the person on whose behalf Pool.Connect
// opens a session: their OAuth grant signs its requests. Without it the
// pool connects as nobody in particular (a shared grant, if any).
func ConnectingAs(ctx context.Context, userID int64) context.Context {
	return context.WithValue(ctx, connectingUserKey{}, userID)
}

func connectingUser(ctx context.Context) int64 {
	id, _ := ctx.Value(connectingUserKey{}).(int64)
	return id
}

// target is the server's dial target, with the connecting person's
// credentials for an HTTP server.
func (p *Pool) target(ctx context.Context, srv Server) (mcpclient.Target, error) {
	t := srv.Target()
	if p.creds == nil || srv.Transport == TransportStdio {
		return t, nil
	}
	creds, err := p.creds.Credentials(ctx, srv, connectingUser(ctx))
	if err != nil {
		return t, err
	}
	t.HTTP.Credentials = creds
	return t, nil
}

// OAuthSignInNeededError is Connect's error when the server refused the
// connection for want of an OAuth sign-in; the dashboard offers one.
type OAuthSignInNeededError struct {
	ServerID int64
	Err      *Error
}

func (e *OAuthSignInNeededError) Error() string { return e.Err.Error() }
func (e *OAuthSignInNeededError) Unwrap() error { return e.Err }

// connectError is the error of a failed connect whose reason is told.
func connectError(serverID int64, dialErr error, reason string) error {
	e := &Error{Code: EUnavailable, Message: reason}
	if errors.Is(dialErr, ErrOAuthSignInNeeded) {
		return &OAuthSignInNeededError{ServerID: serverID, Err: e}
	}
	return e
}
