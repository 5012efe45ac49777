package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestServersImportExport imports a Claude Desktop config with three
// servers, imports it again with --rename, and exports the first three:
// the same JSON, the secrets as placeholders.
func TestServersImportExport(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "playground.db")
	config := `{"mcpServers": {
		"files": {"command": "sh", "args": ["-c", "cat"], "env": {"API_KEY": "sk-123", "LOG_LEVEL": "debug"}},
		"remote": {"type": "http", "url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer abc", "X-Team": "blue"}},
		"legacy": {"type": "sse", "url": "http://127.0.0.1:1/sse"}}}`
	file := filepath.Join(dir, "claude_desktop_config.json")
	if err := os.WriteFile(file, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(string) string { return "" }
	var stderr bytes.Buffer
	if err := runServers(t.Context(), []string{"import", "--db", db, file}, env, nil, &stderr, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if err := runServers(t.Context(), []string{"import", "--db", db, "--rename", file}, env, nil, &stderr, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "files (2): imported") {
		t.Errorf("--rename did not rename:\n%s", stderr.String())
	}
	var stdout bytes.Buffer
	stderr.Reset()
	if err := runServers(t.Context(), []string{"export", "--db", db, "--format", "claude", "files", "remote", "legacy"}, env, nil, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var got, want any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	json.Unmarshal([]byte(strings.NewReplacer(`"sk-123"`, `"<API_KEY>"`, `"Bearer abc"`, `"<Authorization>"`).Replace(config)), &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("export:\n%s\nwant\n%s", stdout.String(), config)
	}
	if !strings.Contains(stderr.String(), "API_KEY is written as <API_KEY>") {
		t.Errorf("no note on the secret:\n%s", stderr.String())
	}
}
