package backend

import (
	"context"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// Transport names how the playground reaches a server.
type Transport string

const (
	// TransportStdio starts the server as a child process speaking over stdin/stdout.
	TransportStdio Transport = "stdio"
	// TransportHTTP reaches the server at a Streamable HTTP URL.
	TransportHTTP Transport = "http"
	// TransportSSE reaches the server with the deprecated HTTP+SSE transport
	// of protocol version 2024-11-05: a GET event stream and POSTs.
	TransportSSE Transport = "sse"
)

// Era is the protocol generation the playground speaks to a server.
type Era string

const (
	// EraLegacy is the initialize handshake of versions up to 2025-11-25.
	EraLegacy Era = "legacy"
	// EraModern is version 2026-07-28: no handshake, metadata on every request.
	EraModern Era = "modern"
	// EraAuto probes the server as the specification describes.
	EraAuto Era = "auto"
)

// Server is a registered MCP server.
type Server struct {
	ID        int64
	Name      string
	Transport Transport
	Era       Era // "" means EraLegacy
	// Stdio settings.
	Command string
	Args    []string
	Env     map[string]string
	Dir     string
	// Streamable HTTP settings.
	URL     string
	Headers map[string]string

	CreatedAt time.Time
	UpdatedAt time.Time
}

// ServerStore persists registered servers.
type ServerStore interface {
	// ListServers returns every server ordered by name.
	ListServers(ctx context.Context) ([]Server, error)
	// GetServer returns the server or an ENotFound *Error.
	GetServer(ctx context.Context, id int64) (Server, error)
	// CreateServer inserts s and returns its new id; a duplicate name is an EConflict *Error.
	CreateServer(ctx context.Context, s Server) (int64, error)
	// UpdateServer replaces the server with s.ID; ENotFound or EConflict as above.
	UpdateServer(ctx context.Context, s Server) error
	// DeleteServer removes the server; its past sessions are kept. ENotFound when absent.
	DeleteServer(ctx context.Context, id int64) error
}

var (
	serverNamePattern = regexp.MustCompile(`^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,63}$`)
	envKeyPattern     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	headerKeyPattern  = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
)

// Validate checks s and returns an EInvalid *Error whose Fields name every
// offending form field (name, transport, command, dir, env, url, headers), or nil.
func (s Server) Validate() error {
	fields := map[string]string{}
	if !serverNamePattern.MatchString(s.Name) {
		fields["name"] = "Name is required: 1–64 letters, digits, spaces, dots, dashes or underscores."
	}
	switch s.Transport {
	case TransportStdio:
		if strings.TrimSpace(s.Command) == "" {
			fields["command"] = "Command is required for a stdio server."
		}
		for k := range s.Env {
			if !envKeyPattern.MatchString(k) {
				fields["env"] = "Environment variable names must be letters, digits and underscores, not starting with a digit: " + k
				break
			}
		}
	case TransportHTTP, TransportSSE:
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			fields["url"] = "URL must be an absolute http:// or https:// address."
		}
		for k := range s.Headers {
			if !headerKeyPattern.MatchString(k) {
				fields["headers"] = "Invalid header name: " + k
				break
			}
		}
	default:
		fields["transport"] = "Choose stdio, http or sse."
	}
	switch s.Era {
	case "", EraLegacy, EraModern, EraAuto:
	default:
		fields["era"] = "Choose legacy, modern or auto."
	}
	if len(fields) == 0 {
		return nil
	}
	return &Error{Code: EInvalid, Message: "The server settings are not valid.", Fields: fields}
}
