package collections_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/sdktest"
)

// watchedSDKHTTPServer serves sdktest.Server over Streamable HTTP and keeps
// the body of every request it is sent.
func watchedSDKHTTPServer(tb testing.TB) (url string, bodies func() string) {
	tb.Helper()
	server := sdktest.Server()
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	var mu sync.Mutex
	var seen bytes.Buffer
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen.Write(body)
		seen.WriteByte('\n')
		mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		sdk.ServeHTTP(w, r)
	}))
	tb.Cleanup(func() {
		ts.CloseClientConnections()
		ts.Close()
	})
	return ts.URL + "/mcp", func() string {
		mu.Lock()
		defer mu.Unlock()
		return seen.String()
	}
}

// TestSecretEnvironmentGoesOnlyWhereAllowed runs a collection with an
// environment holding a secret on servers it does and does not list: the
// server it does not list is sent nothing, and an editor cannot widen the
// list while keeping the stored secret.
func TestSecretEnvironmentGoesOnlyWhereAllowed(t *testing.T) {
	e := backendtest.MustEnv(t)
	ctx := backendtest.Context(t)
	url, bodies := watchedSDKHTTPServer(t)
	httpSess := e.MustConnect(t, e.MustServer(t, backend.Server{Name: "elsewhere", Transport: backend.TransportHTTP, URL: url}))
	stdioSess := e.MustConnect(t, e.MustServer(t, sdktest.StdioServer("home")))
	origin := strings.TrimSuffix(url, "/mcp")
	cols := newCollections(t, e)
	col, _ := cols.Create(ctx, "secrets", "")
	if _, err := e.DB.AddExample(ctx, collections.Example{CollectionID: col.ID, Name: "echo token", Method: "tools/call",
		Params:       json.RawMessage(`{"name":"echo","arguments":{"text":"{{token}}"}}`),
		SnapshotKind: collections.SnapshotResult, Snapshot: json.RawMessage(`{"content":[{"type":"text","text":"[redacted]"}]}`)}); err != nil {
		t.Fatal(err)
	}
	const secret = "admin-set-s3cret"
	secretEnv := func(origins ...string) collections.Environment {
		return collections.Environment{CollectionID: col.ID, Name: "prod", Origins: origins,
			Values: []collections.EnvValue{{Name: "token", Value: secret, Secret: true}}}
	}
	env, err := cols.SaveEnvironment(ctx, secretEnv(), backend.RoleAdmin)
	if err != nil {
		t.Fatal(err)
	}
	run := func(sessionID int64) error {
		_, err := cols.Run(ctx, collections.RunRequest{CollectionID: col.ID, SessionID: sessionID, EnvironmentID: env.ID}, nil)
		return err
	}

	// No origin listed: the stored secret goes nowhere.
	for _, id := range []int64{httpSess.ID, stdioSess.ID} {
		if err := run(id); backend.ErrorCodeOf(err) != backend.EForbidden || !strings.Contains(backend.ErrorMessageOf(err), "lists no origin") {
			t.Errorf("run with no origin listed on session %d = %v, want EForbidden", id, err)
		}
	}
	// Listed for stdio only: refused on the HTTP server, which is sent nothing.
	env.Origins = []string{backend.StdioDestination}
	if env, err = cols.SaveEnvironment(ctx, env, backend.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	if err := run(httpSess.ID); backend.ErrorCodeOf(err) != backend.EForbidden || !strings.Contains(backend.ErrorMessageOf(err), origin) {
		t.Errorf("run on a server not listed = %v, want EForbidden naming %s", err, origin)
	}
	if got := bodies(); strings.Contains(got, "tools/call") || strings.Contains(got, secret) {
		t.Errorf("the server not listed was sent a call:\n%s", got)
	}
	if runs, _ := cols.RunsPage(ctx, col.ID, 0, 10); len(runs.Items) != 0 {
		t.Errorf("refused runs were stored: %+v", runs.Items)
	}
	if err := run(stdioSess.ID); err != nil {
		t.Errorf("run on a listed destination: %v", err)
	}

	// An editor widening the list must type the secret again.
	env.Origins = []string{backend.StdioDestination, origin + "/ignored/path"}
	if _, err := cols.SaveEnvironment(ctx, env, backend.RoleEditor); backend.ErrorCodeOf(err) != backend.EInvalid || !strings.Contains(backend.ErrorMessageOf(err), "Type the secret value of token again") {
		t.Fatalf("an editor's widening that keeps the secret = %v, want EInvalid", err)
	}
	if err := run(httpSess.ID); backend.ErrorCodeOf(err) != backend.EForbidden {
		t.Errorf("after the refused widening the run = %v, want EForbidden", err)
	}
	typed := secretEnv(env.Origins...)
	typed.ID, typed.Values[0].Value = env.ID, "editors-own-value"
	if env, err = cols.SaveEnvironment(ctx, typed, backend.RoleEditor); err != nil {
		t.Fatalf("an editor's widening with the secret typed again: %v", err)
	}
	if strings.Join(env.Origins, " ") != "stdio "+origin {
		t.Errorf("origins stored as %q", env.Origins)
	}
	if err := run(httpSess.ID); err != nil {
		t.Errorf("run on the newly listed origin: %v", err)
	}
	if got := bodies(); strings.Contains(got, secret) || !strings.Contains(got, "editors-own-value") {
		t.Errorf("the listed server was sent the admin's secret, or not the editor's value:\n%s", got)
	}

	// An environment without secrets goes anywhere; a bad origin is refused.
	plain, err := cols.SaveEnvironment(ctx, collections.Environment{CollectionID: col.ID, Name: "plain", Values: []collections.EnvValue{{Name: "token", Value: "x"}}}, backend.RoleEditor)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cols.Run(ctx, collections.RunRequest{CollectionID: col.ID, SessionID: httpSess.ID, EnvironmentID: plain.ID}, nil); err != nil {
		t.Errorf("run with an environment without secrets: %v", err)
	}
	plain.Origins = []string{"ftp://x"}
	if _, err := cols.SaveEnvironment(ctx, plain, backend.RoleEditor); backend.ErrorCodeOf(err) != backend.EInvalid {
		t.Errorf("an origin that is not http(s) = %v, want EInvalid", err)
	}
}
