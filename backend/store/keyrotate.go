package store

import (
	"context"
	"crypto/cipher"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/jmoiron/sqlx"
)

// Rotation re-seals every sealed value with a new key in one transaction
// and replaces the key. With a key file (PATH) the steps are:
//
//  1. write the new key to PATH.new (0600) and fsync it;
//  2. copy the old key to PATH.old (0600, fsynced);
//  3. rename PATH.new to PATH and fsync the directory;
//  4. re-seal everything, check value included, in one transaction, and
//     commit it (synchronous=FULL, so the commit is on disk);
//  5. remove PATH.old and fsync the directory.
//
// What a crash at each point leaves, and how Open recovers (loadKey):
//   - during 1 or 2: PATH still holds the old key, which opens the
//     database; a stray PATH.new is ignored and overwritten by the next
//     rotation; a PATH.old that holds the same key as PATH is removed.
//   - after 3, before the commit of 4: PATH holds the new key but the
//     database is still sealed with the old one (the transaction is rolled
//     back): the check value does not open with PATH, does with PATH.old,
//     so Open renames PATH.old back to PATH: the rotation did not happen.
//   - after the commit of 4, before 5: PATH opens the check value; Open
//     removes PATH.old.
//
// With the key given as text (PLAYGROUND_KEY) there is no file: the new
// key is handed to publish (printed) after the values are re-sealed and
// before the commit. A crash after publish and before the commit leaves
// the database on the old key; Open then refuses the new one with
// ErrWrongKey, and the old key still opens it.

// sealedText matches one sealed value inside any text (secrets.go).
var sealedText = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(regexp.QuoteMeta(encryptedPrefix) + `[A-Za-z0-9+/]+=*`)
})

// Rotation reports what RotateKey re-sealed.
type Rotation struct {
	// Resealed is how many sealed values now use the new key.
	Resealed int
	// Foreign is how many texts looked sealed but did not open with the old
	// key (such as a server's reply quoting one); they are left as they were.
	Foreign int
}

// RotateKey gives the database at path a new secret key. src names the
// current key, as for Open. With a key file, the file is replaced (see the
// steps above) and publish, when not nil, is called with the new key
// before the commit; with src.Key, publish must not be nil: it is the only
// place the new key goes, and an error from it abandons the rotation.
//
// It refuses a database that another DB (such as a running dashboard)
// has open, and a path with no database.
func RotateKey(ctx context.Context, path string, src KeySource, publish func(key []byte) error) (Rotation, error) {
	file := src.KeyFile(path)
	if file == "" && publish == nil {
		return Rotation{}, errors.New("store: rotate: a key given as text needs somewhere to publish the new key")
	}
	if _, err := os.Stat(path); err != nil {
		return Rotation{}, fmt.Errorf("store: rotate: no database: %w", err)
	}
	lock, err := lockFile(path, true)
	if errors.Is(err, errInUse) {
		return Rotation{}, fmt.Errorf("store: rotate: %s is in use (is the dashboard running?); stop it and try again", path)
	}
	if err != nil {
		return Rotation{}, err
	}
	defer lock.Close()
	d, err := openLocked(ctx, path, openOptions{key: src})
	if err != nil {
		return Rotation{}, err
	}
	defer d.Close()

	key, err := newKey()
	if err != nil {
		return Rotation{}, err
	}
	next, err := newAEAD(key)
	if err != nil {
		return Rotation{}, err
	}
	if file != "" {
		if err := stageKeyFile(file, key); err != nil {
			return Rotation{}, err
		}
	}
	rot, err := d.reseal(ctx, next, func() error {
		if publish == nil {
			return nil
		}
		return publish(key)
	})
	if err != nil {
		if file != "" {
			// The transaction was rolled back: put the old key back.
			if rerr := os.Rename(file+".old", file); rerr != nil {
				err = errors.Join(err, fmt.Errorf("store: restore the old key file: %w (Open restores it from %s.old)", rerr, file))
			}
		}
		return Rotation{}, err
	}
	if file != "" {
		if err := removeOldKey(file); err != nil {
			return rot, err
		}
		if err := syncDir(file); err != nil {
			return rot, err
		}
	}
	return rot, nil
}

// stageKeyFile does steps 1 to 3: file then holds key, file.old the key it
// held before.
func stageKeyFile(file string, key []byte) error {
	old, err := readKeyFile(file)
	if err != nil {
		return err
	}
	if err := writeKeyFile(file+".new", key, os.O_TRUNC); err != nil {
		return err
	}
	if err := writeKeyFile(file+".old", old, os.O_TRUNC); err != nil {
		return err
	}
	if err := os.Rename(file+".new", file); err != nil {
		return fmt.Errorf("store: replace the secret key file: %w", err)
	}
	return syncDir(file)
}

// reseal re-seals with next every sealed value of every table, in one
// transaction, calls beforeCommit, and commits. secure_delete zeroes what
// the old values leave in free space, and the WAL is emptied after the
// commit, so that the old ciphertexts are gone from the files. d keeps
// the old key: it is to be closed after.
func (d *DB) reseal(ctx context.Context, next cipher.AEAD, beforeCommit func() error) (Rotation, error) {
	conn, err := d.db.Connx(ctx)
	if err != nil {
		return Rotation{}, fmt.Errorf("store: rotate: %w", err)
	}
	defer conn.Close()
	for _, p := range []string{`PRAGMA secure_delete = ON`, `PRAGMA synchronous = FULL`} {
		if _, err := conn.ExecContext(ctx, p); err != nil {
			return Rotation{}, fmt.Errorf("store: rotate: %s: %w", p, err)
		}
	}
	var rot Rotation
	err = inTx(ctx, conn, func(tx *sqlx.Tx) error {
		cols, err := textColumns(ctx, tx)
		if err != nil {
			return err
		}
		for _, c := range cols {
			if err := d.resealColumn(ctx, tx, c, next, &rot); err != nil {
				return fmt.Errorf("%s.%s: %w", c.table, c.column, err)
			}
		}
		return beforeCommit()
	})
	if err != nil {
		return Rotation{}, fmt.Errorf("store: rotate: %w", err)
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return rot, fmt.Errorf("store: rotate: checkpoint: %w", err)
	}
	return rot, nil
}

type tableColumn struct{ table, column string }

// textColumns lists the columns of the ordinary tables, leaving out
// virtual tables and their shadow tables, which only their module writes.
func textColumns(ctx context.Context, tx *sqlx.Tx) ([]tableColumn, error) {
	var tables []struct {
		Name string `db:"name"`
		SQL  string `db:"sql"`
	}
	if err := tx.SelectContext(ctx, &tables, `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`); err != nil {
		return nil, err
	}
	var virtual []string
	for _, t := range tables {
		if strings.HasPrefix(strings.ToUpper(t.SQL), "CREATE VIRTUAL TABLE") {
			virtual = append(virtual, t.Name)
		}
	}
	var cols []tableColumn
	for _, t := range tables {
		if shadowOrVirtual(t.Name, virtual) {
			continue
		}
		var names []string
		if err := tx.SelectContext(ctx, &names, `SELECT name FROM pragma_table_info(?)`, t.Name); err != nil {
			return nil, err
		}
		for _, n := range names {
			cols = append(cols, tableColumn{t.Name, n})
		}
	}
	return cols, nil
}

func shadowOrVirtual(table string, virtual []string) bool {
	for _, v := range virtual {
		if table == v || strings.HasPrefix(table, v+"_") {
			return true
		}
	}
	return false
}

// resealColumn re-seals the sealed values in the text of one column.
func (d *DB) resealColumn(ctx context.Context, tx *sqlx.Tx, c tableColumn, next cipher.AEAD, rot *Rotation) error {
	col, table := quoteIdent(c.column), quoteIdent(c.table)
	var rows []struct {
		RowID int64  `db:"rid"`
		Text  string `db:"text"`
	}
	if err := tx.SelectContext(ctx, &rows, fmt.Sprintf(`SELECT rowid AS rid, %s AS text FROM %s WHERE typeof(%s) = 'text' AND instr(%s, ?) > 0`, col, table, col, col), encryptedPrefix); err != nil {
		return err
	}
	for _, r := range rows {
		var failed error
		text := sealedText().ReplaceAllStringFunc(r.Text, func(old string) string {
			plain, err := d.open(old)
			if err != nil {
				rot.Foreign++
				return old
			}
			sealed, err := sealWith(next, plain)
			if err != nil {
				failed = err
				return old
			}
			rot.Resealed++
			return sealed
		})
		if failed != nil {
			return failed
		}
		if text == r.Text {
			continue
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf(`UPDATE %s SET %s = ? WHERE rowid = ?`, table, col), text, r.RowID); err != nil {
			return err
		}
	}
	return nil
}

// quoteIdent quotes an SQL identifier.
func quoteIdent(name string) string { return `"` + strings.ReplaceAll(name, `"`, `""`) + `"` }
