//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// The database's lock file (PATH.lock) tells RotateKey that the database
// is in use: every open DB holds a shared flock on it until Close, and a
// rotation takes it exclusively, failing at once when another holder has
// it. flock locks are apart from SQLite's own (fcntl) locks, and the lock
// file is never opened by SQLite, so closing it disturbs none of them.

// errInUse is returned when the lock is held in the other mode.
var errInUse = errors.New("in use")

// lockFile opens PATH.lock (mode 0600) and takes a shared or, with
// exclusive, an exclusive flock on it without waiting.
func lockFile(dbPath string, exclusive bool) (*os.File, error) {
	f, err := os.OpenFile(dbPath+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: lock file: %w", err)
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errInUse
		}
		return nil, fmt.Errorf("store: lock %s.lock: %w", dbPath, err)
	}
	return f, nil
}
