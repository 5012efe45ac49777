package backend_test

import (
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

func TestServerValidate(t *testing.T) {
	stdio := func(mod func(*backend.Server)) backend.Server {
		s := backend.Server{Name: "My server", Transport: backend.TransportStdio, Command: "npx", Args: []string{"-y", "x"}}
		if mod != nil {
			mod(&s)
		}
		return s
	}
	httpSrv := func(mod func(*backend.Server)) backend.Server {
		s := backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "https://example.com/mcp"}
		if mod != nil {
			mod(&s)
		}
		return s
	}
	tests := []struct {
		name   string
		server backend.Server
		fields []string // offending fields; nil when valid
	}{
		{"stdio ok", stdio(nil), nil},
		{"stdio with env", stdio(func(s *backend.Server) { s.Env = map[string]string{"API_KEY": "x", "_X1": ""} }), nil},
		{"http ok", httpSrv(nil), nil},
		{"http plain with port", httpSrv(func(s *backend.Server) { s.URL = "http://127.0.0.1:3001/mcp" }), nil},
		{"http with headers", httpSrv(func(s *backend.Server) { s.Headers = map[string]string{"Authorization": "Bearer t", "X-Api-Key": "k"} }), nil},
		{"name with dots dashes underscores", stdio(func(s *backend.Server) { s.Name = "a.b-c_d 1" }), nil},
		{"unicode name", stdio(func(s *backend.Server) { s.Name = "Ünïcode сервер" }), nil},
		{"name 64 chars", stdio(func(s *backend.Server) { s.Name = strings.Repeat("n", 64) }), nil},

		{"empty name", stdio(func(s *backend.Server) { s.Name = "" }), []string{"name"}},
		{"name 65 chars", stdio(func(s *backend.Server) { s.Name = strings.Repeat("n", 65) }), []string{"name"}},
		{"name starts with space", stdio(func(s *backend.Server) { s.Name = " x" }), []string{"name"}},
		{"name with slash", stdio(func(s *backend.Server) { s.Name = "a/b" }), []string{"name"}},
		{"name with markup", stdio(func(s *backend.Server) { s.Name = "<script>" }), []string{"name"}},
		{"stdio without command", stdio(func(s *backend.Server) { s.Command = "  " }), []string{"command"}},
		{"env key with dash", stdio(func(s *backend.Server) { s.Env = map[string]string{"BAD-KEY": "1"} }), []string{"env"}},
		{"env key starting with digit", stdio(func(s *backend.Server) { s.Env = map[string]string{"1X": "1"} }), []string{"env"}},
		{"no transport", stdio(func(s *backend.Server) { s.Transport = "" }), []string{"transport"}},
		{"sse transport needs a url", stdio(func(s *backend.Server) { s.Transport = backend.TransportSSE }), []string{"url"}},
		{"unknown transport", stdio(func(s *backend.Server) { s.Transport = "websocket" }), []string{"transport"}},
		{"unknown era", stdio(func(s *backend.Server) { s.Era = "future" }), []string{"era"}},
		{"auto era", stdio(func(s *backend.Server) { s.Era = backend.EraAuto }), nil},
		{"http without url", httpSrv(func(s *backend.Server) { s.URL = "" }), []string{"url"}},
		{"relative url", httpSrv(func(s *backend.Server) { s.URL = "/mcp" }), []string{"url"}},
		{"ftp url", httpSrv(func(s *backend.Server) { s.URL = "ftp://example.com/mcp" }), []string{"url"}},
		{"url without host", httpSrv(func(s *backend.Server) { s.URL = "http:///mcp" }), []string{"url"}},
		{"unparsable url", httpSrv(func(s *backend.Server) { s.URL = "http://[::1" }), []string{"url"}},
		{"header name with space", httpSrv(func(s *backend.Server) { s.Headers = map[string]string{"Bad Header": "x"} }), []string{"headers"}},
		{"header name with colon", httpSrv(func(s *backend.Server) { s.Headers = map[string]string{"X:Y": "x"} }), []string{"headers"}},
		{"everything wrong at once", httpSrv(func(s *backend.Server) {
			s.Name, s.URL, s.Headers = "", "nope", map[string]string{"a b": ""}
		}), []string{"headers", "name", "url"}},
		{"stdio name and command", stdio(func(s *backend.Server) { s.Name, s.Command = "", "" }), []string{"command", "name"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.server.Validate()
			if tt.fields == nil {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var e *backend.Error
			if !errors.As(err, &e) || e.Code != backend.EInvalid {
				t.Fatalf("Validate() = %v, want an EInvalid *Error", err)
			}
			var got []string
			for k, msg := range e.Fields {
				got = append(got, k)
				if msg == "" {
					t.Errorf("field %q has an empty message", k)
				}
			}
			sort.Strings(got)
			if !reflect.DeepEqual(got, tt.fields) {
				t.Errorf("fields = %v, want %v (%v)", got, tt.fields, e.Fields)
			}
			if e.Message == "" {
				t.Error("no message")
			}
		})
	}
}

func TestErrorHelpers(t *testing.T) {
	wrapped := errors.Join(errors.New("context"), backend.Errorf(backend.ENotFound, "Server %d does not exist.", 7))
	tests := []struct {
		name    string
		err     error
		code    backend.ErrorCode
		message string
	}{
		{"plain", errors.New("disk on fire"), backend.EInternal, "internal error"},
		{"app error", backend.Errorf(backend.EConflict, "taken"), backend.EConflict, "taken"},
		{"wrapped", wrapped, backend.ENotFound, "Server 7 does not exist."},
	}
	if got := backend.ErrorCodeOf(nil); got != "" {
		t.Errorf("ErrorCodeOf(nil) = %q, want none", got)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backend.ErrorCodeOf(tt.err); got != tt.code {
				t.Errorf("ErrorCodeOf = %q, want %q", got, tt.code)
			}
			if got := backend.ErrorMessageOf(tt.err); got != tt.message {
				t.Errorf("ErrorMessageOf = %q, want %q", got, tt.message)
			}
		})
	}
}
