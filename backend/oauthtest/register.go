package oauthtest

import (
	"crypto/rand"
	"encoding/json"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// serveRegister registers a client dynamically (RFC 7591). A client that
// asks for token_endpoint_auth_method "none" is public; any other gets a
// secret.
func (s *Server) serveRegister(w http.ResponseWriter, r *http.Request) {
	var meta oauthex.ClientRegistrationMetadata
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&meta); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_client_metadata", "body is not JSON client metadata: "+err.Error())
		return
	}
	if len(meta.RedirectURIs) == 0 {
		oauthError(w, http.StatusBadRequest, "invalid_redirect_uri", "redirect_uris is required")
		return
	}
	if meta.TokenEndpointAuthMethod == "" {
		meta.TokenEndpointAuthMethod = "client_secret_basic"
	}
	c := Client{ID: "dyn-" + rand.Text(), RedirectURIs: meta.RedirectURIs, Name: meta.ClientName}
	if meta.TokenEndpointAuthMethod != "none" {
		c.Secret = rand.Text()
	}
	s.mu.Lock()
	s.clients[c.ID] = c
	s.stats.Registrations++
	s.mu.Unlock()

	writeJSON(w, http.StatusCreated, &oauthex.ClientRegistrationResponse{
		ClientRegistrationMetadata: meta,
		ClientID:                   c.ID,
		ClientSecret:               c.Secret,
		ClientIDIssuedAt:           time.Now(),
	})
}

// client returns the registered client with the id.
func (s *Server) client(id string) (Client, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.clients[id]
	return c, ok
}
