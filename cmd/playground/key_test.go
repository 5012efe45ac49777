package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/store"
)

// TestServeKeySource: serve takes its key file from --key-file or
// PLAYGROUND_KEY_FILE, or the key itself from PLAYGROUND_KEY, and refuses
// a malformed key or both at once.
func TestServeKeySource(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	for _, tt := range []struct {
		name    string
		args    []string
		env     map[string]string
		want    store.KeySource
		wantErr string
	}{
		{name: "default beside the database"},
		{name: "flag", args: []string{"--key-file", "/k/flag.key"}, env: map[string]string{"PLAYGROUND_KEY_FILE": "/k/env.key"}, want: store.KeySource{File: "/k/flag.key"}},
		{name: "env file", env: map[string]string{"PLAYGROUND_KEY_FILE": "/k/env.key"}, want: store.KeySource{File: "/k/env.key"}},
		{name: "env key", env: map[string]string{"PLAYGROUND_KEY": store.EncodeKey(key)}, want: store.KeySource{Key: key}},
		{name: "env key not base64", env: map[string]string{"PLAYGROUND_KEY": "secret!"}, wantErr: "PLAYGROUND_KEY: the key is not base64"},
		{name: "env key too short", env: map[string]string{"PLAYGROUND_KEY": store.EncodeKey(key[:8])}, wantErr: "PLAYGROUND_KEY: the key is 8 bytes long, want 32"},
		{name: "key and key file", args: []string{"--key-file", "x.key"}, env: map[string]string{"PLAYGROUND_KEY": store.EncodeKey(key)}, wantErr: "give one"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := parseServeConfig(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Key.File != tt.want.File || !bytes.Equal(cfg.Key.Key, tt.want.Key) {
				t.Errorf("key source = %+v, want %+v", cfg.Key, tt.want)
			}
		})
	}
}

// keyDB makes a database at path, its key from src, with a server whose
// env holds a secret.
func keyDB(t *testing.T, path string, src store.KeySource) {
	t.Helper()
	db, err := store.Open(t.Context(), path, store.WithKey(src))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.CreateServer(t.Context(), backend.Server{Name: "s", Transport: backend.TransportStdio, Command: "x", Env: map[string]string{"TOKEN": "rot8-me"}}); err != nil {
		t.Fatal(err)
	}
}

// serverToken opens the database with src and reads the server's secret.
func serverToken(t *testing.T, path string, src store.KeySource) (string, error) {
	t.Helper()
	db, err := store.Open(t.Context(), path, store.WithKey(src))
	if err != nil {
		return "", err
	}
	defer db.Close()
	list, err := db.ListServers(t.Context())
	if err != nil || len(list) != 1 {
		t.Fatalf("servers = %+v, %v", list, err)
	}
	return list[0].Env["TOKEN"], nil
}

// TestKeyRotateCommand: `playground key rotate` replaces the key file, or
// prints the new key when the key is in PLAYGROUND_KEY; the old key no
// longer opens the database and the new one reads its secrets.
func TestKeyRotateCommand(t *testing.T) {
	t.Run("key file", func(t *testing.T) {
		dir := t.TempDir()
		path, file := filepath.Join(dir, "p.db"), filepath.Join(dir, "keys", "p.key")
		if err := os.Mkdir(filepath.Dir(file), 0o700); err != nil {
			t.Fatal(err)
		}
		keyDB(t, path, store.KeySource{File: file})
		old, _ := os.ReadFile(file)
		var stdout, stderr strings.Builder
		env := map[string]string{"PLAYGROUND_KEY_FILE": file}
		if err := runKey(t.Context(), []string{"rotate", "--db", path}, func(k string) string { return env[k] }, &stdout, &stderr); err != nil {
			t.Fatalf("rotate: %v (%s)", err, stderr.String())
		}
		if stdout.Len() > 0 {
			t.Errorf("stdout = %q, want nothing", stdout.String())
		}
		if !strings.Contains(stderr.String(), "now use the key file "+file) {
			t.Errorf("stderr = %q", stderr.String())
		}
		if _, err := serverToken(t, path, store.KeySource{Key: old}); !errors.Is(err, store.ErrWrongKey) {
			t.Errorf("old key: %v, want ErrWrongKey", err)
		}
		if tok, err := serverToken(t, path, store.KeySource{File: file}); err != nil || tok != "rot8-me" {
			t.Errorf("new key file: %q, %v", tok, err)
		}
	})
	t.Run("PLAYGROUND_KEY", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "p.db")
		old := bytes.Repeat([]byte{1}, 32)
		keyDB(t, path, store.KeySource{Key: old})
		var stdout, stderr strings.Builder
		env := map[string]string{"PLAYGROUND_KEY": store.EncodeKey(old), "PLAYGROUND_DB": path}
		if err := runKey(t.Context(), []string{"rotate"}, func(k string) string { return env[k] }, &stdout, &stderr); err != nil {
			t.Fatalf("rotate: %v (%s)", err, stderr.String())
		}
		key, err := store.ParseKey(stdout.String())
		if err != nil || strings.Count(stdout.String(), "\n") != 1 {
			t.Fatalf("stdout = %q: %v", stdout.String(), err)
		}
		if matches, _ := filepath.Glob(filepath.Join(dir, "*.key*")); len(matches) > 0 {
			t.Errorf("key files written: %v", matches)
		}
		if _, err := serverToken(t, path, store.KeySource{Key: old}); !errors.Is(err, store.ErrWrongKey) {
			t.Errorf("old key: %v, want ErrWrongKey", err)
		}
		if tok, err := serverToken(t, path, store.KeySource{Key: key}); err != nil || tok != "rot8-me" {
			t.Errorf("printed key: %q, %v", tok, err)
		}
	})
	t.Run("dashboard running", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "p.db")
		keyDB(t, path, store.KeySource{})
		db, err := store.Open(t.Context(), path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		err = runKey(t.Context(), []string{"rotate", "--db", path}, func(string) string { return "" }, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "in use (is the dashboard running?)") {
			t.Errorf("rotate = %v, want in use", err)
		}
	})
	t.Run("usage", func(t *testing.T) {
		var stderr strings.Builder
		err := run(t.Context(), []string{"key"}, strings.NewReader(""), io.Discard, &stderr)
		if exitStatus(err) != 2 || !strings.Contains(stderr.String(), "playground key rotate") {
			t.Errorf("key without a subcommand = %v, %q", err, stderr.String())
		}
	})
}
