package backend_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

func TestServerValidate(t *testing.T) {
	plain := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(plain, []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	onServerPath := filepath.Join(t.TempDir(), "only-on-server-path")
	if err := os.WriteFile(onServerPath, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	stdio := func(mod func(*backend.Server)) backend.Server {
		s := backend.Server{Name: "My server", Transport: backend.TransportStdio, Command: "sh", Args: []string{"-c", "exec cat"}}
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

		{"name with parentheses", stdio(func(s *backend.Server) { s.Name = "Everything (npx)" }), nil},
		{"name with slash", stdio(func(s *backend.Server) { s.Name = "a/b" }), nil},
		{"name with markup", stdio(func(s *backend.Server) { s.Name = "<script>" }), nil},
		{"name with symbols", stdio(func(s *backend.Server) { s.Name = "Team #1: GitHub @work, 100% + \"quotes\" 🚀" }), nil},
		{"name 64 runes", stdio(func(s *backend.Server) { s.Name = strings.Repeat("é", 64) }), nil},

		{"empty name", stdio(func(s *backend.Server) { s.Name = "" }), []string{"name"}},
		{"blank name", stdio(func(s *backend.Server) { s.Name = " \t " }), []string{"name"}},
		{"name 65 chars", stdio(func(s *backend.Server) { s.Name = strings.Repeat("n", 65) }), []string{"name"}},
		{"name with a newline", stdio(func(s *backend.Server) { s.Name = "a\nb" }), []string{"name"}},
		{"name with a tab", stdio(func(s *backend.Server) { s.Name = "a\tb" }), []string{"name"}},
		{"name with an escape", stdio(func(s *backend.Server) { s.Name = "a\x1b[31mb" }), []string{"name"}},
		{"name with a bidi override", stdio(func(s *backend.Server) { s.Name = "a\u202eb" }), []string{"name"}},
		{"name not UTF-8", stdio(func(s *backend.Server) { s.Name = "a\xffb" }), []string{"name"}},
		{"command not on PATH", stdio(func(s *backend.Server) { s.Command = "no-such-program-mcp" }), []string{"command"}},
		{"command on the server's PATH", stdio(func(s *backend.Server) {
			s.Command, s.Env = "only-on-server-path", map[string]string{"PATH": filepath.Dir(onServerPath)}
		}), nil},
		{"command on neither PATH", stdio(func(s *backend.Server) {
			s.Command, s.Env = "no-such-program-mcp", map[string]string{"PATH": filepath.Dir(onServerPath)}
		}), []string{"command"}},
		{"command path missing", stdio(func(s *backend.Server) { s.Command = "/nonexistent/mcp-server" }), []string{"command"}},
		{"command path a directory", stdio(func(s *backend.Server) { s.Command = "/" }), []string{"command"}},
		{"command path not executable", stdio(func(s *backend.Server) { s.Command = plain }), []string{"command"}},
		{"command line with args", stdio(func(s *backend.Server) { s.Command = "npx -y pkg" }), []string{"command"}},
		{"command line unterminated quote", stdio(func(s *backend.Server) { s.Command, s.Args = "sh -c 'exec cat", nil }), []string{"command"}},
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

		{"roots", httpSrv(func(s *backend.Server) {
			s.Roots = []backend.Root{{URI: "file:///home/me/project", Name: "Project (main)"}, {URI: "file:///tmp/a%20b"}}
		}), nil},
		{"root not a URI", stdio(func(s *backend.Server) { s.Roots = []backend.Root{{URI: "/home/me"}} }), []string{"roots"}},
		{"root not file", stdio(func(s *backend.Server) { s.Roots = []backend.Root{{URI: "https://example.com/repo"}} }), []string{"roots"}},
		{"root relative file", stdio(func(s *backend.Server) { s.Roots = []backend.Root{{URI: "file:project"}} }), []string{"roots"}},
		{"root without URI", stdio(func(s *backend.Server) { s.Roots = []backend.Root{{Name: "orphan"}} }), []string{"roots"}},
		{"root twice", stdio(func(s *backend.Server) { s.Roots = []backend.Root{{URI: "file:///a"}, {URI: "file:///a"}} }), []string{"roots"}},
		{"root name with a newline", stdio(func(s *backend.Server) { s.Roots = []backend.Root{{URI: "file:///a", Name: "x\ny"}} }), []string{"roots"}},
		{"too many roots", stdio(func(s *backend.Server) {
			for i := range backend.MaxRoots + 1 {
				s.Roots = append(s.Roots, backend.Root{URI: "file:///r" + strings.Repeat("x", i)})
			}
		}), []string{"roots"}},
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

func TestServerNormalized(t *testing.T) {
	spaced := filepath.Join(t.TempDir(), "my server")
	if err := os.WriteFile(spaced, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		in   backend.Server
		want backend.Server
	}{
		{"name trimmed",
			backend.Server{Name: "  Everything (npx) \t", Transport: backend.TransportStdio, Command: "npx"},
			backend.Server{Name: "Everything (npx)", Transport: backend.TransportStdio, Command: "npx"}},
		{"command line split",
			backend.Server{Name: "e", Transport: backend.TransportStdio, Command: " npx -y pkg "},
			backend.Server{Name: "e", Transport: backend.TransportStdio, Command: "npx", Args: []string{"-y", "pkg"}}},
		{"quoted words kept whole",
			backend.Server{Name: "e", Transport: backend.TransportStdio, Command: `sh -c 'exec cat' "a b"`},
			backend.Server{Name: "e", Transport: backend.TransportStdio, Command: "sh", Args: []string{"-c", "exec cat", "a b"}}},
		{"command with args not split",
			backend.Server{Name: "e", Transport: backend.TransportStdio, Command: "npx -y", Args: []string{"pkg"}},
			backend.Server{Name: "e", Transport: backend.TransportStdio, Command: "npx -y", Args: []string{"pkg"}}},
		{"unsplittable command left for Validate",
			backend.Server{Name: "e", Transport: backend.TransportStdio, Command: "sh -c 'x"},
			backend.Server{Name: "e", Transport: backend.TransportStdio, Command: "sh -c 'x"}},
		{"existing program with a space in its path not split",
			backend.Server{Name: "e", Transport: backend.TransportStdio, Command: spaced},
			backend.Server{Name: "e", Transport: backend.TransportStdio, Command: spaced}},
		{"stdio drops http settings",
			backend.Server{Name: "e", Transport: backend.TransportStdio, Command: "npx", URL: "http://x/mcp", Headers: map[string]string{"A": "b"}},
			backend.Server{Name: "e", Transport: backend.TransportStdio, Command: "npx"}},
		{"http drops stdio settings",
			backend.Server{Name: "e", Transport: backend.TransportHTTP, URL: "http://x/mcp", Command: "npx -y pkg", Args: []string{"a"}, Env: map[string]string{"A": "b"}, Dir: "/tmp"},
			backend.Server{Name: "e", Transport: backend.TransportHTTP, URL: "http://x/mcp"}},
		{"sse drops stdio settings",
			backend.Server{Name: "e", Transport: backend.TransportSSE, URL: "http://x/sse", Command: "npx", Dir: "/tmp"},
			backend.Server{Name: "e", Transport: backend.TransportSSE, URL: "http://x/sse"}},
		{"roots trimmed, empty rows dropped, kept for every transport",
			backend.Server{Name: "e", Transport: backend.TransportHTTP, URL: "http://x/mcp", Roots: []backend.Root{{URI: " file:///a ", Name: " A "}, {}, {URI: " ", Name: " "}}},
			backend.Server{Name: "e", Transport: backend.TransportHTTP, URL: "http://x/mcp", Roots: []backend.Root{{URI: "file:///a", Name: "A"}}}},
		{"unknown transport keeps everything for Validate",
			backend.Server{Name: "e", Transport: "ws", URL: "http://x", Command: "npx"},
			backend.Server{Name: "e", Transport: "ws", URL: "http://x", Command: "npx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.in.Normalized(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Normalized() =\n%+v, want\n%+v", got, tt.want)
			}
		})
	}
}

func TestServerValidateMessages(t *testing.T) {
	tests := []struct {
		name    string
		server  backend.Server
		field   string
		message string
	}{
		{"empty name", backend.Server{Transport: backend.TransportStdio, Command: "sh"}, "name", "Name is required."},
		{"long name", backend.Server{Name: strings.Repeat("n", 70), Transport: backend.TransportStdio, Command: "sh"}, "name", "at most 64 characters"},
		{"control character", backend.Server{Name: "a\nb", Transport: backend.TransportStdio, Command: "sh"}, "name", "control characters"},
		{"not on PATH", backend.Server{Name: "x", Transport: backend.TransportStdio, Command: "no-such-program-mcp"}, "command", `no program named "no-such-program-mcp" on this machine's PATH`},
		{"not on either PATH", backend.Server{Name: "x", Transport: backend.TransportStdio, Command: "no-such-program-mcp", Env: map[string]string{"PATH": "/nonexistent"}},
			"command", `no program named "no-such-program-mcp" on the PATH set in Environment nor on this machine's PATH`},
		{"spaces and args", backend.Server{Name: "x", Transport: backend.TransportStdio, Command: "npx -y", Args: []string{"pkg"}}, "command", "Arguments"},
		{"unterminated quote", backend.Server{Name: "x", Transport: backend.TransportStdio, Command: "sh -c 'x"}, "command", "unterminated single quote"},
		{"https root", backend.Server{Name: "x", Transport: backend.TransportStdio, Command: "sh", Roots: []backend.Root{{URI: "file:///a"}, {URI: "https://h/r"}}}, "roots", `Root 2, "https://h/r", is not a file:// URI`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var e *backend.Error
			if err := tt.server.Validate(); !errors.As(err, &e) {
				t.Fatalf("Validate() = %v, want an *Error", err)
			}
			if msg := e.Fields[tt.field]; !strings.Contains(msg, tt.message) {
				t.Errorf("Fields[%q] = %q, want it to contain %q", tt.field, msg, tt.message)
			}
		})
	}
}
