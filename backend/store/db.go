// Package store implements the backend's storage interfaces on SQLite
// through sqlx.
package store

import (
	"context"
	"crypto/cipher"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/mattn/go-sqlite3" // also registers the "sqlite3" driver

	"github.com/mcp-playground/playground/migrations"
)

// DB is an open playground database. It is safe for concurrent use.
type DB struct {
	db   *sqlx.DB
	aead cipher.AEAD // seals secrets (secrets.go)
	// lock is the shared lock on PATH.lock held until Close (keylock_unix.go).
	lock  *os.File
	stmts frameStatements
	// indexer fills history search's index in the background.
	indexer *historyIndexer
	// lastInsert is when InsertFrames last committed, in Unix nanoseconds.
	lastInsert atomic.Int64
}

// recentlyInserted reports whether frames were stored within the last d.
func (d *DB) recentlyInserted(within time.Duration) bool {
	return time.Since(time.Unix(0, d.lastInsert.Load())) < within
}

// Option changes how Open opens the database.
type Option func(*openOptions)

type openOptions struct {
	connPragmas func() []string
	key         KeySource
}

// WithConnectionPragmas is a test hook. Every new connection runs the
// PRAGMA statements that pragmas returns at that moment (nil: none), and
// no connection is kept idle, so each use of the database opens a new one
// and a change in pragmas' answer takes effect at once. Tests use it to
// make writes fail as on a full disk ("PRAGMA max_page_count = 1" caps the
// file at its current size: SQLITE_FULL) or a read-only file ("PRAGMA
// query_only = ON": SQLITE_READONLY), and then to lift the condition.
// SQLite keeps these settings per connection, so they cannot be set once
// on a pooled database. pragmas must be safe for concurrent use.
func WithConnectionPragmas(pragmas func() []string) Option {
	return func(o *openOptions) { o.connPragmas = pragmas }
}

// DSN is the go-sqlite3 data source name Open uses for the file at path:
// WAL, foreign keys, a busy timeout, synchronous=NORMAL and immediate
// transactions, set in the DSN so that they hold on every pooled
// connection.
func DSN(path string) string {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_foreign_keys", "on")
	q.Set("_busy_timeout", "5000")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	return "file:" + path + "?" + q.Encode()
}

// Open opens (creating if needed) the SQLite file at path, applies every
// pending migration, loads the secret key (by default from the key file
// path + ".key"; WithKey) and refuses it when it does not open the
// database's secrets (loadKey: an error wrapping ErrWrongKey), seals the
// plaintext secrets that older versions stored (sealOlderPlaintext), and
// starts indexing recorded exchanges for history search in the background
// (IndexHistory) until Close. Connections
// have the settings of DSN. The database file, its -wal and -shm files and
// the key file are readable and writable by their owner alone (mode 0600);
// a key file that is not is refused. Open fails while RotateKey runs on the
// database.
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
	if path == "" || strings.HasPrefix(path, ":memory:") {
		return nil, fmt.Errorf("store: a database file path is required")
	}
	var o openOptions
	for _, opt := range opts {
		opt(&o)
	}
	if err := makePrivate(path); err != nil {
		return nil, err
	}
	lock, err := lockFile(path, false)
	if errors.Is(err, errInUse) {
		return nil, fmt.Errorf("store: %s is locked: its secret key is being rotated", path)
	} else if err != nil {
		return nil, err
	}
	d, err := openLocked(ctx, path, o)
	if err != nil {
		lock.Close()
		return nil, err
	}
	d.lock = lock
	return d, nil
}

// openLocked is Open once the database's lock is held (by Open, or
// exclusively by RotateKey); the DB it returns does not release it.
func openLocked(ctx context.Context, path string, o openOptions) (*DB, error) {
	dsn := DSN(path)
	var err error
	var sdb *sqlx.DB
	if o.connPragmas != nil {
		sdb = sqlx.NewDb(sql.OpenDB(pragmaConnector{dsn: dsn, driver: &sqlite3.SQLiteDriver{ConnectHook: func(conn *sqlite3.SQLiteConn) error {
			for _, p := range o.connPragmas() {
				if _, err := conn.Exec(p, nil); err != nil {
					return fmt.Errorf("store: %s: %w", p, err)
				}
			}
			return nil
		}}}), "sqlite3")
		sdb.SetMaxIdleConns(0)
	} else if sdb, err = sqlx.Open("sqlite3", dsn); err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := sdb.PingContext(ctx); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	d := &DB{db: sdb}
	if err := d.requireFTS5(ctx); err != nil {
		sdb.Close()
		return nil, err
	}
	if err := d.migrate(ctx); err != nil {
		sdb.Close()
		return nil, err
	}
	if err := d.loadKey(ctx, path, o.key); err != nil {
		sdb.Close()
		return nil, err
	}
	if err := d.sealOlderPlaintext(ctx); err != nil {
		sdb.Close()
		return nil, err
	}
	d.indexer = startHistoryIndexer(d)
	return d, nil
}

// makePrivate creates the database file at path with mode 0600 when it
// does not exist, whatever the umask, and takes every group and other
// permission away from it and its -wal and -shm files when
// they have some (as files made by older versions do). SQLite creates the
// -wal and -shm files with the mode of the database file, so they are
// private too. A file the process may not change (it belongs to another
// user) is left as it is.
func makePrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case err == nil:
		err = f.Chmod(0o600)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("store: create %s: %w", path, err)
		}
	case !errors.Is(err, fs.ErrExist):
		return fmt.Errorf("store: create %s: %w", path, err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		info, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		perm := info.Mode().Perm()
		if perm&0o077 == 0 {
			continue
		}
		if err := os.Chmod(p, perm&^0o077); err != nil && !errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("store: make %s private: %w", p, err)
		}
	}
	return nil
}

// pragmaConnector opens connections of dsn through driver, whose
// ConnectHook runs WithConnectionPragmas' statements.
type pragmaConnector struct {
	dsn    string
	driver *sqlite3.SQLiteDriver
}

func (c pragmaConnector) Connect(context.Context) (driver.Conn, error) { return c.driver.Open(c.dsn) }

func (c pragmaConnector) Driver() driver.Driver { return c.driver }

// Close closes the database. It is safe to call more than once.
func (d *DB) Close() error {
	d.indexer.stop()
	d.stmts.close()
	err := d.db.Close()
	if d.lock != nil {
		if lerr := d.lock.Close(); !errors.Is(lerr, os.ErrClosed) && err == nil {
			err = lerr
		}
	}
	return err
}

// requireFTS5 fails when this build's SQLite lacks FTS5, which history
// search indexes exchanges with (migration 0006): without it every
// recorded exchange would fail to store. go-sqlite3 compiles FTS5 in with
// the sqlite_fts5 build tag; the Makefile and the Dockerfile set it.
func (d *DB) requireFTS5(ctx context.Context) error {
	var on bool
	if err := d.db.GetContext(ctx, &on, `SELECT sqlite_compileoption_used('ENABLE_FTS5')`); err != nil {
		return fmt.Errorf("store: check for FTS5: %w", err)
	}
	if !on {
		return fmt.Errorf("store: this build's SQLite has no FTS5; build and test with -tags sqlite_fts5 (make sets it through GOFLAGS)")
	}
	return nil
}

// migrate applies, in name order, each migration not yet recorded in the
// migrations table, each in its own transaction.
func (d *DB) migrate(ctx context.Context) error {
	if _, err := d.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("store: create migrations table: %w", err)
	}
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		return fmt.Errorf("store: list migrations: %w", err)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := d.applyMigration(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

func (d *DB) applyMigration(ctx context.Context, name string) error {
	tx, err := d.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.GetContext(ctx, &n, `SELECT COUNT(*) FROM migrations WHERE name = ?`, name); err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	if n > 0 {
		return nil
	}
	body, err := fs.ReadFile(migrations.FS, name)
	if err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO migrations (name, applied_at) VALUES (?, ?)`, name, time.Now().UnixNano()); err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: migration %s: %w", name, err)
	}
	return nil
}

func unixNano(t time.Time) int64 { return t.UnixNano() }

func fromUnixNano(n int64) time.Time { return time.Unix(0, n) }
