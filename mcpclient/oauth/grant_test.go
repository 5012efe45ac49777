package oauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// authServer is a protected resource at /mcp and its authorization server
// in one test server; token records the token requests' forms and Basic
// credentials and answers with an access token.
type authServer struct {
	*httptest.Server
	mu    sync.Mutex
	forms []url.Values
	basic []string
}

func newAuthServer(t *testing.T) *authServer {
	a := &authServer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"resource": a.URL + "/mcp", "authorization_servers": []string{a.URL}, "scopes_supported": []string{"mcp:read"}})
	})
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"issuer": a.URL, "token_endpoint": a.URL + "/token",
			"authorization_endpoint": a.URL + "/authorize", "response_types_supported": []string{"code"},
			"code_challenge_methods_supported": []string{"S256"}})
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		user, pass, ok := r.BasicAuth()
		a.mu.Lock()
		a.forms = append(a.forms, r.PostForm)
		if ok {
			a.basic = append(a.basic, user+":"+pass)
		}
		a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"granted","token_type":"Bearer","expires_in":60}`))
	})
	a.Server = httptest.NewServer(mux)
	t.Cleanup(a.Close)
	return a
}

// refuse obtains credentials as a 401 of the resource would.
func refuse(t *testing.T, g *GrantCredentials, a *authServer) {
	t.Helper()
	resp := &http.Response{StatusCode: http.StatusUnauthorized, Header: http.Header{
		"Www-Authenticate": {`Bearer resource_metadata="` + a.URL + `/.well-known/oauth-protected-resource/mcp"`}}}
	req := httptest.NewRequest(http.MethodPost, a.URL+"/mcp", nil)
	if err := g.Refused(context.Background(), req, resp); err != nil {
		t.Fatal(err)
	}
	req = httptest.NewRequest(http.MethodPost, a.URL+"/mcp", nil)
	if err := g.Sign(req); err != nil {
		t.Fatal(err)
	}
	if got := req.Header.Get("Authorization"); got != "Bearer granted" {
		t.Errorf("Authorization = %q, want Bearer granted", got)
	}
}

func TestClientCredentialsWithSecret(t *testing.T) {
	a := newAuthServer(t)
	g := NewGrantCredentials(a.URL+"/mcp", a.Client(), ClientCredentialsGrant(ClientAuth{ClientID: "c&1", ClientSecret: "s:2"}))
	refuse(t, g, a)
	f := a.forms[0]
	if f.Get("grant_type") != "client_credentials" || f.Get("resource") != a.URL+"/mcp" || f.Get("scope") != "mcp:read" {
		t.Errorf("form = %v, want client_credentials for the resource with its scopes", f)
	}
	if f.Has("client_secret") || f.Has("client_assertion") {
		t.Errorf("the secret went in the form: %v", f)
	}
	if len(a.basic) != 1 || a.basic[0] != url.QueryEscape("c&1")+":"+url.QueryEscape("s:2") {
		t.Errorf("Basic credentials = %q, want the form-encoded client ID and secret", a.basic)
	}
}

func TestClientCredentialsWithPrivateKeyJWT(t *testing.T) {
	a := newAuthServer(t)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	g := NewGrantCredentials(a.URL+"/mcp", a.Client(), ClientCredentialsGrant(ClientAuth{ClientID: "svc", Key: key}))
	refuse(t, g, a)
	f := a.forms[0]
	if f.Get("client_assertion_type") != ClientAssertionJWTType || len(a.basic) != 0 {
		t.Fatalf("form = %v, Basic %v: want a JWT client assertion and no secret", f, a.basic)
	}
	tok, err := jwt.ParseSigned(f.Get("client_assertion"), []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatal(err)
	}
	var c jwt.Claims
	if err := tok.Claims(&key.PublicKey, &c); err != nil {
		t.Fatalf("the assertion does not verify: %v", err)
	}
	if err := c.ValidateWithLeeway(jwt.Expected{Issuer: "svc", Subject: "svc", AnyAudience: jwt.Audience{a.URL}, Time: time.Now()}, 0); err != nil {
		t.Errorf("assertion claims %+v: %v", c, err)
	}
	if c.ID == "" {
		t.Error("the assertion has no jti")
	}
}

func TestJWTBearerGrant(t *testing.T) {
	a := newAuthServer(t)
	assertion := func(context.Context, *http.Client, *Discovery) (string, error) { return "workload.jwt", nil }
	g := NewGrantCredentials(a.URL+"/mcp", a.Client(), JWTBearerGrant(ClientAuth{ClientID: "wl"}, assertion))
	refuse(t, g, a)
	f := a.forms[0]
	if f.Get("grant_type") != GrantTypeJWTBearer || f.Get("assertion") != "workload.jwt" || f.Get("client_id") != "wl" {
		t.Errorf("form = %v, want the jwt-bearer grant with the assertion and the client ID", f)
	}
}
