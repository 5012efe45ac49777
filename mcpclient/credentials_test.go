package mcpclient

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tokenCredentials signs with its current token; Refused moves to the next
// token, or fails with refuseErr.
type tokenCredentials struct {
	mu        sync.Mutex
	token     string
	next      string
	refusals  int
	refuseErr error
}

func (c *tokenCredentials) Sign(req *http.Request) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return nil
}

func (c *tokenCredentials) Refused(_ context.Context, _ *http.Request, resp *http.Response) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refusals++
	if c.refuseErr != nil {
		return c.refuseErr
	}
	c.token = c.next
	return nil
}

// bearerOnly serves h to requests carrying "Bearer good", and answers
// others 401 with a challenge.
func bearerOnly(h http.Handler, unsigned *atomic.Int32) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good" {
			unsigned.Add(1)
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://example.test/.well-known/oauth-protected-resource"`)
			http.Error(w, "sign in first", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func TestCredentialsSignAndRenew(t *testing.T) {
	var refused atomic.Int32
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newSDKServer() }, nil)
	srv := newLoopbackServer(t, bearerOnly(handler, &refused))

	t.Run("a refusal obtains credentials and the request is sent again", func(t *testing.T) {
		creds := &tokenCredentials{next: "good"}
		rec := &recorder{}
		c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL, Credentials: creds}, Options{Tap: rec.tap})
		if err != nil {
			t.Fatal(err)
		}
		defer mustClose(t, c)
		if _, err := c.ListTools(testContext(t)); err != nil {
			t.Fatal(err)
		}
		if creds.refusals != 1 {
			t.Errorf("Refused ran %d times, want once", creds.refusals)
		}
		rec.waitFind(t, Inbound, KindTransport, `HTTP 401: the server asks for authorization (WWW-Authenticate: Bearer resource_metadata=`)
	})

	t.Run("failed authorization names the challenge and the cause", func(t *testing.T) {
		creds := &tokenCredentials{refuseErr: errors.New("the user closed the sign-in page")}
		_, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL, Credentials: creds}, Options{})
		var authErr *AuthError
		if !errors.As(err, &authErr) || authErr.Status != 401 {
			t.Fatalf("err = %v, want an AuthError for 401", err)
		}
		for _, want := range []string{"HTTP 401 Unauthorized", "resource_metadata=", "the user closed the sign-in page"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("err = %q, want %q in it", err, want)
			}
		}
	})

	t.Run("a request refused again is renewed once more, then given up", func(t *testing.T) {
		creds := &tokenCredentials{next: "still-wrong"}
		c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: srv.URL, Credentials: creds}, Options{})
		if err == nil {
			c.Close()
			t.Fatal("connected with credentials the server refuses")
		}
		if creds.refusals != maxRefusals {
			t.Errorf("Refused ran %d times for one request, want %d", creds.refusals, maxRefusals)
		}
	})

	t.Run("a redirect to another origin is not signed", func(t *testing.T) {
		var leaked atomic.Bool
		other := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			leaked.Store(r.Header.Get("Authorization") != "")
			http.Error(w, "gone", http.StatusNotFound)
		}))
		redirecting := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL, http.StatusTemporaryRedirect)
		}))
		creds := &tokenCredentials{token: "good"}
		c, err := ConnectHTTP(testContext(t), HTTPConfig{URL: redirecting.URL, Credentials: creds}, Options{})
		if err == nil {
			c.Close()
		}
		if leaked.Load() {
			t.Error("the other origin received the Authorization header")
		}
	})
}
