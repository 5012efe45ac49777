package backend_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

func TestIsSecretName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"Authorization", true},
		{"Proxy-Authorization", true},
		{"X-Api-Key", true},
		{"Cookie", true},
		{"X-Auth-Token", true},
		{"api_key", true},
		{"access_token", true},
		{"password", true},
		{"passwd", true},
		{"client_secret", true},
		{"sessionId", true},
		{"X-Amz-Signature", true},
		{"X-Amz-Credential", true},
		{"code", true},
		{"GITHUB_PERSONAL_ACCESS_TOKEN", true},
		{"X-\u212Aey", true}, // the Kelvin sign lowers to k
		{"X-" + strings.Repeat("A", 80) + "-TOKEN", true},
		{"Mcp-Session-Id", false},
		{"WWW-Authenticate", false},
		{"Accept", false},
		{"Content-Type", false},
		{"DEBUG", false},
		{"page", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backend.IsSecretName(tt.name); got != tt.want {
				t.Errorf("IsSecretName(%q) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}

func TestRedactURL(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"no secrets", "http://127.0.0.1:3001/mcp?page=2", "http://127.0.0.1:3001/mcp?page=2"},
		{"user and password", "http://alice:pw@host/mcp", "http://REDACTED:REDACTED@host/mcp"},
		{"user only", "https://ghp_token123@host/mcp", "https://REDACTED@host/mcp"},
		{"empty password", "http://alice:@host", "http://REDACTED:REDACTED@host"},
		{"at sign in the path", "http://host/users/@me?x=1", "http://host/users/@me?x=1"},
		{"secret parameters", "http://host/mcp?api_key=k1&page=2&token=t1", "http://host/mcp?api_key=REDACTED&page=2&token=REDACTED"},
		{"escaped parameter name", "http://host/?api%5Fkey=k1", "http://host/?api%5Fkey=REDACTED"},
		{"repeated parameter", "http://host/?key=a&key=b", "http://host/?key=REDACTED&key=REDACTED"},
		{"empty value kept", "http://host/?token=&a", "http://host/?token=&a"},
		{"fragment parameters", "http://host/cb#access_token=t&state=s", "http://host/cb#access_token=REDACTED&state=s"},
		{"everything", "http://u:p@h:1/p?sig=x#code=y", "http://REDACTED:REDACTED@h:1/p?sig=x#code=REDACTED"},
		{"already redacted", "http://REDACTED:REDACTED@h/?key=REDACTED", "http://REDACTED:REDACTED@h/?key=REDACTED"},
		{"not a URL", "just text", "just text"},
		{"unparsable URL", "http://u:p@h:x:y/%zz?key=v", "http://REDACTED:REDACTED@h:x:y/%zz?key=REDACTED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backend.RedactURL(tt.in); got != tt.want {
				t.Errorf("RedactURL(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactURLsIn(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"dial error", `connect http://u:pw@127.0.0.1:1/mcp?api_key=k: connection refused`,
			`connect http://REDACTED:REDACTED@127.0.0.1:1/mcp?api_key=REDACTED: connection refused`},
		{"quoted by net/http", `Post "http://u:***@h/mcp?token=t": EOF`, `Post "http://REDACTED:REDACTED@h/mcp?token=REDACTED": EOF`},
		{"two URLs", "a http://x@h b https://h/?key=v c", "a http://REDACTED@h b https://h/?key=REDACTED c"},
		{"no URL", "server went away: exit status 1", "server went away: exit status 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backend.RedactURLsIn(tt.in); got != tt.want {
				t.Errorf("RedactURLsIn(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRestoreURLSecrets(t *testing.T) {
	const stored = "http://alice:pw@host:8080/mcp?api_key=k1&page=2&key=a&key=b#token=t"
	tests := []struct {
		name, edited, want string
	}{
		{"unchanged form", backend.RedactURL(stored), stored},
		{"path changed", "http://REDACTED:REDACTED@host:8080/v2/mcp?api_key=REDACTED&page=3",
			"http://alice:pw@host:8080/v2/mcp?api_key=k1&page=3"},
		{"new password typed", "http://REDACTED:new@host:8080/mcp", "http://alice:new@host:8080/mcp"},
		{"repeated parameters by position", "http://host:8080/mcp?key=REDACTED&key=REDACTED", "http://host:8080/mcp?key=a&key=b"},
		{"fragment", "http://host:8080/mcp#token=REDACTED", "http://host:8080/mcp#token=t"},
		{"no stored counterpart", "http://host:8080/mcp?other_key=REDACTED", "http://host:8080/mcp?other_key=REDACTED"},
		{"another host keeps the placeholders", "http://REDACTED:REDACTED@evil:8080/mcp?api_key=REDACTED",
			"http://REDACTED:REDACTED@evil:8080/mcp?api_key=REDACTED"},
		{"another port keeps the placeholders", "http://REDACTED:REDACTED@host:9090/mcp", "http://REDACTED:REDACTED@host:9090/mcp"},
		{"another scheme keeps the placeholders", "https://REDACTED:REDACTED@host:8080/mcp", "https://REDACTED:REDACTED@host:8080/mcp"},
		{"no placeholder", "http://bob:x@host:8080/", "http://bob:x@host:8080/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backend.RestoreURLSecrets(tt.edited, stored); got != tt.want {
				t.Errorf("RestoreURLSecrets(%q) = %q, want %q", tt.edited, got, tt.want)
			}
		})
	}
}

func TestServerRedacted(t *testing.T) {
	s := backend.Server{Name: "s", Transport: backend.TransportHTTP, URL: "http://u:p@h/mcp?token=t",
		Env:     map[string]string{"API_TOKEN": "t1", "DATABASE_URL": "postgres://u:pw@db/x", "MODE": "dev", "EMPTY_KEY": ""},
		Headers: map[string]string{"X-Api-Key": "k", "Accept": "application/json"}}
	got := s.Redacted()
	want := map[string]string{"API_TOKEN": backend.RedactedValue, "DATABASE_URL": backend.RedactedValue, "MODE": "dev", "EMPTY_KEY": ""}
	for k, v := range want {
		if got.Env[k] != v {
			t.Errorf("Env[%s] = %q, want %q", k, got.Env[k], v)
		}
	}
	if got.Headers["X-Api-Key"] != backend.RedactedValue || got.Headers["Accept"] != "application/json" {
		t.Errorf("Headers = %v", got.Headers)
	}
	if got.URL != "http://REDACTED:REDACTED@h/mcp?token=REDACTED" {
		t.Errorf("URL = %q", got.URL)
	}
	if s.Env["API_TOKEN"] != "t1" || s.Headers["X-Api-Key"] != "k" {
		t.Error("Redacted changed the server it was called on")
	}
}

func TestRegistryUpdateKeepsRedactedSecrets(t *testing.T) {
	const stored = "http://u:pw@127.0.0.1:1/mcp?api_key=k"
	ca1, ca2 := testCertPEM(t, "first CA", time.Now().Add(time.Hour)), testCertPEM(t, "second CA", time.Now().Add(time.Hour))
	tests := []struct {
		name    string
		edit    func(s *backend.Server)
		wantURL string
		wantHdr map[string]string
		fields  []string // field errors expected; nil: saved
	}{
		{name: "unchanged", edit: func(*backend.Server) {}, wantURL: stored, wantHdr: map[string]string{"X-Api-Key": "hk", "Accept": "a"}},
		{name: "path changed", edit: func(s *backend.Server) { s.URL = "http://REDACTED:REDACTED@127.0.0.1:1/v2?api_key=REDACTED" },
			wantURL: "http://u:pw@127.0.0.1:1/v2?api_key=k", wantHdr: map[string]string{"X-Api-Key": "hk", "Accept": "a"}},
		{name: "header renamed", edit: func(s *backend.Server) { s.Headers = map[string]string{"X-Other-Key": backend.RedactedValue} },
			fields: []string{"headers"}},
		{name: "other port", edit: func(s *backend.Server) { s.URL = "http://REDACTED:REDACTED@127.0.0.1:2/mcp?api_key=REDACTED" },
			fields: []string{"url", "headers"}},
		{name: "proxy added", edit: func(s *backend.Server) { s.Proxy = "http://127.0.0.1:3128" }, fields: []string{"url", "headers"}},
		{name: "proxy moved", edit: func(s *backend.Server) { s.Proxy = "http://REDACTED:REDACTED@127.0.0.1:3130" },
			fields: []string{"url", "proxy", "headers"}},
		{name: "proxy dropped", edit: func(s *backend.Server) { s.Proxy = "" }, fields: []string{"url", "headers"}},
		{name: "CA added", edit: func(s *backend.Server) { s.CACertPEM = ca2 }, fields: []string{"url", "headers"}},
		{name: "CA dropped", edit: func(s *backend.Server) { s.CACertPEM = "" }, wantURL: stored, wantHdr: map[string]string{"X-Api-Key": "hk", "Accept": "a"}},
		{name: "verification turned off", edit: func(s *backend.Server) { s.InsecureSkipVerify = true }, fields: []string{"url", "headers"}},
		{name: "other port with new secrets", edit: func(s *backend.Server) {
			s.URL = "http://v:pw2@127.0.0.1:2/mcp"
			s.Headers = map[string]string{"X-Api-Key": "hk2"}
		}, wantURL: "http://v:pw2@127.0.0.1:2/mcp", wantHdr: map[string]string{"X-Api-Key": "hk2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := MustEnv(t)
			ctx := backendtest.Context(t)
			id := e.MustServer(t, backend.Server{Name: "s", Transport: backend.TransportHTTP, URL: stored,
				Headers: map[string]string{"X-Api-Key": "hk", "Accept": "a"}, CACertPEM: ca1, Proxy: "http://pu:ppw@127.0.0.1:3129"})
			s, err := e.Reg.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			s = s.Redacted()
			tt.edit(&s)
			_, err = e.Reg.Update(ctx, s)
			if tt.fields != nil {
				var appErr *backend.Error
				if !errors.As(err, &appErr) || appErr.Code != backend.EInvalid {
					t.Fatalf("Update = %v, want EInvalid", err)
				}
				for _, f := range tt.fields {
					if appErr.Fields[f] == "" {
						t.Errorf("no error for field %q: %v", f, appErr.Fields)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Update: %v", err)
			}
			got, err := e.Reg.Get(ctx, id)
			if err != nil || got.URL != tt.wantURL || !reflect.DeepEqual(got.Headers, tt.wantHdr) {
				t.Errorf("saved %q %v, %v; want %q %v", got.URL, got.Headers, err, tt.wantURL, tt.wantHdr)
			}
		})
	}
}

// TestServerSecretsStayOutOfTheDatabase: whatever a session records — its
// frames (with their HTTP info), the notes about it, its close reason — no
// secret of its server (URL userinfo and secret parameters, secret header
// and env values) is in the raw bytes of the database, its WAL or its
// shared-memory file, nor in the error, close reason and frame bodies that
// people are shown.
func TestServerSecretsStayOutOfTheDatabase(t *testing.T) {
	secrets := []string{"url-us3r-name", "url-passw0rd", "query-k3y-value", "header-k3y-value", "env-t0ken-value"}
	withSecrets := func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.UserPassword("url-us3r-name", "url-passw0rd")
		u.RawQuery = "api_key=query-k3y-value&page=1"
		return u.String()
	}
	headers := map[string]string{"X-Api-Key": "header-k3y-value"}
	// dies answers initialize, then exits on the first request, printing
	// its token to stderr.
	const dies = `read line; echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"x","version":"1"}}}'; ` +
		`read line; read line; echo "dying with token $API_TOKEN" >&2; exit 3`
	tests := []struct {
		name    string
		server  backend.Server
		connect bool // whether the connection succeeds
	}{
		{"HTTP session", backend.Server{Transport: backend.TransportHTTP, URL: withSecrets(MustSDKHTTPServer(t)), Headers: headers}, true},
		{"HTTP connection refused", backend.Server{Transport: backend.TransportHTTP, URL: withSecrets(refusedURL(t)), Headers: headers}, false},
		{"HTTP+SSE connection refused", backend.Server{Transport: backend.TransportSSE, URL: withSecrets(refusedURL(t)), Headers: headers}, false},
		{"stdio server prints its env", backend.Server{Transport: backend.TransportStdio, Command: "sh",
			Args: []string{"-c", `echo "starting with token $API_TOKEN" >&2; read line; exit 3`},
			Env:  map[string]string{"API_TOKEN": "env-t0ken-value"}}, false},
		{"stdio server dies on a call", backend.Server{Transport: backend.TransportStdio, Command: "sh", Args: []string{"-c", dies},
			Env: map[string]string{"API_TOKEN": "env-t0ken-value"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := backendtest.Context(t)
			path := filepath.Join(t.TempDir(), "playground.db")
			db, err := store.Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			hub := backend.NewHub(0)
			rec := backendtest.MustRecorder(t, db, hub)
			pool := backend.NewPool(db, db, rec, hub, backend.NewInbox(hub, time.Minute), backendtest.Logger(t), mcpclient.Implementation{Name: "t", Version: "0"})
			defer pool.Close()
			srv := tt.server
			srv.Name = "s"
			srvID, err := backend.NewRegistry(db, db, pool).Create(ctx, srv)
			if err != nil {
				t.Fatal(err)
			}

			var shown []string // texts people are shown
			sess, err := pool.Connect(ctx, srvID)
			if tt.connect {
				if err != nil {
					t.Fatalf("Connect: %v", err)
				}
				if _, err := pool.Call(ctx, sess.ID, "ping", nil); err != nil {
					shown = append(shown, backend.ErrorMessageOf(err))
				}
				if err := pool.Disconnect(ctx, sess.ID); err != nil && backend.ErrorCodeOf(err) != backend.EConflict {
					t.Fatal(err)
				}
			} else {
				if err == nil {
					t.Fatal("connected")
				}
				shown = append(shown, backend.ErrorMessageOf(err))
			}
			if err := rec.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			stored, err := db.GetSession(ctx, sess.ID)
			if err != nil {
				t.Fatal(err)
			}
			shown = append(shown, stored.CloseReason)
			frames, err := db.ListFrames(ctx, backend.FrameQuery{SessionID: sess.ID})
			if err != nil || len(frames) == 0 {
				t.Fatalf("ListFrames = %d frames, %v", len(frames), err)
			}
			for _, f := range frames {
				shown = append(shown, string(f.Body))
			}
			for _, text := range shown {
				for _, s := range secrets {
					if strings.Contains(text, s) {
						t.Errorf("%q shows the secret %q", text, s)
					}
				}
			}
			for _, f := range []string{path, path + "-wal", path + "-shm"} {
				b, err := os.ReadFile(f)
				if err != nil && !os.IsNotExist(err) {
					t.Fatal(err)
				}
				for _, s := range secrets {
					if bytes.Contains(b, []byte(s)) {
						t.Errorf("%s holds the secret %q in plaintext", filepath.Base(f), s)
					}
				}
			}
		})
	}
}

func TestRedactorText(t *testing.T) {
	r := backend.NewRedactor(backend.Server{URL: "http://bob-user:pw%2Fsecret@h/?api_key=k%2By-value&page=longpage",
		Env: map[string]string{"API_TOKEN": "env-token-1", "SHORT_KEY": "abc", "HOME_DIR": "/home/someone"}, Headers: map[string]string{"X-Api-Key": "hdr-value-1"}})
	tests := []struct {
		name, in, want string
	}{
		{"env value", "token env-token-1 loaded", "token [redacted] loaded"},
		{"header value", "sent hdr-value-1", "sent [redacted]"},
		{"URL user and decoded password", "user bob-user pw pw/secret", "user [redacted] pw [redacted]"},
		{"parameter value, escaped and not", "k%2By-value k+y-value", "[redacted] [redacted]"},
		{"short and public values kept", "abc /home/someone longpage", "abc /home/someone longpage"},
		{"any URL's credentials", "dial postgres://u:p@db/x failed", "dial postgres://REDACTED:REDACTED@db/x failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.Text(tt.in); got != tt.want {
				t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestRedactorTapMessages records JSON-RPC messages through the Tap: a
// secret value a server echoes back, as sent or escaped as JSON escapes it,
// is replaced and the message stays valid JSON; URLs in messages are left
// as they travelled; the frame the client itself handles is unchanged.
func TestRedactorTapMessages(t *testing.T) {
	r := backend.NewRedactor(backend.Server{Headers: map[string]string{"Authorization": "Bearer tok<en>-123"}})
	var got []byte
	tap := r.Tap(func(f mcpclient.Frame) { got = f.Body })
	body := []byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"you sent Bearer tok<en>-123, that is Bearer tok\u003cen\u003e-123, see http://u:p@h/x"}]}}`)
	sent := append([]byte(nil), body...)
	tap(mcpclient.Frame{Kind: mcpclient.KindMessage, Direction: mcpclient.Inbound, Body: body})
	want := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"you sent [redacted], that is [redacted], see http://u:p@h/x"}]}}`
	if string(got) != want {
		t.Errorf("recorded %s\nwant %s", got, want)
	}
	if !json.Valid(got) {
		t.Error("the recorded message is not valid JSON")
	}
	if !bytes.Equal(body, sent) {
		t.Error("the Tap changed the client's own frame")
	}
}
