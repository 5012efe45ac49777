package main

import (
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// startTLSServer serves an SDK MCP server over Streamable HTTP with TLS
// and returns its MCP URL and a file holding its certificate as PEM.
func startTLSServer(t *testing.T) (mcpURL, caFile string) {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "tls-test", Version: "1.0"}, nil)
	ts := httptest.NewTLSServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	caFile = filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	return ts.URL + "/mcp", caFile
}

func TestParseTargetTLSFlags(t *testing.T) {
	notPEM := filepath.Join(t.TempDir(), "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"CA with stdio", []string{"--stdio", "x", "--ca-cert", notPEM, "ping"}, "--ca-cert, --insecure and --proxy go with --url or --sse"},
		{"insecure with stdio", []string{"--stdio", "x", "--insecure", "ping"}, "go with --url or --sse"},
		{"missing CA file", []string{"--url", "https://x", "--ca-cert", notPEM + ".gone", "ping"}, "--ca-cert: open"},
		{"CA file not PEM", []string{"--url", "https://x", "--ca-cert", notPEM, "ping"}, "No PEM certificate found"},
		{"bad proxy", []string{"--url", "https://x", "--proxy", "ftp://p", "ping"}, `--proxy: invalid proxy URL: scheme "ftp"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := parseCallConfig(tt.args, io.Discard); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
	var stderr strings.Builder
	cfg, err := parseRunConfig([]string{"--url", "https://x", "--insecure", "--proxy", "socks5://127.0.0.1:1080", "c.json"}, func(string) string { return "" }, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := cfg.target.server("run")
	if !srv.InsecureSkipVerify || srv.Proxy != "socks5://127.0.0.1:1080" || !strings.Contains(stderr.String(), "warning: --insecure: TLS verification is off") {
		t.Errorf("server %+v, stderr %q; want skip and proxy set, and a warning", srv, stderr.String())
	}
}

// TestCallTLSAndProxy: `playground call` refuses a server whose
// certificate it cannot verify, reaches it with --ca-cert or --insecure,
// and reaches a server through --proxy.
func TestCallTLSAndProxy(t *testing.T) {
	mcpURL, caFile := startTLSServer(t)
	if _, errOut, err := runCallCmd("--url", mcpURL, "ping"); err == nil || !strings.Contains(err.Error()+errOut, "certificate") {
		t.Fatalf("call without the CA: %v, %s; want a certificate error", err, errOut)
	}
	if out, errOut, err := runCallCmd("--url", mcpURL, "--ca-cert", caFile, "tools/list"); err != nil || !strings.Contains(out, "tools") {
		t.Fatalf("call with --ca-cert: %v, %s %s", err, out, errOut)
	}
	if out, errOut, err := runCallCmd("--url", mcpURL, "--insecure", "tools/list"); err != nil || !strings.Contains(errOut, "TLS verification is off") {
		t.Fatalf("call with --insecure: %v, stdout %s, stderr %s; want it to work and warn", err, out, errOut)
	}

	plain := e2eOffByOneServer(t)
	var forwarded atomic.Int64
	proxy := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:       func(pr *httputil.ProxyRequest) { forwarded.Add(1); pr.Out.URL = pr.In.URL },
		FlushInterval: -1,
	})
	t.Cleanup(func() {
		proxy.CloseClientConnections()
		proxy.Close()
	})
	if out, errOut, err := runCallCmd("--url", plain, "--proxy", proxy.URL, "tools/list"); err != nil || !strings.Contains(out, `"add"`) || forwarded.Load() == 0 {
		t.Fatalf("call with --proxy: %v, %s %s, %d requests through the proxy", err, out, errOut, forwarded.Load())
	}
}
