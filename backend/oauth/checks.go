package oauth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	mcpoauth "github.com/mcp-playground/playground/mcpclient/oauth"
)

// flowFacts is what a flow learned from its earlier steps, against which
// later steps are checked. A flow's steps are recorded one at a time, so
// it needs no lock of its own.
type flowFacts struct {
	serverURL   string   // the MCP server's URL: the resource
	authServer  string   // the resource metadata's first authorization server: the issuer expected
	issuer      string   // the authorization server metadata's issuer
	askedScopes []string // the scopes the authorization request asked for
	// What a client credentials flow was set up with (the zero values
	// for a sign-in in the browser).
	grant      GrantType
	clientAuth ClientAuth
	dpop       bool
}

// learn updates f from a step and its response body (as received).
func (f *flowFacts) learn(s Step, body []byte) {
	switch s.Kind {
	case StepResourceMetadata:
		var prm struct {
			AuthorizationServers []string `json:"authorization_servers"`
		}
		if json.Unmarshal(body, &prm) == nil && len(prm.AuthorizationServers) > 0 && s.Status == http.StatusOK {
			f.authServer = prm.AuthorizationServers[0]
		}
	case StepServerMetadata:
		var asm struct {
			Issuer string `json:"issuer"`
		}
		if json.Unmarshal(body, &asm) == nil && asm.Issuer != "" && s.Status == http.StatusOK {
			f.issuer = asm.Issuer
		}
	case StepAuthorization:
		if u, err := url.Parse(s.URL); err == nil {
			f.askedScopes = strings.Fields(u.Query().Get("scope"))
		}
	}
}

// checkStep says what was verified about a step, given its response body
// as received (secrets included: checks name no secret values).
func (f *flowFacts) checkStep(s Step, body []byte) []Check {
	if s.Err != "" {
		return nil
	}
	switch s.Kind {
	case StepChallenge:
		return f.checkChallenge(s)
	case StepResourceMetadata:
		return f.checkResourceMetadata(s, body)
	case StepServerMetadata:
		return f.checkServerMetadata(s, body)
	case StepRegistration:
		return checkRegistration(s, body)
	case StepAuthorization:
		return checkAuthorization(s)
	case StepToken, StepRefresh:
		return f.checkToken(s, body)
	case StepClientCredentials:
		return append(f.checkClientAuth(s), f.checkToken(s, body)...)
	}
	return nil
}

// statusCheck checks that the step was answered with one of the HTTP
// statuses want.
func statusCheck(s Step, want ...int) Check {
	names := make([]string, len(want))
	for i, w := range want {
		names[i] = fmt.Sprint(w)
	}
	return Check{Name: "Answered HTTP " + strings.Join(names, " or "), OK: slices.Contains(want, s.Status), Detail: fmt.Sprintf("HTTP %d", s.Status)}
}

func (f *flowFacts) checkChallenge(s Step) []Check {
	challenge := strings.Join(s.ResponseHeader["Www-Authenticate"], ", ")
	checks := []Check{
		statusCheck(s, http.StatusUnauthorized),
		{Name: "WWW-Authenticate names the Bearer scheme", OK: strings.Contains(strings.ToLower(challenge), "bearer"), Detail: challenge},
	}
	c := Check{Name: "The challenge points to the resource metadata (resource_metadata)", OK: strings.Contains(challenge, "resource_metadata=")}
	if !c.OK {
		c.Detail = "absent: the client tries the well-known URLs"
	}
	return append(checks, c)
}

func (f *flowFacts) checkResourceMetadata(s Step, body []byte) []Check {
	if s.Status != http.StatusOK {
		return []Check{statusCheck(s, http.StatusOK)}
	}
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	if err := json.Unmarshal(body, &prm); err != nil {
		return []Check{{Name: "The metadata is JSON", Detail: err.Error()}}
	}
	want := []string{f.serverURL}
	if u, err := url.Parse(s.URL); err == nil && u.Path == "/.well-known/oauth-protected-resource" {
		if su, err := url.Parse(f.serverURL); err == nil {
			want = append(want, su.Scheme+"://"+su.Host) // metadata at the root describes the origin
		}
	}
	return []Check{
		{Name: "resource matches the server URL", OK: slices.Contains(want, prm.Resource),
			Detail: fmt.Sprintf("resource %q, server URL %q", prm.Resource, f.serverURL)},
		{Name: "authorization_servers names an authorization server", OK: len(prm.AuthorizationServers) > 0,
			Detail: strings.Join(prm.AuthorizationServers, ", ")},
	}
}

func (f *flowFacts) checkServerMetadata(s Step, body []byte) []Check {
	if s.Status != http.StatusOK {
		return []Check{statusCheck(s, http.StatusOK)}
	}
	var asm struct {
		Issuer                string   `json:"issuer"`
		AuthorizationEndpoint string   `json:"authorization_endpoint"`
		TokenEndpoint         string   `json:"token_endpoint"`
		RegistrationEndpoint  string   `json:"registration_endpoint"`
		CodeChallengeMethods  []string `json:"code_challenge_methods_supported"`
		GrantTypes            []string `json:"grant_types_supported"`
		AuthMethods           []string `json:"token_endpoint_auth_methods_supported"`
		DPoPAlgs              []string `json:"dpop_signing_alg_values_supported"`
	}
	if err := json.Unmarshal(body, &asm); err != nil {
		return []Check{{Name: "The metadata is JSON", Detail: err.Error()}}
	}
	issuer := Check{Name: "issuer equals the authorization server named by the resource", OK: f.authServer != "" && asm.Issuer == f.authServer,
		Detail: fmt.Sprintf("issuer %q, expected %q", asm.Issuer, f.authServer)}
	if f.grant == GrantClientCredentials {
		checks := []Check{issuer,
			{Name: "grant_types_supported has client_credentials", OK: slices.Contains(asm.GrantTypes, string(GrantClientCredentials)),
				Detail: strings.Join(asm.GrantTypes, ", ")},
			{Name: "token_endpoint_auth_methods_supported has " + string(f.clientAuth), OK: slices.Contains(asm.AuthMethods, string(f.clientAuth)),
				Detail: strings.Join(asm.AuthMethods, ", ")},
			{Name: "a token endpoint is given", OK: asm.TokenEndpoint != ""},
		}
		if f.dpop {
			checks = append(checks, Check{Name: "dpop_signing_alg_values_supported has ES256 (DPoP)", OK: slices.Contains(asm.DPoPAlgs, "ES256"),
				Detail: strings.Join(asm.DPoPAlgs, ", ")})
		}
		return checks
	}
	return []Check{
		issuer,
		{Name: "code_challenge_methods_supported has S256 (PKCE)", OK: slices.Contains(asm.CodeChallengeMethods, "S256"),
			Detail: strings.Join(asm.CodeChallengeMethods, ", ")},
		{Name: "authorization and token endpoints are given", OK: asm.AuthorizationEndpoint != "" && asm.TokenEndpoint != ""},
		{Name: "a registration endpoint is given (dynamic client registration)", OK: asm.RegistrationEndpoint != "",
			Detail: "needed only without a pre-registered client"},
	}
}

func checkRegistration(s Step, body []byte) []Check {
	var reg struct {
		ClientID string `json:"client_id"`
	}
	_ = json.Unmarshal(body, &reg)
	return []Check{
		statusCheck(s, http.StatusCreated, http.StatusOK),
		{Name: "client_id is given", OK: reg.ClientID != "", Detail: reg.ClientID},
	}
}

func checkAuthorization(s Step) []Check {
	u, err := url.Parse(s.URL)
	if err != nil {
		return []Check{{Name: "The authorization URL parses", Detail: err.Error()}}
	}
	q := u.Query()
	return []Check{
		{Name: "PKCE with S256", OK: q.Get("code_challenge_method") == "S256" && q.Get("code_challenge") != "", Detail: q.Get("code_challenge_method")},
		{Name: "state is set", OK: q.Get("state") != ""},
		{Name: "resource names the server (RFC 8707)", OK: q.Get("resource") != "", Detail: q.Get("resource")},
	}
}

func (f *flowFacts) checkToken(s Step, body []byte) []Check {
	if s.Status != http.StatusOK {
		var e struct {
			Error       string `json:"error"`
			Description string `json:"error_description"`
		}
		_ = json.Unmarshal(body, &e)
		detail := fmt.Sprintf("HTTP %d", s.Status)
		if e.Error != "" {
			detail += ": " + strings.TrimSpace(e.Error+" "+e.Description)
		}
		return []Check{{Name: "Answered HTTP 200", Detail: detail}}
	}
	var tok struct {
		TokenType    string `json:"token_type"`
		ExpiresIn    *int64 `json:"expires_in"`
		Scope        string `json:"scope"`
		AccessToken  string `json:"access_token"`
		RefreshToken string `json:"refresh_token"`
	}
	if err := json.Unmarshal(body, &tok); err != nil {
		return []Check{{Name: "The answer is JSON", Detail: err.Error()}}
	}
	wantType := "Bearer"
	if f.dpop {
		wantType = "DPoP" // a sender-constrained token (RFC 9449 section 5)
	}
	checks := []Check{
		{Name: "An access token is given", OK: tok.AccessToken != ""},
		{Name: "token_type is " + wantType, OK: strings.EqualFold(tok.TokenType, wantType), Detail: tok.TokenType},
		{Name: "expires_in is given", OK: tok.ExpiresIn != nil},
	}
	if tok.ExpiresIn != nil {
		checks[2].Detail = fmt.Sprintf("%d s", *tok.ExpiresIn)
	}
	if s.Kind == StepToken {
		checks = append(checks, Check{Name: "A refresh token is given", OK: tok.RefreshToken != "", Detail: "without one, the sign-in lasts as long as the access token"})
	}
	granted := strings.Fields(tok.Scope)
	scopes := Check{Name: "The scopes asked for were granted", OK: true}
	switch {
	case len(f.askedScopes) == 0:
		scopes.Detail = "none were asked for; granted: " + tok.Scope
	case tok.Scope == "":
		scopes.Detail = "the answer names no scope: all asked for are granted"
	default:
		var missing []string
		for _, want := range f.askedScopes {
			if !slices.Contains(granted, want) {
				missing = append(missing, want)
			}
		}
		scopes.OK = len(missing) == 0
		scopes.Detail = fmt.Sprintf("asked: %s; granted: %s", strings.Join(f.askedScopes, " "), tok.Scope)
	}
	return append(checks, scopes)
}

// checkClientAuth checks that a client credentials request authenticated
// the client as its settings say, without the secret in the form.
func (f *flowFacts) checkClientAuth(s Step) []Check {
	form, _ := url.ParseQuery(s.RequestBody)
	checks := []Check{{Name: "The client secret is not sent in the form", OK: !form.Has("client_secret")}}
	switch f.clientAuth {
	case PrivateKeyJWT:
		checks = append(checks, Check{Name: "A signed client assertion authenticates the client (private_key_jwt)",
			OK: form.Get("client_assertion_type") == mcpoauth.ClientAssertionJWTType && form.Has("client_assertion")})
	default:
		checks = append(checks, Check{Name: "HTTP Basic authenticates the client (client_secret_basic)", OK: len(s.RequestHeader["Authorization"]) > 0})
	}
	if f.dpop {
		checks = append(checks, Check{Name: "A DPoP proof comes with the request", OK: len(s.RequestHeader["Dpop"]) > 0})
	}
	return checks
}
