package mcpclient

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestRedirectToAnotherOriginDropsCredentials: the configured headers
// (X-Api-Key here) and Authorization and Cookie go to the server's origin
// only. When the server redirects to another origin (scheme, host and port:
// another port of 127.0.0.1 counts as another origin), they are not sent
// there; a redirect within the origin keeps them.
func TestRedirectToAnotherOriginDropsCredentials(t *testing.T) {
	var mu sync.Mutex
	var got []http.Header // headers of the requests that reached /mcp
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
			return
		}
		mu.Lock()
		got = append(got, r.Header.Clone())
		mu.Unlock()
		http.Error(w, "recorded", http.StatusUnauthorized)
	})
	target := newLoopbackServer(t, handler)
	origin := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away" {
			http.Redirect(w, r, target.URL+"/mcp", http.StatusTemporaryRedirect)
			return
		}
		handler(w, r)
	}))
	header := http.Header{"X-Api-Key": {"k3y"}, "Authorization": {"Bearer t0ken"}, "Cookie": {"c=1"}, "Accept-Language": {"en"}}

	tests := []struct {
		name     string
		sse      bool
		url      string
		wantKept bool // whether the credentials reach /mcp
	}{
		{"streamable HTTP, another port", false, origin.URL + "/away", false},
		{"streamable HTTP, same origin", false, origin.URL + "/old", true},
		{"HTTP+SSE, another port", true, origin.URL + "/away", false},
		{"HTTP+SSE, same origin", true, origin.URL + "/old", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			got = nil
			mu.Unlock()
			rec := &recorder{}
			cfg := HTTPConfig{URL: tt.url, Header: header}
			connect := ConnectHTTP
			if tt.sse {
				connect = ConnectSSE
			}
			c, err := connect(testContext(t), cfg, Options{Tap: rec.tap})
			if err == nil {
				c.Close()
				t.Fatal("connected to a server that answers 401")
			}
			mu.Lock()
			defer mu.Unlock()
			if len(got) == 0 {
				t.Fatalf("the redirect was not followed: %v", err)
			}
			for _, h := range got {
				if h.Get("Accept-Language") == "" && tt.wantKept {
					t.Errorf("a redirect within the origin lost a configured header: %v", h)
				}
				for _, name := range []string{"X-Api-Key", "Authorization", "Cookie"} {
					if kept := h.Get(name) != ""; kept != tt.wantKept {
						t.Errorf("%s sent after the redirect: %v, want %v", name, kept, tt.wantKept)
					}
				}
			}
			if !tt.wantKept && len(rec.find(Inbound, KindTransport, "another origin")) == 0 {
				t.Errorf("no note records that the credentials were dropped")
			}
			if notes := rec.find(Inbound, KindTransport, "k3y"); len(notes) > 0 {
				t.Errorf("a note shows the header value: %q", notes[0].Body)
			}
		})
	}
}

// TestSSEEndpointOnAnotherOriginIsRefused: an HTTP+SSE server's endpoint
// event decides where every message, with the configured headers, is
// POSTed; one that names another origin is refused, as a redirect there
// would be stripped of the credentials.
func TestSSEEndpointOnAnotherOriginIsRefused(t *testing.T) {
	var mu sync.Mutex
	var got []http.Header
	other := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Clone())
		mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	}))
	stream := newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: endpoint\ndata: %s/post?session=1\n\n", other.URL)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	rec := &recorder{}
	c, err := ConnectSSE(testContext(t), HTTPConfig{URL: stream.URL + "/sse", Header: http.Header{"X-Api-Key": {"k3y"}}}, Options{Tap: rec.tap})
	if err == nil {
		c.Close()
		t.Fatal("connected with an endpoint on another origin")
	}
	if !strings.Contains(err.Error(), "another origin") {
		t.Errorf("err = %v, want it to say the endpoint is on another origin", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) > 0 {
		t.Errorf("%d requests went to the other origin, the first with headers %v", len(got), got[0])
	}
}
