package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend"
)

type serverRow struct {
	ID        int64  `db:"id"`
	Name      string `db:"name"`
	Transport string `db:"transport"`
	Era       string `db:"era"`
	Command   string `db:"command"`
	Args      string `db:"args"`
	Env       string `db:"env"`
	Dir       string `db:"dir"`
	URL       string `db:"url"`
	Headers   string `db:"headers"`
	Roots     string `db:"roots"`
	CACert    string `db:"ca_cert"`
	Insecure  bool   `db:"insecure_skip_verify"`
	Proxy     string `db:"proxy"`
	CreatedAt int64  `db:"created_at"`
	UpdatedAt int64  `db:"updated_at"`
}

// The url column holds the server URL sealed like env and headers (a URL
// can carry credentials in its userinfo and query), or "" for a server
// without one. Rows of older versions hold it in plaintext until Open
// seals them (sealOlderPlaintext). The proxy column is sealed the same
// way (it can carry user:password); it never held plaintext.

// server decodes a row; env, headers, the URL and the proxy are decrypted.
func (d *DB) server(r serverRow) (backend.Server, error) {
	s := backend.Server{
		ID: r.ID, Name: r.Name, Transport: backend.Transport(r.Transport), Era: backend.Era(r.Era),
		Command: r.Command, Dir: r.Dir, URL: r.URL, CACertPEM: r.CACert, InsecureSkipVerify: r.Insecure,
		CreatedAt: fromUnixNano(r.CreatedAt), UpdatedAt: fromUnixNano(r.UpdatedAt),
	}
	if err := json.Unmarshal([]byte(r.Args), &s.Args); err != nil {
		return s, fmt.Errorf("store: server %d args: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(r.Roots), &s.Roots); err != nil {
		return s, fmt.Errorf("store: server %d roots: %w", r.ID, err)
	}
	if isSealed(r.URL) {
		plain, err := d.open(r.URL)
		if err != nil {
			return s, fmt.Errorf("store: server %d URL: %w", r.ID, err)
		}
		s.URL = string(plain)
	}
	if r.Proxy != "" {
		plain, err := d.open(r.Proxy)
		if err != nil {
			return s, fmt.Errorf("store: server %d proxy: %w", r.ID, err)
		}
		s.Proxy = string(plain)
	}
	for _, secret := range []struct {
		text string
		into *map[string]string
	}{{r.Env, &s.Env}, {r.Headers, &s.Headers}} {
		plain, err := d.open(secret.text)
		if err != nil {
			return s, fmt.Errorf("store: server %d: %w", r.ID, err)
		}
		if err := json.Unmarshal(plain, secret.into); err != nil {
			return s, fmt.Errorf("store: server %d: %w", r.ID, err)
		}
	}
	return s, nil
}

// row encodes s; env, headers, the URL and the proxy are encrypted.
func (d *DB) row(s backend.Server) (serverRow, error) {
	args, err := json.Marshal(nonNilSlice(s.Args))
	if err != nil {
		return serverRow{}, err
	}
	era := s.Era
	if era == "" {
		era = backend.EraLegacy
	}
	roots, err := json.Marshal(nonNilSlice(s.Roots))
	if err != nil {
		return serverRow{}, err
	}
	r := serverRow{ID: s.ID, Name: s.Name, Transport: string(s.Transport), Era: string(era), Command: s.Command, Args: string(args), Dir: s.Dir, Roots: string(roots),
		CACert: s.CACertPEM, Insecure: s.InsecureSkipVerify}
	if r.URL, err = d.sealURL(s.URL); err != nil {
		return serverRow{}, err
	}
	if r.Proxy, err = d.sealURL(s.Proxy); err != nil {
		return serverRow{}, err
	}
	for _, secret := range []struct {
		m    map[string]string
		into *string
	}{{s.Env, &r.Env}, {s.Headers, &r.Headers}} {
		plain, err := json.Marshal(nonNilMap(secret.m))
		if err != nil {
			return serverRow{}, err
		}
		if *secret.into, err = d.seal(plain); err != nil {
			return serverRow{}, err
		}
	}
	return r, nil
}

// sealURL seals a server or proxy URL for the url or proxy column; "" stays "".
func (d *DB) sealURL(u string) (string, error) {
	if u == "" {
		return "", nil
	}
	return d.seal([]byte(u))
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func nonNilMap(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

// ListServers implements backend.ServerStore.
func (d *DB) ListServers(ctx context.Context) ([]backend.Server, error) {
	var rows []serverRow
	if err := d.db.SelectContext(ctx, &rows, `SELECT * FROM servers ORDER BY name COLLATE NOCASE`); err != nil {
		return nil, fmt.Errorf("store: list servers: %w", err)
	}
	out := make([]backend.Server, 0, len(rows))
	for _, r := range rows {
		s, err := d.server(r)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// GetServer implements backend.ServerStore.
func (d *DB) GetServer(ctx context.Context, id int64) (backend.Server, error) {
	var r serverRow
	err := d.db.GetContext(ctx, &r, `SELECT * FROM servers WHERE id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return backend.Server{}, backend.Errorf(backend.ENotFound, "Server %d does not exist.", id)
	}
	if err != nil {
		return backend.Server{}, fmt.Errorf("store: get server %d: %w", id, err)
	}
	return d.server(r)
}

// CreateServer implements backend.ServerStore.
func (d *DB) CreateServer(ctx context.Context, s backend.Server) (int64, error) {
	r, err := d.row(s)
	if err != nil {
		return 0, fmt.Errorf("store: create server: %w", err)
	}
	now := unixNano(time.Now())
	r.CreatedAt, r.UpdatedAt = now, now
	res, err := d.db.NamedExecContext(ctx, `INSERT INTO servers (name, transport, era, command, args, env, dir, url, headers, roots,
		ca_cert, insecure_skip_verify, proxy, created_at, updated_at)
		VALUES (:name, :transport, :era, :command, :args, :env, :dir, :url, :headers, :roots,
		:ca_cert, :insecure_skip_verify, :proxy, :created_at, :updated_at)`, r)
	if err != nil {
		return 0, nameConflict(s.Name, err)
	}
	return res.LastInsertId()
}

// UpdateServer implements backend.ServerStore.
func (d *DB) UpdateServer(ctx context.Context, s backend.Server) error {
	return d.updateServer(ctx, d.db, s)
}

// namedExecer runs named statements: the database or a transaction.
type namedExecer interface {
	NamedExecContext(ctx context.Context, query string, arg any) (sql.Result, error)
}

func (d *DB) updateServer(ctx context.Context, db namedExecer, s backend.Server) error {
	r, err := d.row(s)
	if err != nil {
		return fmt.Errorf("store: update server: %w", err)
	}
	r.UpdatedAt = unixNano(time.Now())
	res, err := db.NamedExecContext(ctx, `UPDATE servers SET name = :name, transport = :transport, era = :era, command = :command,
		args = :args, env = :env, dir = :dir, url = :url, headers = :headers, roots = :roots,
		ca_cert = :ca_cert, insecure_skip_verify = :insecure_skip_verify, proxy = :proxy, updated_at = :updated_at WHERE id = :id`, r)
	if err != nil {
		return nameConflict(s.Name, err)
	}
	return mustAffect(res, "Server %d does not exist.", s.ID)
}

// DeleteServer implements backend.ServerStore.
func (d *DB) DeleteServer(ctx context.Context, id int64) error {
	res, err := d.db.ExecContext(ctx, `DELETE FROM servers WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("store: delete server %d: %w", id, err)
	}
	return mustAffect(res, "Server %d does not exist.", id)
}

func nameConflict(name string, err error) error {
	if strings.Contains(err.Error(), "UNIQUE constraint failed: servers.name") {
		return &backend.Error{Code: backend.EConflict, Message: "A server with this name already exists.",
			Fields: map[string]string{"name": fmt.Sprintf("%q is already taken.", name)}}
	}
	return fmt.Errorf("store: save server: %w", err)
}

func mustAffect(res sql.Result, format string, id int64) error {
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if n == 0 {
		return backend.Errorf(backend.ENotFound, format, id)
	}
	return nil
}
