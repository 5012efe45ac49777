package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/mcpclient/doctor"
)

// startSDKSSE serves an official Go SDK server over the deprecated HTTP+SSE
// transport on loopback and returns its event-stream URL.
func startSDKSSE(t *testing.T) string {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "sdk-sse", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "hello"}, func(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}, nil, nil
	})
	srv := httptest.NewServer(mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv.URL + "/sse"
}

func TestCallDiagnosesAndFixes(t *testing.T) {
	sse := startSDKSSE(t)
	want := "playground call --sse " + sse + " --timeout 20s tools/list"

	var stdout, stderr bytes.Buffer
	err := run(t.Context(), []string{"call", "--url", sse, "--timeout", "20s", "tools/list"}, strings.NewReader(""), &stdout, &stderr)
	if err == nil {
		t.Fatal("call of an HTTP+SSE server as Streamable HTTP succeeded")
	}
	for _, s := range []string{"Diagnosis: This URL is an HTTP+SSE server", "endpoint event", "\n      " + want + "\n", "Run again with --fix"} {
		if !strings.Contains(stderr.String(), s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr.String())
		}
	}

	stdout.Reset()
	stderr.Reset()
	if err := run(t.Context(), []string{"call", "--url", sse, "--fix", "--timeout", "20s", "tools/list"}, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("call --fix: %v\n%s", err, stderr.String())
	}
	for _, s := range []string{"--fix: use HTTP+SSE; trying " + want, "--fix: connected"} {
		if !strings.Contains(stderr.String(), s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr.String())
		}
	}
	if !strings.Contains(stdout.String(), `"hello"`) {
		t.Errorf("tools/list after --fix: %s", stdout.String())
	}
}

func TestCommandLineWithChange(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		change doctor.Change
		want   string
	}{
		{"transport", []string{"--url=http://h/sse", "--fix", "ping"}, doctor.Change{Transport: "sse"}, "playground call --sse http://h/sse ping"},
		{"path keeps the query", []string{"--header", "A: b c", "--url", "http://h/?k=1", "tools/list", "{}"}, doctor.Change{Path: "/mcp"},
			"playground call --url 'http://h/mcp?k=1' --header 'A: b c' tools/list '{}'"},
		{"era replaces", []string{"--era", "modern", "--stdio", "srv --x", "--trace", "ping"}, doctor.Change{Era: "legacy"},
			"playground call --era legacy --stdio 'srv --x' --trace ping"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseCallConfig(tt.args, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := cfg.Line.with(tt.change, func(s string) string { return s })
			if !ok || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, ok, tt.want)
			}
		})
	}
	cfg, _ := parseCallConfig([]string{"--url", "https://h/mcp", "ping"}, io.Discard)
	if got, _ := cfg.Line.with(doctor.Change{SkipTLSVerify: true}, func(s string) string { return s }); got != "playground call --url https://h/mcp --insecure ping" {
		t.Errorf("skip TLS verification: got %q", got)
	}
}

func TestRunDiagnosesAndFixes(t *testing.T) {
	sse := startSDKSSE(t)
	file := filepath.Join(t.TempDir(), "c.json")
	if err := os.WriteFile(file, []byte(`{"format":"mcp-playground-collection","version":1,"name":"c","examples":[{"name":"ping","method":"ping","expect":{"result":{}}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(t.Context(), []string{"run", file, "--url", sse, "--fix"}, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("run --fix: %v\n%s", err, stderr.String())
	}
	want := "--fix: use HTTP+SSE; trying playground run --sse " + sse + " " + file
	if !strings.Contains(stderr.String(), "Diagnosis: This URL is an HTTP+SSE server") || !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr lacks the diagnosis or %q:\n%s", want, stderr.String())
	}
}
