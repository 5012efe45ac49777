package doctor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/mcpclient/doctor"
)

// sdkServer is a legacy-only MCP server of the official Go SDK.
func sdkServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "sdk-legacy", Version: "1"}, nil)
}

func streamable() http.Handler {
	s := sdkServer()
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
}

func sseHandler() http.Handler {
	s := sdkServer()
	return mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil)
}

// serve starts handler at path on 127.0.0.1 (with TLS when tls is set).
func serve(t *testing.T, path string, handler http.Handler, tls bool) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(path, handler)
	srv := httptest.NewUnstartedServer(mux)
	if tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv
}

func httpTarget(transport mcpclient.Transport, url string) mcpclient.Target {
	return mcpclient.Target{Transport: transport, HTTP: mcpclient.HTTPConfig{URL: url}}
}

// mustFail dials target in era, which must fail, and diagnoses the failure.
func mustFail(t *testing.T, target mcpclient.Target, era mcpclient.Era) doctor.Diagnosis {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := mcpclient.Dial(ctx, target, mcpclient.Options{Era: era, InitializeTimeout: 2 * time.Second})
	if err == nil {
		c.Close()
		t.Fatal("Dial succeeded; want a failure")
	}
	d := doctor.Diagnose(ctx, target, era, err)
	t.Logf("error: %v\ndiagnosis: %+v", err, d)
	return d
}

// triable returns the suggestions of d that carry a change.
func triable(d doctor.Diagnosis) []doctor.Suggestion {
	var out []doctor.Suggestion
	for _, s := range d.Suggestions {
		if s.Change != nil {
			out = append(out, s)
		}
	}
	return out
}

// mustFix applies the diagnosis's first triable suggestion, which must be
// want, and dials again, which must succeed.
func mustFix(t *testing.T, target mcpclient.Target, era mcpclient.Era, d doctor.Diagnosis, want doctor.Change) {
	t.Helper()
	tries := triable(d)
	if len(tries) == 0 {
		t.Fatalf("no triable suggestion in %+v", d.Suggestions)
	}
	if got := *tries[0].Change; got != want {
		t.Fatalf("first change = %+v, want %+v", got, want)
	}
	target, era = tries[0].Change.Apply(target, era)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := mcpclient.Dial(ctx, target, mcpclient.Options{Era: era})
	if err != nil {
		t.Fatalf("Dial after %q: %v", tries[0].Change.Label(), err)
	}
	c.Close()
}

func mustSay(t *testing.T, d doctor.Diagnosis, words ...string) {
	t.Helper()
	all := d.Summary
	for _, f := range d.Findings {
		all += "\n" + f.Check + ": " + f.Result
	}
	for _, s := range d.Suggestions {
		all += "\n" + s.Text
	}
	for _, w := range words {
		if !strings.Contains(all, w) {
			t.Errorf("diagnosis does not say %q:\n%s", w, all)
		}
	}
}

func TestRefusedPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	d := mustFail(t, httpTarget(mcpclient.TransportHTTP, "http://"+addr+"/mcp"), "")
	mustSay(t, d, "Nothing is listening at "+addr, "connection refused", "Start the server")
	if got := triable(d); len(got) != 0 {
		t.Errorf("a refused port has nothing to try automatically: %+v", got)
	}
}

func TestSelfSignedCertificate(t *testing.T) {
	srv := serve(t, "/mcp", streamable(), true)
	target := httpTarget(mcpclient.TransportHTTP, srv.URL+"/mcp")
	d := mustFail(t, target, "")
	mustSay(t, d, "authority this machine does not trust", `issuer "O=Acme Co"`, "CA bundle", "valid ")
	mustFix(t, target, "", d, doctor.Change{SkipTLSVerify: true})
}

func TestWrongPath(t *testing.T) {
	srv := serve(t, "/mcp", streamable(), false)
	target := httpTarget(mcpclient.TransportHTTP, srv.URL+"/api")
	d := mustFail(t, target, "")
	mustSay(t, d, "404 Not Found", "/mcp on the same server is one")
	mustFix(t, target, "", d, doctor.Change{Path: "/mcp"})
}

func TestSSEServerAsStreamable(t *testing.T) {
	srv := serve(t, "/sse", sseHandler(), false)
	target := httpTarget(mcpclient.TransportHTTP, srv.URL+"/sse")
	d := mustFail(t, target, "")
	mustSay(t, d, "HTTP+SSE server", "endpoint event")
	mustFix(t, target, "", d, doctor.Change{Transport: mcpclient.TransportSSE})
}

func TestLegacyServerAsModern(t *testing.T) {
	srv := serve(t, "/mcp", streamable(), false)
	target := httpTarget(mcpclient.TransportHTTP, srv.URL+"/mcp")
	d := mustFail(t, target, mcpclient.EraModern)
	mustSay(t, d, "legacy", "modern era")
	mustFix(t, target, mcpclient.EraModern, d, doctor.Change{Era: mcpclient.EraLegacy})
}

func TestCommandNotFound(t *testing.T) {
	target := mcpclient.Target{Transport: mcpclient.TransportStdio, Stdio: mcpclient.StdioConfig{Command: "no-such-mcp-server-xyz", Args: []string{"--stdio"}}}
	d := mustFail(t, target, "")
	mustSay(t, d, `The command "no-such-mcp-server-xyz" was not found`, "PATH", "npx", "uvx")
}

func TestCommandExits(t *testing.T) {
	target := mcpclient.Target{Transport: mcpclient.TransportStdio, Stdio: mcpclient.StdioConfig{
		Command: "sh", Args: []string{"-c", "echo starting >&2; echo 'error: API_KEY is not set' >&2; exit 3"}}}
	d := mustFail(t, target, "")
	mustSay(t, d, "exit status 3", "error: API_KEY is not set", "starting")
}

func TestOAuthChallenge(t *testing.T) {
	srv := serve(t, "/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://auth.example/.well-known/oauth-protected-resource"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}), false)
	d := mustFail(t, httpTarget(mcpclient.TransportHTTP, srv.URL+"/mcp"), "")
	mustSay(t, d, "needs OAuth sign-in", "https://auth.example/.well-known/oauth-protected-resource")
}

func TestUnresolvableHost(t *testing.T) {
	d := mustFail(t, httpTarget(mcpclient.TransportHTTP, "http://no-such-host.invalid/mcp"), "")
	mustSay(t, d, `"no-such-host.invalid" does not resolve`)
}

// modernOnly is a stub server of the modern era only: it answers
// server/discover and refuses initialize with UnsupportedProtocolVersion.
func modernOnly(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil || req.ID == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if req.Method == "server/discover" {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"supportedVersions":["2026-07-28"],"capabilities":{},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"modern","version":"1"}}}}`, req.ID)
		return
	}
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32022,"message":"unsupported protocol version","data":{"supported":["2026-07-28"]}}}`, req.ID)
}

func TestModernServerAsLegacy(t *testing.T) {
	srv := serve(t, "/mcp", http.HandlerFunc(modernOnly), false)
	target := httpTarget(mcpclient.TransportHTTP, srv.URL+"/mcp")
	d := mustFail(t, target, mcpclient.EraLegacy)
	mustSay(t, d, "speaks the modern era", "-32022")
	mustFix(t, target, mcpclient.EraLegacy, d, doctor.Change{Era: mcpclient.EraModern})
}

// TestCommandCrashQuotesTheFault starts real servers that crash at start
// and wants the diagnosis to name the line that says why, however much
// stderr follows or precedes it, in a bounded quote.
func TestCommandCrashQuotesTheFault(t *testing.T) {
	dir := t.TempDir()
	missing := dir + "/missing.js"
	noise := `for i in $(seq 500); do echo "loading part $i" >&2; done; `
	tests := []struct {
		name    string
		command string
		args    []string
		fault   string // the line the summary must quote
	}{
		{"node missing module", "node", []string{missing}, "Error: Cannot find module '" + missing + "'"},
		{"python import error", "python3", []string{"-c", "import json\nimport no_such_module_xyz"}, "ModuleNotFoundError: No module named 'no_such_module_xyz'"},
		{"shell command not found", "sh", []string{"-c", noise + "no-such-tool-xyz; " + noise + "exit 127"}, "no-such-tool-xyz: not found"},
		{"go panic", "sh", []string{"-c", "echo 'panic: runtime error: index out of range [3] with length 3' >&2; echo '' >&2; echo 'goroutine 1 [running]:' >&2; echo 'main.main()' >&2; echo '	/src/main.go:9 +0x1d' >&2; echo 'exit status 2' >&2; exit 2"}, "panic: runtime error: index out of range [3] with length 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			target := mcpclient.Target{Transport: mcpclient.TransportStdio, Stdio: mcpclient.StdioConfig{Command: tt.command, Args: tt.args}}
			d := mustFail(t, target, "")
			if !strings.Contains(d.Summary, "says: ") || !strings.Contains(d.Summary, tt.fault) {
				t.Errorf("summary = %q, want it to quote %q", d.Summary, tt.fault)
			}
			var quoted int
			for _, f := range d.Findings {
				if f.Check == "Stderr" {
					quoted++
				}
			}
			if quoted == 0 || quoted > 7 {
				t.Errorf("%d stderr lines quoted, want 1 to 7", quoted)
			}
		})
	}
}

// TestNotAnMCPEndpoint connects to URLs that answer, but not MCP: a web
// page, an empty 200 without a Content-Type, a 404 page of HTML. The
// diagnosis says what that means in words, names the page by its title,
// and quotes no HTML.
func TestNotAnMCPEndpoint(t *testing.T) {
	page := func(status int, contentType, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil // no sniffing
			if contentType != "" {
				w.Header().Set("Content-Type", contentType)
			}
			w.WriteHeader(status)
			fmt.Fprint(w, body)
		}
	}
	html := "<!DOCTYPE html><html><head><meta charset=utf-8><title>Acme &amp; Co — Home</title><style>body{color:red}</style></head><body><h1>Welcome</h1>" + strings.Repeat("<p>filler text</p>", 400) + "</body></html>"
	tests := []struct {
		name      string
		transport mcpclient.Transport
		handler   http.Handler
		words     []string
	}{
		{"web page", mcpclient.TransportHTTP, page(http.StatusOK, "text/html; charset=utf-8", html), []string{"not an MCP endpoint", "web page", `"Acme & Co — Home"`, "/mcp", "/sse"}},
		{"nothing", mcpclient.TransportHTTP, page(http.StatusOK, "", ""), []string{"not an MCP endpoint", "nothing", "/mcp", "/sse"}},
		{"404 page", mcpclient.TransportHTTP, page(http.StatusNotFound, "text/html", html), []string{"404 Not Found", `"Acme & Co — Home"`}},
		{"web page as HTTP+SSE", mcpclient.TransportSSE, page(http.StatusOK, "text/html", html), []string{"No HTTP+SSE event stream is at this URL (it got a web page titled \"Acme & Co — Home\")", "/sse"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, "/", tt.handler, false)
			d := mustFail(t, httpTarget(tt.transport, srv.URL+"/api"), "")
			mustSay(t, d, tt.words...)
			for _, text := range append([]string{d.Summary}, findingTexts(d)...) {
				if strings.Contains(text, "<") || len(text) > 400 {
					t.Errorf("the diagnosis quotes HTML or too much: %q", text)
				}
			}
		})
	}
}

func findingTexts(d doctor.Diagnosis) []string {
	var out []string
	for _, f := range d.Findings {
		out = append(out, f.Result)
	}
	return out
}
