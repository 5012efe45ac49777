//go:build unix

package store

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestRotateRefusesDatabaseInUse: a database that another DB has open (a
// running dashboard) is not rotated, and its key is left as it was; a
// database being rotated is not opened.
func TestRotateRefusesDatabaseInUse(t *testing.T) {
	path := filepath.Join(t.TempDir(), "playground.db")
	d := MustOpenPath(t, path)
	key := readKey(t, path+".key")
	_, err := RotateKey(testContext(t), path, KeySource{}, nil)
	if err == nil || !strings.Contains(err.Error(), "is in use (is the dashboard running?)") {
		t.Errorf("RotateKey on an open database = %v, want in use", err)
	}
	if !bytes.Equal(readKey(t, path+".key"), key) {
		t.Error("the key file changed")
	}
	d.Close()

	lock, err := lockFile(path, true) // as RotateKey holds it
	if err != nil {
		t.Fatal(err)
	}
	if d, err := Open(testContext(t), path); err == nil || !strings.Contains(err.Error(), "its secret key is being rotated") {
		if err == nil {
			d.Close()
		}
		t.Errorf("Open during a rotation = %v", err)
	}
	lock.Close()

	if _, err := RotateKey(testContext(t), filepath.Join(t.TempDir(), "none.db"), KeySource{}, nil); err == nil || !strings.Contains(err.Error(), "no database") {
		t.Errorf("RotateKey on a missing database = %v", err)
	}
}
