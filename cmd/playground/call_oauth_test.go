package main

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend/oauthtest"
)

// promptWriter is stderr for a call: it keeps what was written and hands
// the first authorization URL printed to urls.
type promptWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	urls chan string
	sent bool
}

var promptURL = regexp.MustCompile(`(?m)^  (http\S+)$`)

func (w *promptWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if m := promptURL.FindStringSubmatch(w.buf.String()); m != nil && !w.sent {
		w.sent = true
		w.urls <- m[1]
	}
	return len(p), nil
}

func (w *promptWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// callWithSignIn runs `playground call` with args and plays the person
// signing in: it approves (or denies) the URL the call prints.
func callWithSignIn(t *testing.T, as *oauthtest.Server, approve bool, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	errw := &promptWriter{urls: make(chan string, 1)}
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- runCall(ctx, args, &out, errw) }()
	select {
	case authURL := <-errw.urls:
		back, err := as.Approve(ctx, authURL, approve)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Get(back.String()) // the browser following the redirect
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	case err := <-done:
		return out.String(), errw.String(), err
	}
	err = <-done
	return out.String(), errw.String(), err
}

func TestCallOAuth(t *testing.T) {
	t.Run("signs in with a dynamically registered client", func(t *testing.T) {
		as := oauthtest.Start(t, oauthtest.Options{})
		out, errText, err := callWithSignIn(t, as, true, "--oauth", "--url", as.MCPURL, "tools/call", `{"name":"whoami","arguments":{}}`)
		if err != nil {
			t.Fatalf("call: %v\n%s", err, errText)
		}
		if !strings.Contains(out, "alice") {
			t.Errorf("stdout = %s, want whoami's subject alice", out)
		}
		if !strings.Contains(errText, "Open this address in your browser") {
			t.Errorf("stderr = %s, want the sign-in prompt", errText)
		}
		if st := as.Stats(); st.Registrations != 1 || st.CodeExchanges != 1 || st.LastResource != as.MCPURL {
			t.Errorf("stats = %+v, want one registration, one code exchange, resource %s", st, as.MCPURL)
		}
	})

	t.Run("a pre-registered client", func(t *testing.T) {
		as := oauthtest.Start(t, oauthtest.Options{Client: oauthtest.Client{ID: "cli-client", Secret: "cli-secret"}})
		t.Setenv("PLAYGROUND_OAUTH_CLIENT_SECRET", "cli-secret")
		_, errText, err := callWithSignIn(t, as, true, "--oauth", "--oauth-client-id", "cli-client", "--url", as.MCPURL, "tools/list")
		if err != nil {
			t.Fatalf("call: %v\n%s", err, errText)
		}
		if st := as.Stats(); st.Registrations != 0 || st.LastClientID != "cli-client" {
			t.Errorf("stats = %+v, want the pre-registered client and no registration", st)
		}
	})

	t.Run("a denied sign-in says so", func(t *testing.T) {
		as := oauthtest.Start(t, oauthtest.Options{})
		_, _, err := callWithSignIn(t, as, false, "--oauth", "--url", as.MCPURL, "tools/list")
		if err == nil || !strings.Contains(err.Error(), "refused the sign-in: access_denied") || !strings.Contains(err.Error(), "HTTP 401") {
			t.Errorf("err = %v, want the 401 and the refused sign-in", err)
		}
	})

	t.Run("without --oauth the diagnosis suggests it", func(t *testing.T) {
		as := oauthtest.Start(t, oauthtest.Options{})
		_, errText, err := callWithSignIn(t, as, true, "--url", as.MCPURL, "--fix", "tools/list")
		if err == nil || !strings.Contains(err.Error(), "401") {
			t.Errorf("err = %v, want the 401", err)
		}
		for _, want := range []string{"Diagnosis: This server needs OAuth sign-in", "Sign in with OAuth.", "playground call --oauth --url " + as.MCPURL + " tools/list\n"} {
			if !strings.Contains(errText, want) {
				t.Errorf("stderr lacks %q:\n%s", want, errText)
			}
		}
	})

	t.Run("bad flags", func(t *testing.T) {
		for _, args := range [][]string{
			{"--oauth-client-id", "x", "--url", "http://127.0.0.1:1/mcp", "tools/list"},
			{"--oauth", "--stdio", "true", "tools/list"},
		} {
			if _, err := parseCallConfig(args, &bytes.Buffer{}); err == nil {
				t.Errorf("parseCallConfig(%q) = nil error", args)
			}
		}
	})
}
