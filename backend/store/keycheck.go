package store

import (
	"context"
	"crypto/cipher"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrWrongKey is wrapped by Open's error when the secret key given does
// not open the database's sealed values.
var ErrWrongKey = errors.New("this key does not open this database's secrets")

// keyCheckText is the known text sealed in the key_check table.
const keyCheckText = "mcp-playground key check"

// loadKey reads the secret key that src names for the database at dbPath,
// makes sure it opens the database's sealed values, and sets d.aead.
//
// The database's check value (table key_check) is opened with the key. A
// database without one (new, or made before the check existed) is checked
// against any sealed server or environment value instead, and the check
// value is then written. A missing key file is created with a fresh key
// only while the database holds nothing sealed; otherwise the secrets
// would be lost, so Open refuses.
//
// Key file recovery after an interrupted rotation (see RotateKey): when
// the key file does not open the check value but PATH.old does, the
// rotation stopped before its transaction committed, and the database is
// still sealed with the old key: PATH.old is renamed back to PATH. When
// the key file opens the check value and PATH.old exists, the rotation
// committed but stopped before removing PATH.old: it is removed now.
func (d *DB) loadKey(ctx context.Context, dbPath string, src KeySource) error {
	sample, err := d.sealedSample(ctx)
	if err != nil {
		return err
	}
	file := src.KeyFile(dbPath)
	key := src.Key
	if file != "" {
		key, err = readKeyFile(file)
		if errors.Is(err, fs.ErrNotExist) {
			if sample != "" {
				return fmt.Errorf("store: the secret key file %s is missing, and the database holds secrets sealed with a key: "+
					"restore the key file kept with the database (a backup is the database file plus its key)", file)
			}
			key, err = loadOrCreateKeyFile(file)
		}
		if err != nil {
			return err
		}
	}
	aead, err := newAEAD(key)
	if err != nil {
		return err
	}
	if sample != "" {
		if _, err := openWith(aead, sample); err != nil {
			if aead, err = recoverOldKey(file, sample); err != nil {
				return err
			}
		} else if file != "" {
			if err := removeOldKey(file); err != nil {
				return err
			}
		}
	}
	d.aead = aead
	sealed, err := sealWith(aead, []byte(keyCheckText))
	if err != nil {
		return err
	}
	if _, err := d.db.ExecContext(ctx, `INSERT INTO key_check (id, sealed) VALUES (1, ?) ON CONFLICT (id) DO NOTHING`, sealed); err != nil {
		return fmt.Errorf("store: write the key check value: %w", err)
	}
	return nil
}

// sealedSample is one sealed value of the database: its check value, or
// else a server's sealed env, or else an environment's secret value; ""
// when it holds none.
func (d *DB) sealedSample(ctx context.Context) (string, error) {
	var sample string
	err := d.db.GetContext(ctx, &sample, `SELECT sealed FROM (
			SELECT 1 AS o, sealed FROM key_check
			UNION ALL SELECT 2, env FROM servers WHERE env LIKE 'enc:v1:%'
			UNION ALL SELECT 3, value FROM environment_values WHERE secret = 1 AND value LIKE 'enc:v1:%'
		) ORDER BY o LIMIT 1`)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: read the key check value: %w", err)
	}
	return sample, nil
}

// recoverOldKey returns the key of file + ".old" when it opens sample,
// having renamed it back to file; otherwise it reports ErrWrongKey.
func recoverOldKey(file, sample string) (cipher.AEAD, error) {
	wrong := fmt.Errorf("store: %w: use the key the database's secrets were sealed with", ErrWrongKey)
	if file == "" {
		return nil, fmt.Errorf("%w (PLAYGROUND_KEY)", wrong)
	}
	wrong = fmt.Errorf("%w (key file %s)", wrong, file)
	old, err := readKeyFile(file + ".old")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, wrong
	}
	if err != nil {
		return nil, err
	}
	aead, err := newAEAD(old)
	if err != nil {
		return nil, err
	}
	if _, err := openWith(aead, sample); err != nil {
		return nil, wrong
	}
	if err := os.Rename(file+".old", file); err != nil {
		return nil, fmt.Errorf("store: restore the secret key file from an interrupted rotation: %w", err)
	}
	return aead, syncDir(file)
}

// removeOldKey removes file + ".old", left by a rotation that committed.
func removeOldKey(file string) error {
	if err := os.Remove(file + ".old"); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("store: remove the old secret key file: %w", err)
	}
	return nil
}
