package oauthtest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/mcpclient/oauth"
)

// A DPoP server issues bound tokens only to token requests with a proof,
// and its MCP server takes them only with the DPoP scheme and a proof.
func TestClientCredentialsWithDPoP(t *testing.T) {
	s := Start(t, Options{Client: Client{ID: "svc", Secret: "s"}, DPoP: true})
	p, err := oauth.NewDPoP()
	if err != nil {
		t.Fatal(err)
	}
	tokenURL, _ := url.Parse(s.Issuer + "/token")
	mcpURL, _ := url.Parse(s.MCPURL)
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {s.MCPURL}}
	post := func(target, body string, header http.Header) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, target, strings.NewReader(body))
		req.Header = header
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	tokenHeader := func(proof bool) http.Header {
		h := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}
		h.Set("Authorization", "Basic c3ZjOnM=") // svc:s
		if proof {
			pr, _ := p.Proof(http.MethodPost, tokenURL, "")
			h.Set("DPoP", pr)
		}
		return h
	}
	if resp := post(tokenURL.String(), form.Encode(), tokenHeader(false)); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a token request without a proof: %d, want 400", resp.StatusCode)
	}
	resp := post(tokenURL.String(), form.Encode(), tokenHeader(true))
	var tok struct {
		AccessToken string `json:"access_token"`
		TokenType   string `json:"token_type"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&tok); err != nil || resp.StatusCode != http.StatusOK || tok.TokenType != "DPoP" {
		t.Fatalf("a token request with a proof: %d %+v %v; want a DPoP token", resp.StatusCode, tok, err)
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	mcpHeader := func(scheme string) http.Header {
		h := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
		h.Set("Authorization", scheme+" "+tok.AccessToken)
		if scheme == "DPoP" {
			pr, _ := p.Proof(http.MethodPost, mcpURL, tok.AccessToken)
			h.Set("DPoP", pr)
		}
		return h
	}
	if resp := post(s.MCPURL, initialize, mcpHeader("Bearer")); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the bound token as a Bearer token: %d, want 401", resp.StatusCode)
	}
	if resp := post(s.MCPURL, initialize, mcpHeader("DPoP")); resp.StatusCode != http.StatusOK {
		t.Errorf("the bound token with a proof: %d, want 200", resp.StatusCode)
	}
	if st := s.Stats(); st.ClientCredentials != 1 || st.LastClientID != "svc" {
		t.Errorf("stats %+v: want one client credentials grant to svc", st)
	}
}

// A public client cannot use the client credentials grant.
func TestClientCredentialsRefusePublicClients(t *testing.T) {
	s := Start(t, Options{Client: Client{ID: "public"}})
	resp, err := http.PostForm(s.Issuer+"/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {"public"}, "resource": {s.MCPURL}})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a public client's client credentials grant: %d, want 400", resp.StatusCode)
	}
}
