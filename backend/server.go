package backend

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcp-playground/playground/mcpclient"
)

// Transport names how the playground reaches a server.
type Transport string

const (
	// TransportStdio starts the server as a child process speaking over stdin/stdout.
	TransportStdio Transport = "stdio"
	// TransportHTTP reaches the server at a Streamable HTTP URL.
	TransportHTTP Transport = "http"
	// TransportSSE reaches the server with the deprecated HTTP+SSE transport
	// of protocol version 2024-11-05: a GET event stream and POSTs.
	TransportSSE Transport = "sse"
)

// Era is the protocol generation the playground speaks to a server.
type Era string

const (
	// EraLegacy is the initialize handshake of versions up to 2025-11-25.
	EraLegacy Era = "legacy"
	// EraModern is version 2026-07-28: no handshake, metadata on every request.
	EraModern Era = "modern"
	// EraAuto probes the server as the specification describes.
	EraAuto Era = "auto"
)

// Server is a registered MCP server.
type Server struct {
	ID        int64
	Name      string
	Transport Transport
	// Era "" is stored as EraLegacy; a server never stored (a command
	// line's target) connects in mcpclient's default era, legacy too.
	Era Era
	// Stdio settings.
	Command string
	Args    []string
	Env     map[string]string
	Dir     string
	// Streamable HTTP settings.
	URL     string
	Headers map[string]string
	// CACertPEM holds certificates (PEM) trusted besides the system's, for
	// an http or sse server whose certificate a private authority signed.
	CACertPEM string
	// InsecureSkipVerify accepts any certificate an http or sse server
	// presents; every page of the server warns while it is on.
	InsecureSkipVerify bool
	// Proxy is the URL of the proxy an http or sse server is reached
	// through (it may carry user:password, a secret); "" means the
	// environment's HTTP_PROXY, HTTPS_PROXY and NO_PROXY.
	Proxy string
	// Roots answer the server's roots/list, whatever the transport.
	Roots []Root

	CreatedAt time.Time
	UpdatedAt time.Time
}

// ServerStore persists registered servers.
type ServerStore interface {
	// ListServers returns every server ordered by name.
	ListServers(ctx context.Context) ([]Server, error)
	// GetServer returns the server or an ENotFound *Error.
	GetServer(ctx context.Context, id int64) (Server, error)
	// CreateServer inserts s and returns its new id; a duplicate name is an EConflict *Error.
	CreateServer(ctx context.Context, s Server) (int64, error)
	// UpdateServer replaces the server with s.ID; ENotFound or EConflict as above.
	UpdateServer(ctx context.Context, s Server) error
	// MoveServer is UpdateServer for a change of destination: in the same
	// transaction it deletes the server's OAuth grants and clears the
	// client secret and private key of its OAuth settings, keeping their
	// client ID, and says what it removed.
	MoveServer(ctx context.Context, s Server) (DroppedOAuth, error)
	// DeleteServer removes the server; its past sessions are kept. ENotFound when absent.
	DeleteServer(ctx context.Context, id int64) error
}

// MaxServerNameLen is the most characters (runes) a server name may have.
const MaxServerNameLen = 64

var (
	envKeyPattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	})
	headerKeyPattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
	})
)

// Normalized returns s as the registry saves it: the name trimmed; the
// settings of the transports not chosen cleared (Command, Args, Env and Dir
// belong to stdio; URL, Headers, CACertPEM, InsecureSkipVerify and Proxy
// to http and sse, which have CACertPEM and Proxy trimmed); and, for
// stdio, a command line typed whole into Command while Args is empty split
// into the program and its arguments (SplitCommand), unless Command names
// an existing file as it stands. A command line that cannot be split is
// left as it is, for Validate to report. An unknown transport keeps every
// field. Roots are trimmed and wholly empty ones dropped.
func (s Server) Normalized() Server {
	s.Name = strings.TrimSpace(s.Name)
	s.Roots = normalizedRoots(s.Roots)
	switch s.Transport {
	case TransportStdio:
		s.URL, s.Headers = "", nil
		s.CACertPEM, s.InsecureSkipVerify, s.Proxy = "", false, ""
		s.Command = strings.TrimSpace(s.Command)
		if len(s.Args) == 0 && hasBlank(s.Command) && !isFile(s.Command, s.Dir) {
			if words, err := SplitCommand(s.Command); err == nil {
				s.Command, s.Args = words[0], words[1:]
			}
		}
	case TransportHTTP, TransportSSE:
		s.Command, s.Args, s.Env, s.Dir = "", nil, nil, ""
		s.CACertPEM, s.Proxy = strings.TrimSpace(s.CACertPEM), strings.TrimSpace(s.Proxy)
	}
	return s
}

// Validate checks s, as Normalized returns it, and returns an EInvalid
// *Error whose Fields name every offending form field (name, transport,
// era, command, env, url, headers, ca_cert, proxy, roots), or nil. The
// name must be 1 to MaxServerNameLen characters of printable text once
// trimmed. The CA certificates of an http or sse server must be PEM
// certificates (ParseCACerts), its proxy an http, https or socks5 URL
// (mcpclient.ParseProxyURL). A stdio
// command must name a program this host can start: a bare name is looked
// up on the PATH set in Env, then on the PATH of this process, as the
// server is started (mcpclient.LookCommand); a path (relative to Dir when relative) must be an
// executable file. Validate reads the file system for that, and nothing else.
func (s Server) Validate() error {
	fields := map[string]string{}
	if msg := nameProblem(strings.TrimSpace(s.Name)); msg != "" {
		fields["name"] = msg
	}
	switch s.Transport {
	case TransportStdio:
		if msg := commandProblem(s); msg != "" {
			fields["command"] = msg
		}
		for k := range s.Env {
			if !envKeyPattern().MatchString(k) {
				fields["env"] = "Environment variable names must be letters, digits and underscores, not starting with a digit: " + k
				break
			}
		}
	case TransportHTTP, TransportSSE:
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			fields["url"] = "URL must be an absolute http:// or https:// address."
		}
		for k := range s.Headers {
			if !headerKeyPattern().MatchString(k) {
				fields["headers"] = "Invalid header name: " + k
				break
			}
		}
		if s.CACertPEM != "" {
			if _, err := ParseCACerts(s.CACertPEM); err != nil {
				fields["ca_cert"] = err.Error()
			}
		}
		if s.Proxy != "" {
			if _, err := mcpclient.ParseProxyURL(s.Proxy); err != nil {
				fields["proxy"] = "The proxy must be an absolute http://, https:// or socks5:// address with a host, such as http://proxy.example:3128."
			}
		}
	default:
		fields["transport"] = "Choose stdio, http or sse."
	}
	if msg := rootsProblem(s.Roots); msg != "" {
		fields["roots"] = msg
	}
	switch s.Era {
	case "", EraLegacy, EraModern, EraAuto:
	default:
		fields["era"] = "Choose legacy, modern or auto."
	}
	if len(fields) == 0 {
		return nil
	}
	return &Error{Code: EInvalid, Message: "The server settings are not valid.", Fields: fields}
}

// nameProblem says what is wrong with a trimmed server name, or "".
func nameProblem(name string) string {
	switch n := utf8.RuneCountInString(name); {
	case name == "":
		return "Name is required."
	case !utf8.ValidString(name):
		return "Name must be text (UTF-8)."
	case n > MaxServerNameLen:
		return fmt.Sprintf("Name is at most %d characters; this one has %d.", MaxServerNameLen, n)
	}
	if !Printable(name) {
		return "Name must be printable text: no line breaks, tabs or other control characters."
	}
	return ""
}

// commandProblem says what is wrong with the command of a stdio server, or "".
func commandProblem(s Server) string {
	cmd := strings.TrimSpace(s.Command)
	if cmd == "" {
		return "Command is required for a stdio server."
	}
	if hasBlank(cmd) && !isFile(cmd, s.Dir) {
		if len(s.Args) > 0 {
			return "Command holds spaces while Arguments are filled in: put only the program in Command and each argument on its own line in Arguments, or clear Arguments to have the command line split into them."
		}
		if _, err := SplitCommand(cmd); err != nil {
			return "Command cannot be split into a program and its arguments: " + err.Error() + "."
		}
		return "" // Normalized splits it; the program is checked then.
	}
	if !strings.ContainsRune(cmd, '/') {
		if _, err := mcpclient.LookCommand(cmd, s.envList()); err != nil {
			if _, ok := s.Env["PATH"]; ok {
				return fmt.Sprintf("There is no program named %q on the PATH set in Environment nor on this machine's PATH: install it, or give its full path.", cmd)
			}
			return fmt.Sprintf("There is no program named %q on this machine's PATH: install it, or give its full path.", cmd)
		}
		return ""
	}
	path := cmd
	if !filepath.IsAbs(path) && s.Dir != "" {
		path = filepath.Join(s.Dir, path)
	}
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return fmt.Sprintf("There is no program at %s on this machine.", path)
	case fi.IsDir():
		return path + " is a directory, not a program."
	case fi.Mode().Perm()&0o111 == 0:
		return path + " is not executable (chmod +x it)."
	}
	return ""
}

// Target is how the pool and the CLI reach the server.
func (s Server) Target() mcpclient.Target {
	t := mcpclient.Target{Transport: mcpclient.Transport(s.Transport)}
	if s.Transport == TransportStdio {
		t.Stdio = mcpclient.StdioConfig{Command: s.Command, Args: s.Args, Env: s.envList(), Dir: s.Dir}
		return t
	}
	header := make(map[string][]string, len(s.Headers))
	for k, v := range s.Headers {
		header[k] = []string{v}
	}
	t.HTTP = mcpclient.HTTPConfig{URL: s.URL, Header: header, InsecureSkipVerify: s.InsecureSkipVerify, Proxy: s.Proxy}
	if s.CACertPEM != "" {
		t.HTTP.CACertPEM = []byte(s.CACertPEM)
	}
	return t
}

// envList returns the server's environment as sorted KEY=VALUE entries.
func (s Server) envList() []string {
	env := make([]string, 0, len(s.Env))
	for k, v := range s.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	return env
}

func hasBlank(s string) bool { return strings.ContainsAny(s, " \t\n") }

// isFile reports whether path, relative to dir when relative and dir is
// set, names an existing regular file.
func isFile(path, dir string) bool {
	if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
