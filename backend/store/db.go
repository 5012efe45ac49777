// Package store implements the backend's storage interfaces on SQLite
// through sqlx.
package store

import (
	"context"
	"crypto/cipher"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/mattn/go-sqlite3" // registers the "sqlite3" driver

	"github.com/mcp-playground/playground/migrations"
)

// DB is an open playground database. It is safe for concurrent use.
type DB struct {
	db   *sqlx.DB
	aead cipher.AEAD // encrypts server env and header values
}

// Open opens (creating if needed) the SQLite file at path and its secret key
// file (path + ".key"), and applies every pending migration. WAL, foreign
// keys and a busy timeout are set in the DSN so that they hold on every
// pooled connection.
func Open(ctx context.Context, path string) (*DB, error) {
	if path == "" || strings.HasPrefix(path, ":memory:") {
		return nil, fmt.Errorf("store: a database file path is required")
	}
	aead, err := loadOrCreateKey(keyPath(path))
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_foreign_keys", "on")
	q.Set("_busy_timeout", "5000")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()
	sdb, err := sqlx.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	if err := sdb.PingContext(ctx); err != nil {
		sdb.Close()
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	d := &DB{db: sdb, aead: aead}
	if err := d.migrate(ctx); err != nil {
		sdb.Close()
		return nil, err
	}
	return d, nil
}

// Close closes the database. It is safe to call more than once.
func (d *DB) Close() error {
	return d.db.Close()
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
