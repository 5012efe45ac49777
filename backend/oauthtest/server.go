// Package oauthtest starts an OAuth-protected MCP server and the
// authorization server that guards it, both on loopback ports, for tests
// of the playground's sign-in: discovery, dynamic or pre-registered
// clients, a real approve page a browser submits, PKCE, resource
// indicators, the iss response parameter, rotating refresh tokens and
// short-lived access tokens; and for clients without a person, the
// client credentials grant (client secret or private_key_jwt) with
// optional DPoP-bound tokens. Counters and fault switches let a test see
// what happened and make the authorization server misbehave.
package oauthtest

import (
	"crypto"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"
)

// Options configures Start. The zero value is a working server.
type Options struct {
	// AccessTokenLifetime is how long an access token is accepted;
	// one hour when zero. Tests of refresh use a few seconds.
	AccessTokenLifetime time.Duration
	// Scopes are the scopes the servers support; "mcp:read", "mcp:write"
	// and "offline_access" when nil.
	Scopes []string
	// Client, when its ID is set, is a pre-registered client.
	Client Client
	// Subject names the person who approves on the authorization page;
	// "alice" when empty.
	Subject string
	// DPoP makes the authorization server require a DPoP proof of every
	// client credentials token request and bind the token to its key
	// (RFC 9449); the MCP server then takes such a token only with the
	// DPoP scheme and a proof. A request that brings a proof unasked
	// gets a bound token too.
	DPoP bool
	// Faults make the authorization server misbehave from the start;
	// Server.SetFaults changes them later.
	Faults Faults
}

// Client is a client known to the authorization server.
type Client struct {
	ID     string
	Secret string // "" for a public client
	// PublicKey, when set, verifies the client's private_key_jwt
	// assertions; the client then authenticates with them only.
	PublicKey crypto.PublicKey
	// RedirectURIs the client may use; a pre-registered client without
	// any may use any loopback http URL.
	RedirectURIs []string
	Name         string
}

// Faults are the ways the authorization server can be told to break, for
// negative tests.
type Faults struct {
	// WrongIssuer makes the metadata name an issuer other than the
	// server's own URL.
	WrongIssuer bool
	// NoS256 makes the metadata advertise only the "plain" PKCE method
	// and /authorize refuse S256 challenges.
	NoS256 bool
	// Deny makes /authorize redirect back with access_denied at once,
	// without showing the approve page.
	Deny bool
	// AuthorizationServer, when set, is the issuer the MCP server's
	// resource metadata names instead of its own authorization server's,
	// as when a server moves to another authorization server (or is made
	// to name an attacker's).
	AuthorizationServer string
}

// Stats counts what the authorization and MCP servers did.
type Stats struct {
	Registrations int // clients registered dynamically
	Approvals     int // approve decisions on the authorization page
	Denials       int // deny decisions, including Faults.Deny
	CodeExchanges int // authorization codes exchanged for tokens
	Refreshes     int // refresh-token grants that succeeded
	// ClientCredentials counts the client credentials grants that
	// succeeded.
	ClientCredentials int
	Unauthorized      int // MCP requests refused for want of a valid token
	LastScopes        []string
	LastClientID      string
	LastResource      string    // resource indicator of the last token request
	LastAuthorized    time.Time // of the last approve decision
	LastIssued        time.Time // of the last access token
}

// Server is a running pair of servers; Start closes both at the test's
// cleanup.
type Server struct {
	// MCPURL is the Streamable HTTP endpoint of the MCP server, such as
	// http://127.0.0.1:41234/mcp. It is also the resource identifier.
	MCPURL string
	// ResourceMetadataURL is where the MCP server serves its protected
	// resource metadata (RFC 9728), as named in its 401 challenge.
	ResourceMetadataURL string
	// Issuer is the authorization server's issuer and base URL.
	Issuer string

	opts Options

	mu      sync.Mutex
	faults  Faults
	stats   Stats
	clients map[string]Client
	codes   map[string]authCode
	access  map[string]grant
	refresh map[string]grant
}

// Start starts the MCP server and its authorization server on two
// loopback ports and closes them when the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.AccessTokenLifetime == 0 {
		opts.AccessTokenLifetime = time.Hour
	}
	if opts.Scopes == nil {
		opts.Scopes = []string{"mcp:read", "mcp:write", "offline_access"}
	}
	if opts.Subject == "" {
		opts.Subject = "alice"
	}
	s := &Server{
		opts:    opts,
		faults:  opts.Faults,
		clients: map[string]Client{},
		codes:   map[string]authCode{},
		access:  map[string]grant{},
		refresh: map[string]grant{},
	}
	if opts.Client.ID != "" {
		s.clients[opts.Client.ID] = opts.Client
	}

	as := httptest.NewUnstartedServer(nil)
	s.Issuer = "http://" + as.Listener.Addr().String()
	as.Config.Handler = s.authorizationServerHandler()
	rs := httptest.NewUnstartedServer(nil)
	base := "http://" + rs.Listener.Addr().String()
	s.MCPURL = base + "/mcp"
	s.ResourceMetadataURL = base + "/.well-known/oauth-protected-resource/mcp"
	rs.Config.Handler = s.resourceServerHandler()
	for _, srv := range []*httptest.Server{as, rs} {
		srv.Start()
		t.Cleanup(func() {
			// A client's open event stream would hold Close up forever.
			srv.CloseClientConnections()
			srv.Close()
		})
	}
	return s
}

// SetFaults replaces the fault switches; requests after the call see them.
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = f
}

// Stats returns a copy of the counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.LastScopes = slices.Clone(st.LastScopes)
	return st
}

// ExpireAccessTokens makes every access token issued so far invalid, as
// if its lifetime had passed, so a test need not wait for it.
func (s *Server) ExpireAccessTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for tok, g := range s.access {
		g.expires = time.Now().Add(-time.Second)
		s.access[tok] = g
	}
}

func (s *Server) currentFaults() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.faults
}
