package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// TestCallOAuthRefusalKeepsTerminalControlsOut: the authorization
// server's error_description reaches the terminal in the error that
// `call --oauth` prints; escape sequences in it (a window title, a
// cleared screen, a C1 CSI) must not.
func TestCallOAuthRefusalKeepsTerminalControlsOut(t *testing.T) {
	s, err := startLoopbackSignIn(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.mu.Lock()
	s.waiting = true
	s.mu.Unlock()
	hostile := "denied\x1b]0;pwned\x07\x1b[2J\u009b31m\r\nFAKE PROMPT$ "
	resp, err := http.Get(s.RedirectURL() + "?" + url.Values{"error": {"access_denied\x1b[5m"}, "error_description": {hostile}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	a := <-s.result
	if a.err == nil {
		t.Fatal("a refused sign-in gave no error")
	}
	if msg := a.err.Error(); strings.ContainsFunc(msg, unicode.IsControl) || !strings.Contains(msg, "denied") {
		t.Errorf("the refusal reads %q: want the authorization server's words without control characters", msg)
	}
}

// TestCallOAuthPrintsOnlyAWebAddress: `call --oauth` prints the
// authorization URL for the person to open; one of another scheme (which
// the SDK lets through on a loopback host) is refused instead.
func TestCallOAuthPrintsOnlyAWebAddress(t *testing.T) {
	var out strings.Builder
	s := &loopbackSignIn{out: &out}
	_, err := s.fetch(t.Context(), &auth.AuthorizationArgs{URL: "ms-officecmd://127.0.0.1/open?x=1"})
	if err == nil || !strings.Contains(err.Error(), "not a web address") || strings.Contains(out.String(), "ms-officecmd") {
		t.Errorf("fetch of an ms-officecmd: URL = %v, printed %q; want it refused, unprinted", err, out.String())
	}
}
