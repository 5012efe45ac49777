package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/oauth"
	"github.com/mcp-playground/playground/backend/oauthtest"
	"github.com/mcp-playground/playground/backend/store"
)

// TestRunServerWithClientCredentials runs a collection on a dashboard
// server whose OAuth settings obtain tokens with client credentials: the
// run gets its token as the dashboard would, and nobody signs in.
func TestRunServerWithClientCredentials(t *testing.T) {
	as := oauthtest.Start(t, oauthtest.Options{Client: oauthtest.Client{ID: "ci-robot", Secret: "robot-s3cret"}})
	ctx := t.Context()
	dir := t.TempDir()
	dbPath, keyFile := filepath.Join(dir, "playground.db"), filepath.Join(dir, "playground.key")
	db, err := store.Open(ctx, dbPath, store.WithKey(store.KeySource{File: keyFile}))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		name     string
		settings oauth.Settings
	}{
		{"machine", oauth.Settings{GrantType: oauth.GrantClientCredentials, ClientAuth: oauth.ClientSecretBasic,
			ClientID: "ci-robot", ClientSecret: "robot-s3cret"}},
		{"person", oauth.Settings{}},
	} {
		id, err := db.CreateServer(ctx, backend.Server{Name: s.name, Transport: backend.TransportHTTP, URL: as.MCPURL})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.SaveOAuthSettings(ctx, id, s.settings); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	file := filepath.Join(dir, "c.json")
	collection := `{"format":"mcp-playground-collection","version":1,"name":"c","examples":[` +
		`{"name":"ping","method":"ping","expect":{"result":{}}}]}`
	if err := os.WriteFile(file, []byte(collection), 0o600); err != nil {
		t.Fatal(err)
	}

	var stdout, stderr bytes.Buffer
	args := []string{"run", file, "--server", "machine", "--db", dbPath, "--key-file", keyFile}
	if err := run(ctx, args, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "1 passed, 0 failed") {
		t.Errorf("stdout = %s", stdout.String())
	}
	if st := as.Stats(); st.ClientCredentials != 1 || st.LastClientID != "ci-robot" {
		t.Errorf("stats = %+v, want one client credentials grant by ci-robot", st)
	}
	if strings.Contains(stdout.String()+stderr.String(), "robot-s3cret") {
		t.Error("the run printed the client secret")
	}

	// A server whose tokens come from a person's browser sign-in is not
	// signed in by a run: the server's refusal is the answer.
	stdout.Reset()
	stderr.Reset()
	args = []string{"run", file, "--server", "person", "--db", dbPath, "--key-file", keyFile}
	if err := run(ctx, args, strings.NewReader(""), &stdout, &stderr); exitStatus(err) != 2 || !strings.Contains(stderr.String(), "401") {
		t.Errorf("run on a browser sign-in server: %v (exit %d)\n%s", err, exitStatus(err), stderr.String())
	}
}
