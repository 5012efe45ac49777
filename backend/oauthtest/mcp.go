package oauthtest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// verifyToken is the MCP server's bearer token check: an access token
// this authorization server issued for this resource, not yet expired,
// and for a DPoP-bound token, proven with its key (dpopScheme).
func (s *Server) verifyToken(_ context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
	s.mu.Lock()
	g, ok := s.access[token]
	s.mu.Unlock()
	if !ok || g.resource != s.MCPURL || time.Now().After(g.expires) {
		return nil, fmt.Errorf("%w: unknown, expired or foreign access token", auth.ErrInvalidToken)
	}
	if g.jkt != provenKey(r) {
		return nil, fmt.Errorf("%w: the token is bound to a DPoP key the request did not prove", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{Scopes: g.scopes, Expiration: g.expires, UserID: g.subject}, nil
}

// countRefusals counts the MCP requests the bearer check refused.
func (s *Server) countRefusals(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == http.StatusUnauthorized {
			s.mu.Lock()
			s.stats.Unauthorized++
			s.mu.Unlock()
		}
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

// Unwrap lets http.ResponseController reach the writer's Flush.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// newMCPHandler is the MCP server itself, over Streamable HTTP, with the
// tools whoami and echo.
func newMCPHandler() http.Handler {
	srv := mcp.NewServer(&mcp.Implementation{Name: "oauthtest", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "whoami", Description: "Names the subject and scopes of the caller's access token."}, whoami)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo", Description: "Answers its text."}, echo)
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
}

type whoamiOut struct {
	Subject string   `json:"subject"`
	Scopes  []string `json:"scopes"`
}

func whoami(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, whoamiOut, error) {
	ti := req.Extra.TokenInfo
	if ti == nil {
		return nil, whoamiOut{}, fmt.Errorf("no token")
	}
	out := whoamiOut{Subject: ti.UserID, Scopes: ti.Scopes}
	text := fmt.Sprintf("subject=%s scopes=%s", out.Subject, strings.Join(out.Scopes, " "))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}

type echoIn struct {
	Text string `json:"text" jsonschema:"the text to answer"`
}

func echo(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, struct{}, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, struct{}{}, nil
}
