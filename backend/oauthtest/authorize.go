package oauthtest

import (
	"cmp"
	"crypto/rand"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// authRequest is a validated authorization request (RFC 6749 §4.1.1 with
// PKCE and a resource indicator).
type authRequest struct {
	client        Client
	redirectURI   string
	state         string
	scopes        []string
	codeChallenge string
	resource      string
	params        url.Values // as received, for the approve form
}

// requestError is a refused authorization request. Safe errors go back to
// the client's redirect URI; the others (unknown client, unregistered
// redirect URI) are shown on the page, as RFC 6749 §4.1.2.1 requires.
type requestError struct {
	code, description string
	safeToRedirect    bool
}

// parseAuthRequest validates an authorization request's parameters.
func (s *Server) parseAuthRequest(q url.Values) (authRequest, *requestError) {
	req := authRequest{redirectURI: q.Get("redirect_uri"), state: q.Get("state"), params: q}
	c, ok := s.client(q.Get("client_id"))
	if !ok {
		return req, &requestError{code: "invalid_client", description: fmt.Sprintf("unknown client_id %q", q.Get("client_id"))}
	}
	req.client = c
	if !redirectAllowed(c, req.redirectURI) {
		return req, &requestError{code: "invalid_request", description: fmt.Sprintf("redirect_uri %q is not registered for this client", req.redirectURI)}
	}
	refuse := func(code, description string) (authRequest, *requestError) {
		return req, &requestError{code: code, description: description, safeToRedirect: true}
	}
	if q.Get("response_type") != "code" {
		return refuse("unsupported_response_type", "response_type must be code")
	}
	if s.currentFaults().NoS256 {
		return refuse("invalid_request", "this server does not support the S256 code_challenge_method")
	}
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		return refuse("invalid_request", "a PKCE code_challenge with code_challenge_method S256 is required")
	}
	req.codeChallenge = q.Get("code_challenge")
	if q.Get("resource") != s.MCPURL {
		return refuse("invalid_target", fmt.Sprintf("resource must be %s, got %q", s.MCPURL, q.Get("resource")))
	}
	req.resource = q.Get("resource")
	req.scopes = strings.Fields(q.Get("scope"))
	for _, sc := range req.scopes {
		if !slices.Contains(s.opts.Scopes, sc) {
			return refuse("invalid_scope", fmt.Sprintf("scope %q is not supported", sc))
		}
	}
	return req, nil
}

// redirectAllowed reports whether the client may use the redirect URI:
// exactly one it registered, or, for a pre-registered client without any,
// any loopback http URL.
func redirectAllowed(c Client, uri string) bool {
	if len(c.RedirectURIs) > 0 {
		return slices.Contains(c.RedirectURIs, uri)
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "http" {
		return false
	}
	host := u.Hostname()
	return host == "127.0.0.1" || host == "localhost" || host == "::1"
}

// serveAuthorizePage shows the approve page for a valid request.
func (s *Server) serveAuthorizePage(w http.ResponseWriter, r *http.Request) {
	req, rerr := s.parseAuthRequest(r.URL.Query())
	if rerr != nil {
		s.refuseAuthRequest(w, r, req, rerr)
		return
	}
	if s.currentFaults().Deny {
		s.countDecision(false)
		s.refuseAuthRequest(w, r, req, &requestError{code: "access_denied", description: "the person denied access", safeToRedirect: true})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = approvePage.Execute(w, approvePageData{
		ClientName: cmp.Or(req.client.Name, req.client.ID),
		Subject:    s.opts.Subject,
		Scopes:     req.scopes,
		Resource:   req.resource,
		Params:     req.params,
	})
}

// serveAuthorizeDecision handles the approve page's form: it re-validates
// the request it carries and redirects back with a code or access_denied.
func (s *Server) serveAuthorizeDecision(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	decision := r.PostForm.Get("decision")
	r.PostForm.Del("decision")
	req, rerr := s.parseAuthRequest(r.PostForm)
	if rerr != nil {
		s.refuseAuthRequest(w, r, req, rerr)
		return
	}
	if decision != "approve" {
		s.countDecision(false)
		s.refuseAuthRequest(w, r, req, &requestError{code: "access_denied", description: "the person denied access", safeToRedirect: true})
		return
	}
	s.countDecision(true)
	code := rand.Text()
	s.mu.Lock()
	s.codes[code] = authCode{
		clientID:      req.client.ID,
		redirectURI:   req.redirectURI,
		codeChallenge: req.codeChallenge,
		resource:      req.resource,
		scopes:        req.scopes,
		expires:       time.Now().Add(time.Minute),
	}
	s.mu.Unlock()
	s.redirectBack(w, r, req, url.Values{"code": {code}})
}

// refuseAuthRequest sends an error back to the client when that is safe,
// else shows it on the page.
func (s *Server) refuseAuthRequest(w http.ResponseWriter, r *http.Request, req authRequest, e *requestError) {
	if !e.safeToRedirect {
		http.Error(w, e.code+": "+e.description, http.StatusBadRequest)
		return
	}
	s.redirectBack(w, r, req, url.Values{"error": {e.code}, "error_description": {e.description}})
}

// redirectBack redirects to the request's redirect URI with the values,
// the state and the issuer (RFC 9207).
func (s *Server) redirectBack(w http.ResponseWriter, r *http.Request, req authRequest, v url.Values) {
	u, _ := url.Parse(req.redirectURI) // validated by parseAuthRequest
	q := u.Query()
	for k, vs := range v {
		q[k] = vs
	}
	if req.state != "" {
		q.Set("state", req.state)
	}
	q.Set("iss", s.Issuer)
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

func (s *Server) countDecision(approved bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if approved {
		s.stats.Approvals++
		s.stats.LastAuthorized = time.Now()
	} else {
		s.stats.Denials++
	}
}

type approvePageData struct {
	ClientName string
	Subject    string
	Scopes     []string
	Resource   string
	Params     url.Values
}

// approvePage is the consent page: a real form that a browser submits.
var approvePage = template.Must(template.New("approve").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorize {{.ClientName}} — oauthtest</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;background:#f4f5f7;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border:1px solid #d0d4da;border-radius:8px;padding:24px 28px;max-width:460px}
h1{font-size:20px;margin:0 0 12px}code{background:#eef0f3;padding:1px 4px;border-radius:3px}
ul{padding-left:20px}.actions{display:flex;gap:12px;margin-top:20px}
button{font:inherit;padding:8px 18px;border-radius:6px;border:1px solid #888;cursor:pointer}
button[value=approve]{background:#1f6feb;border-color:#1f6feb;color:#fff}
</style></head>
<body><main data-testid="oauthtest-approve">
<h1>Authorize {{.ClientName}}</h1>
<p>Signed in as <strong>{{.Subject}}</strong> at the oauthtest authorization server.</p>
<p>The application asks for access to <code>{{.Resource}}</code>{{if .Scopes}} with the scopes:{{else}}.{{end}}</p>
{{if .Scopes}}<ul>{{range .Scopes}}<li><code>{{.}}</code></li>{{end}}</ul>{{end}}
<form method="post" action="/authorize">
{{range $k, $vs := .Params}}{{range $vs}}<input type="hidden" name="{{$k}}" value="{{.}}">{{end}}{{end}}
<div class="actions">
<button type="submit" name="decision" value="approve" data-testid="oauthtest-approve-button">Approve</button>
<button type="submit" name="decision" value="deny" data-testid="oauthtest-deny-button">Deny</button>
</div></form></main></body></html>
`))
