package main

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcp-playground/playground/backend/oauth"
	"github.com/mcp-playground/playground/mcpclient"
)

// signInWait bounds how long `call --oauth` waits for the person to sign
// in in their browser.
const signInWait = 5 * time.Minute

// loopbackSignIn is the browser sign-in of `playground call --oauth`: the
// client registers itself with the authorization server (or uses the
// pre-registered client ID), prints the authorization URL on stderr and
// receives the redirect on a loopback listener of its own. It owns the
// listener and its server goroutine; Close stops both.
type loopbackSignIn struct {
	ln     net.Listener
	srv    *http.Server
	done   chan struct{}
	out    io.Writer
	result chan signInAnswer

	mu      sync.Mutex
	waiting bool
}

// startLoopbackSignIn listens on a loopback port for the authorization
// server's redirect; prompts go to out.
func startLoopbackSignIn(out io.Writer) (*loopbackSignIn, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("--oauth: listen for the sign-in redirect: %w", err)
	}
	s := &loopbackSignIn{ln: ln, done: make(chan struct{}), out: out, result: make(chan signInAnswer, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /callback", s.callback)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// RedirectURL is the loopback URL the authorization server sends the
// browser back to.
func (s *loopbackSignIn) RedirectURL() string {
	return "http://" + s.ln.Addr().String() + "/callback"
}

// Close stops the listener, lets an answer to the browser being written
// finish (for up to a second), and waits for the server's goroutine.
func (s *loopbackSignIn) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if s.srv.Shutdown(ctx) != nil {
		_ = s.srv.Close()
	}
	<-s.done
}

// credentials returns the Credentials that sign in through the browser
// when the server asks: with clientID a pre-registered client (secret
// may be empty for a public client), else one registered dynamically.
func (s *loopbackSignIn) credentials(clientID, clientSecret string) (mcpclient.Credentials, error) {
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              s.RedirectURL(),
		AuthorizationCodeFetcher: s.fetch,
		RequestRefreshToken:      true,
	}
	if clientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: clientID}
		if clientSecret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: clientSecret}
		}
	} else {
		cfg.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{
				ClientName:              "MCP Playground CLI",
				RedirectURIs:            []string{s.RedirectURL()},
				GrantTypes:              []string{"authorization_code", "refresh_token"},
				ResponseTypes:           []string{"code"},
				TokenEndpointAuthMethod: "none",
			},
		}
	}
	h, err := auth.NewAuthorizationCodeHandler(cfg)
	if err != nil {
		return nil, fmt.Errorf("--oauth: %w", err)
	}
	return mcpclient.OAuthCredentials(h), nil
}

// fetch shows the person the authorization URL and waits for the
// redirect back.
func (s *loopbackSignIn) fetch(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	if !oauth.IsWebAddress(args.URL) {
		return nil, errors.New("the authorization endpoint is not a web address (http or https); it is not shown to be opened")
	}
	s.mu.Lock()
	s.waiting = true
	s.mu.Unlock()
	fmt.Fprintf(s.out, "The server asks you to sign in. Open this address in your browser:\n\n  %s\n\nWaiting up to %s for the sign-in...\n", args.URL, signInWait)
	timer := time.NewTimer(signInWait)
	defer timer.Stop()
	select {
	case a := <-s.result:
		return a.res, a.err
	case <-timer.C:
		return nil, fmt.Errorf("no sign-in within %s", signInWait)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// callback takes the authorization server's redirect: the code (or the
// error it names) goes to the waiting fetch; the browser is told what
// happened.
func (s *loopbackSignIn) callback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'")
	s.mu.Lock()
	waiting := s.waiting
	s.waiting = false
	s.mu.Unlock()
	if !waiting {
		http.Error(w, "No sign-in is waiting for this answer.", http.StatusConflict)
		return
	}
	if e := q.Get("error"); e != "" {
		msg := e
		if d := q.Get("error_description"); d != "" {
			msg += ": " + d
		}
		fmt.Fprintf(w, "<p>Sign-in refused: %s. You can close this tab.</p>", html.EscapeString(msg))
		s.result <- signInAnswer{err: fmt.Errorf("the authorization server refused the sign-in: %s", withoutControls(msg))}
		return
	}
	s.result <- signInAnswer{res: &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}}
	fmt.Fprint(w, "<p>Signed in to the MCP server. You can close this tab and go back to the terminal.</p>")
}

// withoutControls is text fit for a terminal: its control characters
// (escape sequences start with them) are replaced by U+FFFD.
func withoutControls(text string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return unicode.ReplacementChar
		}
		return r
	}, text)
}

// signInAnswer is what the redirect brought: the code, or why not.
type signInAnswer struct {
	res *auth.AuthorizationResult
	err error
}
