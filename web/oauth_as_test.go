package web_test

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// testAS is a small authorization server and the MCP server it guards,
// each on its own loopback port: discovery (RFC 9728 and 8414), dynamic
// client registration, an approve page, PKCE S256, the iss response
// parameter, rotating refresh tokens and access tokens of a set lifetime.
// The MCP server is the official SDK's behind its bearer-token
// middleware, with a whoami tool that names the token's subject.
type testAS struct {
	// MCPURL is the Streamable HTTP endpoint, SSEURL the HTTP+SSE one.
	Issuer, MCPURL, SSEURL string
	lifetime               time.Duration
	wrongIssuer            bool
	tokenAnswer            tokenAnswer
	authorizeAt            string
	metadataBody           string

	mu        sync.Mutex
	clients   map[string][]string // client id → redirect URIs
	pending   map[string]url.Values
	codes     map[string]url.Values // code → the authorization request
	access    map[string]time.Time  // access token → expiry
	refresh   map[string]bool
	issued    []string // access tokens, in order
	refreshes int
	secrets   []string // every code, verifier and token that crossed the wire
}

// tokenAnswer is how the token endpoint spells its answer. Each is one
// that golang.org/x/oauth2 accepts.
type tokenAnswer int

const (
	tokenAsJSON     tokenAnswer = iota
	tokenAsForm                 // a form-encoded body labelled text/plain, as GitHub's
	tokenAsShouting             // JSON with upper-case member names
)

type testASOptions struct {
	lifetime    time.Duration // of access tokens; an hour when zero
	wrongIssuer bool          // the metadata names another issuer
	tokenAnswer tokenAnswer
	authorizeAt string // the metadata's authorization_endpoint, if not the server's own
	// metadataBody, if set, is the authorization server metadata's body,
	// labelled application/json.
	metadataBody string
	// authorizationServer, if set, is what the protected resource
	// metadata names as its authorization server instead of the issuer.
	authorizationServer string
}

func mustTestAS(t *testing.T, o testASOptions) *testAS {
	t.Helper()
	as := &testAS{lifetime: o.lifetime, wrongIssuer: o.wrongIssuer, tokenAnswer: o.tokenAnswer, authorizeAt: o.authorizeAt, metadataBody: o.metadataBody, clients: map[string][]string{}, pending: map[string]url.Values{},
		codes: map[string]url.Values{}, access: map[string]time.Time{}, refresh: map[string]bool{}}
	if as.lifetime == 0 {
		as.lifetime = time.Hour
	}
	asMux := http.NewServeMux()
	asSrv := httptest.NewServer(asMux)
	t.Cleanup(asSrv.Close)
	as.Issuer = asSrv.URL
	asMux.HandleFunc("GET /.well-known/oauth-authorization-server", as.metadata)
	asMux.HandleFunc("POST /register", as.register)
	asMux.HandleFunc("GET /authorize", as.authorize)
	asMux.HandleFunc("GET /approve", as.approve)
	asMux.HandleFunc("POST /token", as.token)

	mcpMux := http.NewServeMux()
	mcpSrv := httptest.NewServer(mcpMux)
	t.Cleanup(func() {
		mcpSrv.CloseClientConnections() // a connected session's event stream would hold Close up
		mcpSrv.Close()
	})
	as.MCPURL = mcpSrv.URL + "/mcp"
	prmURL := mcpSrv.URL + "/.well-known/oauth-protected-resource/mcp"
	mcpMux.Handle("GET /.well-known/oauth-protected-resource/mcp", auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: as.MCPURL, AuthorizationServers: []string{cmp.Or(o.authorizationServer, as.Issuer)}, ScopesSupported: []string{"mcp"}}))
	server := mcp.NewServer(&mcp.Implementation{Name: "oauth-test", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "whoami", Description: "names the signed-in subject"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			info := auth.TokenInfoFromContext(ctx)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "subject=" + info.UserID}}}, nil, nil
		})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: true})
	mcpMux.Handle("/mcp", auth.RequireBearerToken(as.verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: prmURL})(handler))
	as.SSEURL = mcpSrv.URL + "/sse"
	ssePRM := mcpSrv.URL + "/.well-known/oauth-protected-resource/sse"
	mcpMux.Handle("GET /.well-known/oauth-protected-resource/sse", auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: as.SSEURL, AuthorizationServers: []string{as.Issuer}, ScopesSupported: []string{"mcp"}}))
	sse := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil)
	mcpMux.Handle("/sse", auth.RequireBearerToken(as.verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: ssePRM})(sse))
	return as
}

func (as *testAS) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	as.mu.Lock()
	defer as.mu.Unlock()
	exp, ok := as.access[token]
	if !ok {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{Scopes: []string{"mcp"}, Expiration: exp, UserID: "alice"}, nil
}

func (as *testAS) metadata(w http.ResponseWriter, _ *http.Request) {
	if as.metadataBody != "" {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, as.metadataBody)
		return
	}
	issuer := as.Issuer
	if as.wrongIssuer {
		issuer = "http://issuer.invalid"
	}
	authorize := as.Issuer + "/authorize"
	if as.authorizeAt != "" {
		authorize = as.authorizeAt
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer": issuer, "authorization_endpoint": authorize, "token_endpoint": as.Issuer + "/token",
		"registration_endpoint": as.Issuer + "/register", "response_types_supported": []string{"code"},
		"grant_types_supported": []string{"authorization_code", "refresh_token"}, "code_challenge_methods_supported": []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"none"}, "scopes_supported": []string{"mcp", "offline_access"},
		"authorization_response_iss_parameter_supported": true,
	})
}

func (as *testAS) register(w http.ResponseWriter, r *http.Request) {
	var meta struct {
		RedirectURIs []string `json:"redirect_uris"`
		ClientName   string   `json:"client_name"`
	}
	if err := json.NewDecoder(r.Body).Decode(&meta); err != nil || len(meta.RedirectURIs) == 0 {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_client_metadata"})
		return
	}
	as.mu.Lock()
	id := fmt.Sprintf("client-%d", len(as.clients)+1)
	as.clients[id] = meta.RedirectURIs
	as.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]any{"client_id": id, "client_name": meta.ClientName, "redirect_uris": meta.RedirectURIs,
		"token_endpoint_auth_method": "none", "grant_types": []string{"authorization_code", "refresh_token"}})
}

// authorize checks the request and shows the approve page: a link that
// a person follows.
func (as *testAS) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	as.mu.Lock()
	redirects, known := as.clients[q.Get("client_id")]
	as.mu.Unlock()
	switch {
	case !known || !containsString(redirects, q.Get("redirect_uri")):
		http.Error(w, "unknown client or redirect URI", http.StatusBadRequest)
		return
	case q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
		http.Error(w, "PKCE S256 required", http.StatusBadRequest)
		return
	}
	id := rand.Text()
	as.mu.Lock()
	as.pending[id] = q
	as.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<p>Let %s sign in?</p><a id="approve" href="/approve?request=%s">Approve</a>`, html.EscapeString(q.Get("client_id")), id)
}

// approve sends the browser back to the client with a code.
func (as *testAS) approve(w http.ResponseWriter, r *http.Request) {
	as.mu.Lock()
	q, ok := as.pending[r.URL.Query().Get("request")]
	delete(as.pending, r.URL.Query().Get("request"))
	code := rand.Text()
	as.codes[code] = q
	as.secrets = append(as.secrets, code)
	as.mu.Unlock()
	if !ok {
		http.Error(w, "no such request", http.StatusBadRequest)
		return
	}
	back := url.Values{"code": {code}, "state": {q.Get("state")}, "iss": {as.Issuer}}
	http.Redirect(w, r, q.Get("redirect_uri")+"?"+back.Encode(), http.StatusFound)
}

func (as *testAS) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	as.mu.Lock()
	defer as.mu.Unlock()
	if v := r.PostForm.Get("code_verifier"); v != "" && v != "[redacted]" { // a re-run sends it redacted
		as.secrets = append(as.secrets, v)
	}
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		q, ok := as.codes[r.PostForm.Get("code")]
		delete(as.codes, r.PostForm.Get("code"))
		sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
		if !ok || q.Get("client_id") != r.PostForm.Get("client_id") || q.Get("redirect_uri") != r.PostForm.Get("redirect_uri") ||
			base64.RawURLEncoding.EncodeToString(sum[:]) != q.Get("code_challenge") {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "unknown code or wrong verifier"})
			return
		}
	case "refresh_token":
		if !as.refresh[r.PostForm.Get("refresh_token")] {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_grant", "error_description": "unknown refresh token"})
			return
		}
		delete(as.refresh, r.PostForm.Get("refresh_token"))
		as.refreshes++
	default:
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	access, refresh := "at-"+rand.Text(), "rt-"+rand.Text()
	as.access[access] = time.Now().Add(as.lifetime)
	as.refresh[refresh] = true
	as.issued = append(as.issued, access)
	as.secrets = append(as.secrets, access, refresh)
	answer := url.Values{"access_token": {access}, "token_type": {"Bearer"}, "expires_in": {fmt.Sprint(int(as.lifetime.Seconds()))},
		"refresh_token": {refresh}, "scope": {"mcp offline_access"}}
	switch as.tokenAnswer {
	case tokenAsForm:
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, answer.Encode())
		return
	case tokenAsShouting:
		shouted := map[string]any{}
		for k, v := range answer {
			shouted[strings.ToUpper(k)] = v[0]
		}
		shouted["EXPIRES_IN"] = int(as.lifetime.Seconds())
		writeJSON(w, http.StatusOK, shouted)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": access, "token_type": "Bearer", "expires_in": int(as.lifetime.Seconds()),
		"refresh_token": refresh, "scope": "mcp offline_access"})
}

// crossedSecrets is every code, verifier and token that crossed the wire
// so far.
func (as *testAS) crossedSecrets() []string {
	as.mu.Lock()
	defer as.mu.Unlock()
	return slices.Clone(as.secrets)
}

// revokeAccessTokens forgets every access token issued, as a server
// that revoked them: the MCP server refuses them from now on.
func (as *testAS) revokeAccessTokens() {
	as.mu.Lock()
	defer as.mu.Unlock()
	clear(as.access)
}

// lastAccessToken is the access token issued last, and how many refreshes
// succeeded.
func (as *testAS) lastAccessToken() (string, int) {
	as.mu.Lock()
	defer as.mu.Unlock()
	if len(as.issued) == 0 {
		return "", as.refreshes
	}
	return as.issued[len(as.issued)-1], as.refreshes
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func containsString(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// approveURL follows an authorization URL to the approve page and returns
// where approving sends the browser: the dashboard's callback.
func (as *testAS) approveURL(t *testing.T, authURL string) string {
	t.Helper()
	if !strings.HasPrefix(authURL, as.Issuer+"/authorize?") {
		t.Fatalf("the sign-in went to %q, want the authorization server's %s/authorize", authURL, as.Issuer)
	}
	c := newClient()
	resp, err := c.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	body := string(b)
	i := strings.Index(body, `href="/approve?`)
	if resp.StatusCode != http.StatusOK || i < 0 {
		t.Fatalf("the approve page: %d\n%s", resp.StatusCode, body)
	}
	href := body[i+len(`href="`):]
	href = href[:strings.Index(href, `"`)]
	resp, err = c.Get(as.Issuer + href)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("approving: %d", resp.StatusCode)
	}
	return resp.Header.Get("Location")
}
