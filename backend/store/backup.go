package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/jmoiron/sqlx"
)

// Backup writes a consistent copy of the database at path to dest with
// SQLite's VACUUM INTO, which reads one snapshot and may run while the
// dashboard writes. It fails when path does not exist, when dest exists
// (it is never overwritten), and while RotateKey runs on the database.
// dest is created readable and writable by its owner alone, and removed
// again when the copy fails. The copy's secrets stay sealed with the
// database's key, which is not part of it.
func Backup(ctx context.Context, path, dest string) (err error) {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	lock, err := lockFile(path, false)
	if errors.Is(err, errInUse) {
		return fmt.Errorf("store: backup: %s is locked: its secret key is being rotated", path)
	} else if err != nil {
		return err
	}
	defer lock.Close()

	// VACUUM INTO accepts an empty file: creating it first refuses an
	// existing one atomically and sets its mode whatever the umask.
	f, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("store: backup: %s already exists; give a new file", dest)
	} else if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}
	err = f.Chmod(0o600)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	defer func() {
		if err != nil {
			os.Remove(dest)
		}
	}()
	if err != nil {
		return fmt.Errorf("store: backup: %w", err)
	}

	db, err := sqlx.Open("sqlite3", DSN(path))
	if err != nil {
		return fmt.Errorf("store: backup: open %s: %w", path, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dest); err != nil {
		return fmt.Errorf("store: backup of %s: %w", path, err)
	}
	return nil
}
