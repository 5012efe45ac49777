//go:build !unix

package store

import (
	"errors"
	"os"
)

// errInUse is never returned here: without flock, RotateKey cannot tell
// that the dashboard has the database open; stop it before rotating.
var errInUse = errors.New("in use")

// lockFile opens PATH.lock without locking it.
func lockFile(dbPath string, exclusive bool) (*os.File, error) {
	return os.OpenFile(dbPath+".lock", os.O_RDWR|os.O_CREATE, 0o600)
}
