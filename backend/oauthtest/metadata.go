package oauthtest

import (
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// authorizationServerHandler routes the authorization server's endpoints.
func (s *Server) authorizationServerHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", s.serveServerMetadata)
	mux.HandleFunc("POST /register", s.serveRegister)
	mux.HandleFunc("GET /authorize", s.serveAuthorizePage)
	mux.HandleFunc("POST /authorize", s.serveAuthorizeDecision)
	mux.HandleFunc("POST /token", s.serveToken)
	return mux
}

// serveServerMetadata answers RFC 8414 metadata, bent by the faults.
func (s *Server) serveServerMetadata(w http.ResponseWriter, r *http.Request) {
	f := s.currentFaults()
	meta := oauthex.AuthServerMeta{
		Issuer:                                     s.Issuer,
		AuthorizationEndpoint:                      s.Issuer + "/authorize",
		TokenEndpoint:                              s.Issuer + "/token",
		RegistrationEndpoint:                       s.Issuer + "/register",
		ScopesSupported:                            s.opts.Scopes,
		ResponseTypesSupported:                     []string{"code"},
		GrantTypesSupported:                        []string{"authorization_code", "refresh_token", "client_credentials"},
		TokenEndpointAuthMethodsSupported:          []string{"client_secret_basic", "client_secret_post", "private_key_jwt", "none"},
		CodeChallengeMethodsSupported:              []string{"S256"},
		AuthorizationResponseIssParameterSupported: true,
	}
	if f.WrongIssuer {
		meta.Issuer = s.Issuer + "/elsewhere"
	}
	if f.NoS256 {
		meta.CodeChallengeMethodsSupported = []string{"plain"}
	}
	writeJSON(w, http.StatusOK, struct {
		oauthex.AuthServerMeta
		DPoPAlgs []string `json:"dpop_signing_alg_values_supported"`
	}{meta, []string{"ES256"}})
}

// resourceMetadata is the MCP server's RFC 9728 document.
func (s *Server) resourceMetadata() *oauthex.ProtectedResourceMetadata {
	issuer := s.Issuer
	if f := s.currentFaults(); f.AuthorizationServer != "" {
		issuer = f.AuthorizationServer
	}
	return &oauthex.ProtectedResourceMetadata{
		Resource:               s.MCPURL,
		AuthorizationServers:   []string{issuer},
		ScopesSupported:        s.opts.Scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "oauthtest MCP server",
	}
}

// resourceServerHandler routes the MCP endpoint, behind bearer tokens,
// and its protected resource metadata.
func (s *Server) resourceServerHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/.well-known/oauth-protected-resource/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.ProtectedResourceMetadataHandler(s.resourceMetadata()).ServeHTTP(w, r)
	}))
	guard := auth.RequireBearerToken(s.verifyToken, &auth.RequireBearerTokenOptions{ResourceMetadataURL: s.ResourceMetadataURL})
	mux.Handle("/mcp", s.countRefusals(s.dpopScheme(guard(newMCPHandler()))))
	return mux
}

// writeJSON answers v as JSON with the status, uncached as RFC 6749
// asks of token responses.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// oauthError answers an OAuth error response (RFC 6749 §5.2).
func oauthError(w http.ResponseWriter, status int, code, description string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": description})
}
