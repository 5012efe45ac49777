package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/store"
)

// TestBackup copies a database that is open and being written to, and
// opens the copy with the original's key: it holds the same servers, their
// secrets included. A second backup to the same file is refused.
func TestBackup(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	dbPath, dest := filepath.Join(dir, "playground.db"), filepath.Join(dir, "backup.db")
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := range 20 {
		if _, err := db.CreateServer(ctx, backend.Server{Name: fmt.Sprintf("server %d", i), Transport: backend.TransportHTTP,
			URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"Authorization": "Bearer secret-" + fmt.Sprint(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	want, err := db.ListServers(ctx)
	if err != nil {
		t.Fatal(err)
	}

	noEnv := func(string) string { return "" }
	var stderr strings.Builder
	if err := runBackup(ctx, []string{"--db", dbPath, dest}, noEnv, &stderr); err != nil {
		t.Fatalf("backup: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "back up the key file "+dbPath+".key separately") {
		t.Errorf("the backup does not name the key file to back up:\n%s", stderr.String())
	}
	if info, err := os.Stat(dest); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the copy: %v, mode %v, want 0600", err, info.Mode().Perm())
	}

	copied, err := store.Open(ctx, dest, store.WithKey(store.KeySource{File: dbPath + ".key"}))
	if err != nil {
		t.Fatalf("opening the copy with the original's key: %v", err)
	}
	got, err := copied.ListServers(ctx)
	copied.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the copy holds\n%+v\nwant\n%+v", got, want)
	}

	before, _ := os.ReadFile(dest)
	stderr.Reset()
	err = runBackup(ctx, []string{"--db", dbPath, dest}, noEnv, &stderr)
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("a second backup to %s: %v", dest, err)
	}
	if after, _ := os.ReadFile(dest); string(after) != string(before) {
		t.Error("the refused backup changed the existing file")
	}
}

// TestBackupKeyReminder checks that the reminder names where the key is:
// the file of --key-file, or PLAYGROUND_KEY.
func TestBackupKeyReminder(t *testing.T) {
	ctx := t.Context()
	dir := t.TempDir()
	dbPath, keyFile := filepath.Join(dir, "playground.db"), filepath.Join(dir, "elsewhere.key")
	db, err := store.Open(ctx, dbPath, store.WithKey(store.KeySource{File: keyFile}))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"key file flag", []string{"--key-file", keyFile}, nil, "back up the key file " + keyFile + " separately"},
		{"key file env", nil, map[string]string{"PLAYGROUND_KEY_FILE": keyFile}, "back up the key file " + keyFile + " separately"},
		{"default key file missing", nil, nil, "the key file " + dbPath + ".key (not found there"},
		{"key in the environment", nil, map[string]string{"PLAYGROUND_KEY": store.EncodeKey(make([]byte, 32))}, "back up the value of PLAYGROUND_KEY separately"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr strings.Builder
			args := append(append([]string{"--db", dbPath}, tt.args...), filepath.Join(dir, fmt.Sprintf("copy%d.db", i)))
			if err := runBackup(ctx, args, func(k string) string { return tt.env[k] }, &stderr); err != nil {
				t.Fatalf("backup: %v", err)
			}
			if !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, stderr.String())
			}
		})
	}
}
