package backend_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/sdktest"
)

// pngIcon is a 1×1 PNG as a data: URI.
const pngIcon = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

// mustDescribedServer serves, over Streamable HTTP on loopback, an SDK
// server that describes itself fully: title, website, icons (safe and
// unsafe), instructions, and tools, resources, logging and completions.
func mustDescribedServer(tb testing.TB) string {
	tb.Helper()
	impl := &mcp.Implementation{Name: "described", Title: "Described Server", Version: "2.5.0",
		WebsiteURL: "https://example.com/described",
		Icons: []mcp.Icon{
			{Source: pngIcon, MIMEType: "image/png"},
			{Source: "https://example.com/icon.png"},
			{Source: "/static/app.js"},
			{Source: "javascript:alert(1)"},
			{Source: "data:image/svg+xml;base64,PHN2Zy8+"},
		}}
	server := mcp.NewServer(impl, &mcp.ServerOptions{
		Instructions: "Call echo first.\n<script>alert(1)</script>",
		Capabilities: &mcp.ServerCapabilities{
			Logging:      &mcp.LoggingCapabilities{},
			Completions:  &mcp.CompletionCapabilities{},
			Tools:        &mcp.ToolCapabilities{ListChanged: true},
			Resources:    &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
			Experimental: map[string]any{"x-trace": map[string]any{}},
		},
		SubscribeHandler:   func(context.Context, *mcp.SubscribeRequest) error { return nil },
		UnsubscribeHandler: func(context.Context, *mcp.UnsubscribeRequest) error { return nil },
	})
	ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp"
}

func TestPoolOverview(t *testing.T) {
	e := MustEnv(t)
	ctx := backendtest.Context(t)
	sess := e.MustConnect(t, e.MustServer(t, httpServer("described", mustDescribedServer(t))))

	o, err := e.Pool.Overview(sess.ID)
	if err != nil {
		t.Fatalf("Overview: %v", err)
	}
	if o.Session.ID != sess.ID || o.Server.Name != "described" || o.Server.Title != "Described Server" || o.Server.Version != "2.5.0" ||
		o.Era != backend.Era("legacy") || o.ProtocolVersion != "2025-11-25" || o.Discovery != nil {
		t.Errorf("Overview = %+v", o)
	}
	if o.Instructions != "Call echo first.\n<script>alert(1)</script>" {
		t.Errorf("Instructions = %q", o.Instructions)
	}
	if site, ok := o.Website(); !ok || site != "https://example.com/described" {
		t.Errorf("Website = %q, %v", site, ok)
	}
	if got := o.IconImages(); !reflect.DeepEqual(got, []string{pngIcon}) {
		t.Errorf("IconImages = %q, want only the PNG data: URI", got)
	}
	if got := o.IconLinks(); !reflect.DeepEqual(got, []string{"https://example.com/icon.png"}) {
		t.Errorf("IconLinks = %q, want only the https URL", got)
	}
	want := []backend.Capability{
		{Name: "tools", Features: []string{"listChanged"}},
		{Name: "resources", Features: []string{"listChanged", "subscribe"}},
		{Name: "logging"},
		{Name: "completions"},
		{Name: "experimental", Features: []string{"x-trace"}},
	}
	if got := backend.Capabilities(o.ServerCapabilities); !reflect.DeepEqual(got, want) {
		t.Errorf("server capabilities = %+v\nwant %+v\nraw %s", got, want, o.ServerCapabilities)
	}
	var names []string
	for _, c := range backend.Capabilities(o.ClientCapabilities) {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "tasks,roots,sampling,elicitation,extensions" {
		t.Errorf("client capabilities = %v (raw %s)", names, o.ClientCapabilities)
	}

	latency, err := e.Pool.Ping(ctx, sess.ID)
	if err != nil || latency <= 0 {
		t.Fatalf("Ping = %v, %v", latency, err)
	}
	if err := e.Rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := countFrames(t, e, sess.ID, "ping", backend.RPCRequest); n != 1 {
		t.Errorf("recorded ping requests = %d, want 1", n)
	}

	if err := e.Pool.Disconnect(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Pool.Overview(sess.ID); backend.ErrorCodeOf(err) != backend.EConflict {
		t.Errorf("Overview of an ended session: %v, want EConflict", err)
	}
	if _, err := e.Pool.Ping(ctx, sess.ID); backend.ErrorCodeOf(err) != backend.EConflict {
		t.Errorf("Ping on an ended session: %v, want EConflict", err)
	}
}

func TestCapabilities(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want []backend.Capability
	}{
		{"none", ``, nil},
		{"not an object", `[1]`, nil},
		{"empty", `{}`, []backend.Capability{}},
		{"undeclared left out", `{"tools":false,"prompts":null,"logging":{}}`, []backend.Capability{{Name: "logging"}}},
		{"nested flags", `{"tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}}`,
			[]backend.Capability{{Name: "tasks", Features: []string{"cancel", "list", "requests.tools.call"}}}},
		{"unknown after known", `{"zeta":{},"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["x"]}},"prompts":{"listChanged":false}}`,
			[]backend.Capability{{Name: "prompts"}, {Name: "extensions", Features: []string{"io.modelcontextprotocol/ui"}}, {Name: "zeta"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backend.Capabilities(json.RawMessage(tt.raw)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Capabilities(%s) = %+v, want %+v", tt.raw, got, tt.want)
			}
		})
	}
}

func TestPoolOverviewModernEra(t *testing.T) {
	e := MustEnv(t)
	srv := sdktest.StdioServer("modern")
	srv.Era = backend.EraModern
	sess := e.MustConnect(t, e.MustServer(t, srv))

	o, err := e.Pool.Overview(sess.ID)
	if err != nil {
		t.Fatalf("Overview: %v", err)
	}
	if o.Era != backend.EraModern || o.ProtocolVersion != "2026-07-28" || o.Server.Name != "sdk-test" {
		t.Errorf("Overview = %+v", o)
	}
	var discover struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if err := json.Unmarshal(o.Discovery, &discover); err != nil || len(discover.SupportedVersions) == 0 {
		t.Errorf("Discovery = %s (%v), want the server/discover result", o.Discovery, err)
	}
	// The modern era has no ping: the server's refusal is the answer.
	_, err = e.Pool.Ping(backendtest.Context(t), sess.ID)
	if backend.ErrorCodeOf(err) != backend.EUnavailable || !strings.Contains(backend.ErrorMessageOf(err), "ping failed: the server answered with JSON-RPC error -32601") {
		t.Errorf("Ping in the modern era: %v, want the server's refusal", err)
	}
}
