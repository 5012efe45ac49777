//go:build unix

package store

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestDatabaseFilesArePrivate: the database, its WAL and its shared-memory
// file hold the registry and the recorded traffic, so, like the key file,
// only their owner may read them, whatever the process umask, and a file
// left readable by an older version is tightened.
func TestDatabaseFilesArePrivate(t *testing.T) {
	tests := []struct {
		name     string
		umask    int
		existing os.FileMode // mode of a database file made before Open; 0: none
	}{
		{name: "fresh, umask 022", umask: 0o022},
		{name: "fresh, umask 000", umask: 0},
		{name: "existing file 0644", umask: 0o022, existing: 0o644},
		{name: "existing file 0666, umask 000", umask: 0, existing: 0o666},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := syscall.Umask(tt.umask) // process-wide: this test must not run in parallel
			defer syscall.Umask(old)
			path := filepath.Join(t.TempDir(), "playground.db")
			if tt.existing != 0 {
				d := MustOpenPath(t, path)
				MustCreateServer(t, d, stdioServer("before"))
				if err := d.Close(); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tt.existing); err != nil {
					t.Fatal(err)
				}
			}
			d := MustOpenPath(t, path)
			MustCreateServer(t, d, stdioServer("written"))
			for _, f := range []string{path, path + "-wal", path + "-shm", path + ".key"} {
				info, err := os.Stat(f)
				if err != nil {
					t.Fatalf("stat %s: %v", filepath.Base(f), err)
				}
				if got := info.Mode().Perm(); got != 0o600 {
					t.Errorf("%s has mode %v, want 0600", filepath.Base(f), got)
				}
			}
		})
	}
}
