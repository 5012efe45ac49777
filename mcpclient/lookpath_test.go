package mcpclient

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestLookCommand(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "only-on-server-path")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "not-executable"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	tests := []struct {
		name, command string
		env           []string
		want          string
		wantErr       string
	}{
		{"on this machine's PATH", "sh", nil, sh, ""},
		{"a path is kept as it is", "./run.sh", nil, "./run.sh", ""},
		{"on the server's PATH", "only-on-server-path", []string{"A=1", "PATH=/nonexistent:" + dir}, prog, ""},
		{"the last PATH counts", "only-on-server-path", []string{"PATH=" + dir, "PATH=/nonexistent"}, "", "executable file not found in the server's PATH nor in $PATH"},
		{"the server's PATH falls back to this machine's", "sh", []string{"PATH=" + dir}, sh, ""},
		{"relative entries skipped", "only-on-server-path", []string{"PATH=relative:."}, "", "executable file not found in the server's PATH nor in $PATH"},
		{"not executable", "not-executable", []string{"PATH=" + dir}, "", "executable file not found in the server's PATH nor in $PATH"},
		{"nowhere", "no-such-program-mcp", nil, "", exec.ErrNotFound.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := LookCommand(tt.command, tt.env)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("LookCommand = %q, %v; want the error %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("LookCommand = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := LookCommand("no-such-program-mcp", nil); !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("a missing program's error %v is not exec.ErrNotFound", err)
	}
}
