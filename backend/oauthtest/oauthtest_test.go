package oauthtest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

const redirectURI = "http://127.0.0.1:9/callback"

// connectSDK signs the Go SDK's client in with the authorization code
// handler and connects; reg picks the client registration.
func connectSDK(t *testing.T, s *Server, reg func(*auth.AuthorizationCodeHandlerConfig)) (*mcp.ClientSession, error) {
	t.Helper()
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirectURI,
		AuthorizationCodeFetcher: s.Fetcher(true),
		RequestRefreshToken:      true,
	}
	reg(cfg)
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.MCPURL, OAuthHandler: h}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func dynamic(cfg *auth.AuthorizationCodeHandlerConfig) {
	cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{
		Metadata: &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{redirectURI}, ClientName: "sdk test"},
	}
}

func callText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

func TestSDKClientSignsInAndRefreshes(t *testing.T) {
	s := Start(t, Options{AccessTokenLifetime: 2 * time.Second})
	cs, err := connectSDK(t, s, dynamic)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	// The SDK's scope order varies from run to run.
	got := strings.Fields(strings.TrimPrefix(callText(t, cs, "whoami", nil), "subject=alice scopes="))
	if slices.Sort(got); !slices.Equal(got, []string{"mcp:read", "mcp:write", "offline_access"}) {
		t.Errorf("whoami names the scopes %q, want mcp:read mcp:write offline_access for alice", got)
	}
	if got := callText(t, cs, "echo", map[string]any{"text": "hi"}); got != "hi" {
		t.Errorf("echo = %q", got)
	}
	st := s.Stats()
	if st.Registrations != 1 || st.Approvals != 1 || st.CodeExchanges != 1 || st.LastResource != s.MCPURL {
		t.Errorf("stats after sign-in = %+v", st)
	}

	time.Sleep(2500 * time.Millisecond)
	callText(t, cs, "whoami", nil)
	if st := s.Stats(); st.Refreshes == 0 || st.CodeExchanges != 1 {
		t.Errorf("after expiry: refreshes %d, code exchanges %d; want a refresh and no new sign-in", st.Refreshes, st.CodeExchanges)
	}
}

func TestPreregisteredClient(t *testing.T) {
	s := Start(t, Options{Client: Client{ID: "pre", Secret: "s3cret"}})
	cs, err := connectSDK(t, s, func(cfg *auth.AuthorizationCodeHandlerConfig) {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: "pre", ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: "s3cret"}}
	})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	callText(t, cs, "whoami", nil)
	if st := s.Stats(); st.Registrations != 0 || st.LastClientID != "pre" {
		t.Errorf("stats = %+v, want the pre-registered client used", st)
	}
}

func TestFaultsStopTheSDKClient(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faults Faults
	}{
		{"wrong issuer", Faults{WrongIssuer: true}},
		{"no S256", Faults{NoS256: true}},
		{"deny", Faults{Deny: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Start(t, Options{Faults: tc.faults})
			if _, err := connectSDK(t, s, dynamic); err == nil {
				t.Fatal("connect succeeded")
			}
			if st := s.Stats(); st.CodeExchanges != 0 {
				t.Errorf("tokens issued despite the fault: %+v", st)
			}
		})
	}
}

func TestChallengeAndMetadata(t *testing.T) {
	s := Start(t, Options{})
	resp, err := http.Post(s.MCPURL, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := `Bearer resource_metadata="` + s.ResourceMetadataURL + `"`; resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
		t.Errorf("unauthenticated: %s %q, want 401 %q", resp.Status, resp.Header.Get("WWW-Authenticate"), want)
	}
	prm := getJSON[oauthex.ProtectedResourceMetadata](t, s.ResourceMetadataURL)
	if prm.Resource != s.MCPURL || len(prm.AuthorizationServers) != 1 || prm.AuthorizationServers[0] != s.Issuer {
		t.Errorf("resource metadata = %+v", prm)
	}
	asm := getJSON[oauthex.AuthServerMeta](t, s.Issuer+"/.well-known/oauth-authorization-server")
	if asm.Issuer != s.Issuer || asm.CodeChallengeMethodsSupported[0] != "S256" || asm.RegistrationEndpoint == "" || !asm.AuthorizationResponseIssParameterSupported {
		t.Errorf("server metadata = %+v", asm)
	}
	if st := s.Stats(); st.Unauthorized != 1 {
		t.Errorf("unauthorized count = %d", st.Unauthorized)
	}
}

// flow is a hand-driven sign-in for testing the endpoints' checks.
type flow struct {
	s        *Server
	cfg      oauth2.Config
	verifier string
}

func newFlow(t *testing.T, s *Server) *flow {
	t.Helper()
	reg, err := oauthex.RegisterClient(context.Background(), s.Issuer+"/register",
		&oauthex.ClientRegistrationMetadata{RedirectURIs: []string{redirectURI}, TokenEndpointAuthMethod: "none"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &flow{s: s, verifier: oauth2.GenerateVerifier(), cfg: oauth2.Config{
		ClientID:    reg.ClientID,
		RedirectURL: redirectURI,
		Scopes:      []string{"mcp:read"},
		Endpoint:    oauth2.Endpoint{AuthURL: s.Issuer + "/authorize", TokenURL: s.Issuer + "/token", AuthStyle: oauth2.AuthStyleInParams},
	}}
}

func (f *flow) authURL(extra ...oauth2.AuthCodeOption) string {
	opts := append([]oauth2.AuthCodeOption{oauth2.S256ChallengeOption(f.verifier), oauth2.SetAuthURLParam("resource", f.s.MCPURL)}, extra...)
	return f.cfg.AuthCodeURL("st4te", opts...)
}

// code approves and returns the authorization code.
func (f *flow) code(t *testing.T) string {
	t.Helper()
	back, err := f.s.Approve(context.Background(), f.authURL(), true)
	if err != nil {
		t.Fatal(err)
	}
	q := back.Query()
	if q.Get("state") != "st4te" || q.Get("iss") != f.s.Issuer || q.Get("code") == "" {
		t.Fatalf("redirect back = %s", back)
	}
	return q.Get("code")
}

// token posts a token request and returns its status and JSON body.
func (f *flow) token(t *testing.T, form url.Values) (int, map[string]any) {
	t.Helper()
	form.Set("client_id", f.cfg.ClientID)
	resp, err := http.PostForm(f.s.Issuer+"/token", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}

func (f *flow) exchange(t *testing.T, code string, edit func(url.Values)) (int, map[string]any) {
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "code_verifier": {f.verifier},
		"redirect_uri": {redirectURI}, "resource": {f.s.MCPURL}}
	if edit != nil {
		edit(form)
	}
	return f.token(t, form)
}

func TestTokenEndpointChecks(t *testing.T) {
	s := Start(t, Options{})
	for _, tc := range []struct {
		name string
		edit func(url.Values)
		want string
	}{
		{"wrong verifier", func(v url.Values) { v.Set("code_verifier", oauth2.GenerateVerifier()) }, "invalid_grant"},
		{"wrong redirect", func(v url.Values) { v.Set("redirect_uri", "http://127.0.0.1:9/other") }, "invalid_grant"},
		{"wrong resource", func(v url.Values) { v.Set("resource", "http://127.0.0.1:9/mcp") }, "invalid_target"},
		{"wrong grant type", func(v url.Values) { v.Set("grant_type", "password") }, "unsupported_grant_type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFlow(t, s)
			if status, body := f.exchange(t, f.code(t), tc.edit); status != 400 || body["error"] != tc.want {
				t.Errorf("token = %d %v, want 400 %s", status, body, tc.want)
			}
		})
	}

	t.Run("code works once and refresh tokens rotate", func(t *testing.T) {
		f := newFlow(t, s)
		code := f.code(t)
		status, body := f.exchange(t, code, nil)
		if status != 200 || body["scope"] != "mcp:read" || body["token_type"] != "Bearer" {
			t.Fatalf("exchange = %d %v", status, body)
		}
		if status, _ := f.exchange(t, code, nil); status != 400 {
			t.Errorf("second exchange of one code = %d, want 400", status)
		}
		first := body["refresh_token"].(string)
		status, body = f.token(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {first}})
		if status != 200 || body["refresh_token"] == first {
			t.Fatalf("refresh = %d %v, want a new refresh token", status, body)
		}
		if status, body := f.token(t, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {first}}); status != 400 || body["error"] != "invalid_grant" {
			t.Errorf("reused refresh token = %d %v, want invalid_grant", status, body)
		}
	})
}

func TestAuthorizeChecks(t *testing.T) {
	s := Start(t, Options{})
	f := newFlow(t, s)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		name      string
		url       string
		wantError string // in the redirect; "" for a 400 page
	}{
		{"plain PKCE", strings.Replace(f.authURL(), "code_challenge_method=S256", "code_challenge_method=plain", 1), "invalid_request"},
		{"no resource", f.cfg.AuthCodeURL("x", oauth2.S256ChallengeOption(f.verifier)), "invalid_target"},
		{"unknown scope", f.authURL(oauth2.SetAuthURLParam("scope", "admin")), "invalid_scope"},
		{"unregistered redirect", f.authURL(oauth2.SetAuthURLParam("redirect_uri", "http://evil.example/cb")), ""},
		{"unknown client", f.authURL(oauth2.SetAuthURLParam("client_id", "nobody")), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := noFollow.Get(tc.url)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if tc.wantError == "" {
				if resp.StatusCode != 400 {
					t.Errorf("status = %s, want 400 without a redirect", resp.Status)
				}
				return
			}
			loc, _ := url.Parse(resp.Header.Get("Location"))
			if resp.StatusCode != 302 || loc.Query().Get("error") != tc.wantError {
				t.Errorf("answer = %s %s, want a redirect with error %s", resp.Status, loc, tc.wantError)
			}
		})
	}

	t.Run("deny", func(t *testing.T) {
		back, err := s.Approve(context.Background(), f.authURL(), false)
		if err != nil || back.Query().Get("error") != "access_denied" || back.Query().Get("state") != "st4te" {
			t.Errorf("deny redirect = %v, %v", back, err)
		}
	})
}

func getJSON[T any](t *testing.T, u string) T {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v T
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	return v
}
