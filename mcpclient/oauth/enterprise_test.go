package oauth

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// TestEnterpriseGrant: the ID token is exchanged at the identity provider
// for an ID-JAG meant for the discovered authorization server and
// resource, which the authorization server takes in a JWT bearer grant.
func TestEnterpriseGrant(t *testing.T) {
	a := newAuthServer(t)
	var exchange url.Values
	idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		exchange = r.PostForm
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"the-id-jag","issued_token_type":"urn:ietf:params:oauth:token-type:id-jag","token_type":"N_A"}`))
	}))
	defer idp.Close()
	e := Enterprise{
		IdPTokenEndpoint: idp.URL + "/token",
		IdPClient:        oauthex.ClientCredentials{ClientID: "idp-client"},
		IDToken:          "the-id-token",
		Client:           ClientAuth{ClientID: "mcp-client", ClientSecret: "mcp-secret"},
	}
	g := NewGrantCredentials(a.URL+"/mcp", a.Client(), e.Grant())
	refuse(t, g, a)
	want := map[string]string{
		"grant_type":           "urn:ietf:params:oauth:grant-type:token-exchange",
		"subject_token":        "the-id-token",
		"subject_token_type":   oauthex.TokenTypeIDToken,
		"requested_token_type": oauthex.TokenTypeIDJAG,
		"audience":             a.URL,
		"resource":             a.URL + "/mcp",
		"client_id":            "idp-client",
	}
	for k, v := range want {
		if exchange.Get(k) != v {
			t.Errorf("token exchange %s = %q, want %q", k, exchange.Get(k), v)
		}
	}
	f := a.forms[0]
	if f.Get("grant_type") != GrantTypeJWTBearer || f.Get("assertion") != "the-id-jag" {
		t.Errorf("grant form = %v, want the jwt-bearer grant of the ID-JAG", f)
	}
	if len(a.basic) != 1 || a.basic[0] != "mcp-client:mcp-secret" {
		t.Errorf("Basic credentials = %q, want the MCP client's", a.basic)
	}
}
