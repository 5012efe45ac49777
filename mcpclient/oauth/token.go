package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// tokenResponseLimit bounds how much of a token endpoint's answer is read.
const tokenResponseLimit = 1 << 20

// TokenError is an error answer of a token endpoint (RFC 6749 section 5.2).
type TokenError struct {
	Status      int
	Code        string // such as invalid_grant
	Description string
}

func (e *TokenError) Error() string {
	msg := fmt.Sprintf("the token endpoint answered HTTP %d", e.Status)
	if e.Code != "" {
		msg += ": " + e.Code
	}
	if e.Description != "" {
		msg += " (" + e.Description + ")"
	}
	return msg
}

// postToken posts form to a token endpoint, with HTTP Basic client
// authentication when basic is set (its parts form-encoded, RFC 6749
// section 2.3.1), and reads the token or the error.
func postToken(ctx context.Context, client *http.Client, endpoint string, form url.Values, basic *url.Userinfo) (*oauth2.Token, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if basic != nil {
		secret, _ := basic.Password()
		req.SetBasicAuth(url.QueryEscape(basic.Username()), url.QueryEscape(secret))
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, tokenResponseLimit))
	if err != nil {
		return nil, err
	}
	var t struct {
		AccessToken  string `json:"access_token"`
		TokenType    string `json:"token_type"`
		RefreshToken string `json:"refresh_token"`
		ExpiresIn    int64  `json:"expires_in"`
		Error        string `json:"error"`
		Description  string `json:"error_description"`
	}
	jsonErr := json.Unmarshal(body, &t)
	if resp.StatusCode != http.StatusOK || t.Error != "" {
		return nil, &TokenError{Status: resp.StatusCode, Code: t.Error, Description: t.Description}
	}
	if jsonErr != nil {
		return nil, fmt.Errorf("the token endpoint's answer is not JSON: %w", jsonErr)
	}
	tok := &oauth2.Token{AccessToken: t.AccessToken, TokenType: t.TokenType, RefreshToken: t.RefreshToken}
	if t.ExpiresIn > 0 {
		tok.Expiry = time.Now().Add(time.Duration(t.ExpiresIn) * time.Second)
	}
	var raw map[string]any
	_ = json.Unmarshal(body, &raw)
	return tok.WithExtra(raw), nil
}
