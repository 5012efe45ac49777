package oauthtest

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Approve plays the person at the authorization page without a browser:
// it opens authURL, answers Approve (or Deny when approve is false), and
// returns the URL the authorization server redirected to — the client's
// redirect URI with code or error, state and iss — without following it.
func (s *Server) Approve(ctx context.Context, authURL string, approve bool) (*url.URL, error) {
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	page, err := url.Parse(authURL)
	if err != nil {
		return nil, fmt.Errorf("oauthtest: authorization URL: %w", err)
	}
	resp, err := send(ctx, noFollow, http.MethodGet, authURL, nil)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusOK {
		form := page.Query()
		form.Set("decision", map[bool]string{true: "approve", false: "deny"}[approve])
		resp, err = send(ctx, noFollow, http.MethodPost, s.Issuer+"/authorize", form)
		if err != nil {
			return nil, err
		}
	}
	if resp.StatusCode != http.StatusFound {
		return nil, fmt.Errorf("oauthtest: authorization answered %s, not a redirect", resp.Status)
	}
	return url.Parse(resp.Header.Get("Location"))
}

// Fetcher is an auth.AuthorizationCodeFetcher for the Go SDK's
// authorization code handler that approves (or denies) through Approve.
func (s *Server) Fetcher(approve bool) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		back, err := s.Approve(ctx, args.URL, approve)
		if err != nil {
			return nil, err
		}
		q := back.Query()
		if e := q.Get("error"); e != "" {
			return nil, fmt.Errorf("oauthtest: authorization refused: %s: %s", e, q.Get("error_description"))
		}
		return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
	}
}

// send makes one request, with form as its urlencoded body when not nil,
// and closes the body.
func send(ctx context.Context, c *http.Client, method, target string, form url.Values) (*http.Response, error) {
	var body *strings.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	} else {
		body = strings.NewReader("")
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return nil, fmt.Errorf("oauthtest: %w", err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("oauthtest: %w", err)
	}
	resp.Body.Close()
	return resp, nil
}
