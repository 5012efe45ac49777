package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
)

type collectionRow struct {
	ID          int64  `db:"id"`
	Name        string `db:"name"`
	Description string `db:"description"`
	CreatedAt   int64  `db:"created_at"`
	Examples    int    `db:"examples"`
}

func (r collectionRow) collection() collections.Collection {
	return collections.Collection{ID: r.ID, Name: r.Name, Description: r.Description, Created: fromUnixNano(r.CreatedAt), Examples: r.Examples}
}

const collectionColumns = `SELECT c.id, c.name, c.description, c.created_at,
	(SELECT COUNT(*) FROM examples e WHERE e.collection_id = c.id) AS examples FROM collections c`

// collectionNameConflict turns a duplicate collection name into an
// EConflict *Error.
func collectionNameConflict(name string, err error) error {
	if strings.Contains(err.Error(), "UNIQUE constraint failed: collections.name") {
		msg := fmt.Sprintf("A collection named %q already exists.", name)
		return &backend.Error{Code: backend.EConflict, Message: msg, Fields: map[string]string{"name": msg}}
	}
	return fmt.Errorf("store: save collection %q: %w", name, err)
}

// CreateCollection implements collections.Store.
func (d *DB) CreateCollection(ctx context.Context, c collections.Collection) (collections.Collection, error) {
	res, err := d.db.ExecContext(ctx, `INSERT INTO collections (name, description, created_at) VALUES (?, ?, ?)`,
		c.Name, c.Description, unixNano(c.Created))
	if err != nil {
		return collections.Collection{}, collectionNameConflict(c.Name, err)
	}
	c.ID, err = res.LastInsertId()
	if err != nil {
		return collections.Collection{}, fmt.Errorf("store: create collection: %w", err)
	}
	return c, nil
}

// ListCollections implements collections.Store.
func (d *DB) ListCollections(ctx context.Context) ([]collections.Collection, error) {
	var rows []collectionRow
	if err := d.db.SelectContext(ctx, &rows, collectionColumns+` ORDER BY c.name`); err != nil {
		return nil, fmt.Errorf("store: list collections: %w", err)
	}
	out := make([]collections.Collection, len(rows))
	for i, r := range rows {
		out[i] = r.collection()
	}
	return out, nil
}

// ListCollectionsPage implements collections.Store.
func (d *DB) ListCollectionsPage(ctx context.Context, after string, limit int) ([]collections.Collection, error) {
	var rows []collectionRow
	if err := d.db.SelectContext(ctx, &rows, collectionColumns+` WHERE c.name > ? ORDER BY c.name LIMIT ?`, after, limit); err != nil {
		return nil, fmt.Errorf("store: list collections after %q: %w", after, err)
	}
	out := make([]collections.Collection, len(rows))
	for i, r := range rows {
		out[i] = r.collection()
	}
	return out, nil
}

// GetCollection implements collections.Store.
func (d *DB) GetCollection(ctx context.Context, id int64) (collections.Collection, error) {
	var r collectionRow
	err := d.db.GetContext(ctx, &r, collectionColumns+` WHERE c.id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return collections.Collection{}, backend.Errorf(backend.ENotFound, "Collection %d does not exist.", id)
	}
	if err != nil {
		return collections.Collection{}, fmt.Errorf("store: get collection %d: %w", id, err)
	}
	return r.collection(), nil
}

// CollectionByName implements collections.Store.
func (d *DB) CollectionByName(ctx context.Context, name string) (collections.Collection, bool, error) {
	var r collectionRow
	err := d.db.GetContext(ctx, &r, collectionColumns+` WHERE c.name = ?`, name)
	if errors.Is(err, sql.ErrNoRows) {
		return collections.Collection{}, false, nil
	}
	if err != nil {
		return collections.Collection{}, false, fmt.Errorf("store: collection %q: %w", name, err)
	}
	return r.collection(), true, nil
}

// UpdateCollection implements collections.Store.
func (d *DB) UpdateCollection(ctx context.Context, c collections.Collection) error {
	res, err := d.db.ExecContext(ctx, `UPDATE collections SET name = ?, description = ? WHERE id = ?`, c.Name, c.Description, c.ID)
	if err != nil {
		return collectionNameConflict(c.Name, err)
	}
	return mustAffect(res, "Collection %d does not exist.", c.ID)
}

// DeleteCollection implements collections.Store.
func (d *DB) DeleteCollection(ctx context.Context, id int64) error {
	res, err := d.db.ExecContext(ctx, `DELETE FROM collections WHERE id = ?`, id)
	if err != nil {
		return fmt.Errorf("store: delete collection %d: %w", id, err)
	}
	return mustAffect(res, "Collection %d does not exist.", id)
}

type exampleRow struct {
	ID            int64          `db:"id"`
	CollectionID  int64          `db:"collection_id"`
	Position      int            `db:"position"`
	Name          string         `db:"name"`
	Description   string         `db:"description"`
	Method        string         `db:"method"`
	Params        sql.NullString `db:"params"`
	SnapshotKind  string         `db:"snapshot_kind"`
	Snapshot      string         `db:"snapshot"`
	Volatile      string         `db:"volatile"`
	ExpectIsError bool           `db:"expect_is_error"`
	Assertions    string         `db:"assertions"`
	AssertOnly    bool           `db:"assertions_only"`
	Captures      string         `db:"captures"`
	CreatedAt     int64          `db:"created_at"`
	ServerID      sql.NullInt64  `db:"server_id"`
}

const exampleColumns = `SELECT id, collection_id, position, name, description, method, params,
	snapshot_kind, snapshot, volatile, expect_is_error, assertions, assertions_only, captures, created_at, server_id FROM examples`

func (r exampleRow) example() (collections.Example, error) {
	e := collections.Example{
		ID: r.ID, CollectionID: r.CollectionID, Position: r.Position, Name: r.Name, Description: r.Description,
		Method: r.Method, SnapshotKind: collections.SnapshotKind(r.SnapshotKind), Snapshot: json.RawMessage(r.Snapshot),
		ExpectIsError: r.ExpectIsError, AssertionsOnly: r.AssertOnly, Created: fromUnixNano(r.CreatedAt), ServerID: r.ServerID.Int64,
	}
	if r.Params.Valid {
		e.Params = json.RawMessage(r.Params.String)
	}
	for _, col := range []struct {
		name, text string
		into       any
	}{{"volatile paths", r.Volatile, &e.Volatile}, {"assertions", r.Assertions, &e.Assertions}, {"captures", r.Captures, &e.Captures}} {
		if err := json.Unmarshal([]byte(col.text), col.into); err != nil {
			return collections.Example{}, fmt.Errorf("store: example %d: %s: %w", r.ID, col.name, err)
		}
	}
	return e, nil
}

func nullJSON(b json.RawMessage) sql.NullString {
	return sql.NullString{String: string(b), Valid: len(b) > 0}
}

// jsonList is the JSON array text of list, "[]" when it is nil.
func jsonList[T any](list []T) (string, error) {
	if list == nil {
		list = []T{}
	}
	b, err := json.Marshal(list)
	return string(b), err
}

// exampleLists are the JSON texts of an example's list columns: volatile,
// assertions and captures.
func exampleLists(e collections.Example) (vol, assertions, captures string, err error) {
	if vol, err = jsonList(e.Volatile); err != nil {
		return
	}
	if assertions, err = jsonList(e.Assertions); err != nil {
		return
	}
	captures, err = jsonList(e.Captures)
	return
}

func exampleNameConflict(name string, err error) error {
	if strings.Contains(err.Error(), "UNIQUE constraint failed: examples.collection_id, examples.name") {
		msg := fmt.Sprintf("This collection already has an example named %q.", name)
		return &backend.Error{Code: backend.EConflict, Message: msg, Fields: map[string]string{"name": msg}}
	}
	if strings.Contains(err.Error(), "FOREIGN KEY constraint failed") {
		return backend.Errorf(backend.ENotFound, "The collection does not exist.")
	}
	return fmt.Errorf("store: save example %q: %w", name, err)
}

// AddExample implements collections.Store.
func (d *DB) AddExample(ctx context.Context, e collections.Example) (collections.Example, error) {
	id, err := insertExample(ctx, d.db, e)
	if err != nil {
		return collections.Example{}, err
	}
	return d.GetExample(ctx, e.CollectionID, id)
}

// insertExample stores e after the last example of its collection and
// returns its id.
func insertExample(ctx context.Context, q sqlx.QueryerContext, e collections.Example) (int64, error) {
	vol, assertions, captures, err := exampleLists(e)
	if err != nil {
		return 0, fmt.Errorf("store: add example: %w", err)
	}
	var id int64
	err = sqlx.GetContext(ctx, q, &id, `
	INSERT INTO examples (collection_id, position, name, description, method, params, snapshot_kind, snapshot, volatile,
		expect_is_error, assertions, assertions_only, captures, created_at, server_id)
	VALUES (?1, (SELECT COALESCE(MAX(position), 0) + 1 FROM examples WHERE collection_id = ?1), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	RETURNING id`,
		e.CollectionID, e.Name, e.Description, e.Method, nullJSON(e.Params), string(e.SnapshotKind), string(e.Snapshot),
		vol, e.ExpectIsError, assertions, e.AssertionsOnly, captures, unixNano(e.Created), sql.NullInt64{Int64: e.ServerID, Valid: e.ServerID != 0})
	if err != nil {
		return 0, exampleNameConflict(e.Name, err)
	}
	return id, nil
}

// ImportCollection implements collections.Store.
func (d *DB) ImportCollection(ctx context.Context, c collections.Collection, examples []collections.Example, envs []collections.Environment) (collections.Collection, error) {
	conn, err := d.db.Connx(ctx)
	if err != nil {
		return collections.Collection{}, fmt.Errorf("store: import collection: %w", err)
	}
	defer conn.Close()
	err = inTx(ctx, conn, func(tx *sqlx.Tx) error {
		err := tx.GetContext(ctx, &c.ID, `INSERT INTO collections (name, description, created_at) VALUES (?, ?, ?) RETURNING id`,
			c.Name, c.Description, unixNano(c.Created))
		if err != nil {
			return collectionNameConflict(c.Name, err)
		}
		for _, e := range examples {
			e.CollectionID = c.ID
			if _, err := insertExample(ctx, tx, e); err != nil {
				return err
			}
		}
		for _, e := range envs {
			e.CollectionID = c.ID
			if _, err := d.saveEnvironment(ctx, tx, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return collections.Collection{}, err
	}
	return d.GetCollection(ctx, c.ID)
}

// ListExamples implements collections.Store.
func (d *DB) ListExamples(ctx context.Context, collectionID int64) ([]collections.Example, error) {
	var rows []exampleRow
	if err := d.db.SelectContext(ctx, &rows, exampleColumns+` WHERE collection_id = ? ORDER BY position, id`, collectionID); err != nil {
		return nil, fmt.Errorf("store: list examples of collection %d: %w", collectionID, err)
	}
	return examplesOf(rows)
}

// ListExamplesPage implements collections.Store.
func (d *DB) ListExamplesPage(ctx context.Context, collectionID int64, afterPosition, limit int) ([]collections.Example, error) {
	var rows []exampleRow
	if err := d.db.SelectContext(ctx, &rows, exampleColumns+` WHERE collection_id = ? AND position > ? ORDER BY position, id LIMIT ?`,
		collectionID, afterPosition, limit); err != nil {
		return nil, fmt.Errorf("store: list examples of collection %d: %w", collectionID, err)
	}
	return examplesOf(rows)
}

func examplesOf(rows []exampleRow) ([]collections.Example, error) {
	out := make([]collections.Example, len(rows))
	for i, r := range rows {
		e, err := r.example()
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// GetExample implements collections.Store.
func (d *DB) GetExample(ctx context.Context, collectionID, id int64) (collections.Example, error) {
	var r exampleRow
	err := d.db.GetContext(ctx, &r, exampleColumns+` WHERE collection_id = ? AND id = ?`, collectionID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return collections.Example{}, backend.Errorf(backend.ENotFound, "Example %d does not exist in this collection.", id)
	}
	if err != nil {
		return collections.Example{}, fmt.Errorf("store: get example %d: %w", id, err)
	}
	return r.example()
}

// UpdateExample implements collections.Store.
func (d *DB) UpdateExample(ctx context.Context, e collections.Example) error {
	vol, assertions, captures, err := exampleLists(e)
	if err != nil {
		return fmt.Errorf("store: update example: %w", err)
	}
	res, err := d.db.ExecContext(ctx, `UPDATE examples SET description = ?, params = ?, volatile = ?, assertions = ?, assertions_only = ?, captures = ?
		WHERE collection_id = ? AND id = ?`,
		e.Description, nullJSON(e.Params), vol, assertions, e.AssertionsOnly, captures, e.CollectionID, e.ID)
	if err != nil {
		return fmt.Errorf("store: update example %d: %w", e.ID, err)
	}
	return mustAffect(res, "Example %d does not exist in this collection.", e.ID)
}

// SetExampleSnapshot implements collections.Store.
func (d *DB) SetExampleSnapshot(ctx context.Context, e collections.Example) error {
	res, err := d.db.ExecContext(ctx, `UPDATE examples SET snapshot_kind = ?, snapshot = ?, expect_is_error = ? WHERE collection_id = ? AND id = ?`,
		string(e.SnapshotKind), string(e.Snapshot), e.ExpectIsError, e.CollectionID, e.ID)
	if err != nil {
		return fmt.Errorf("store: set the snapshot of example %d: %w", e.ID, err)
	}
	return mustAffect(res, "Example %d does not exist in this collection.", e.ID)
}

// MoveExample implements collections.Store.
func (d *DB) MoveExample(ctx context.Context, collectionID, id int64, up bool) error {
	conn, err := d.db.Connx(ctx)
	if err != nil {
		return fmt.Errorf("store: move example %d: %w", id, err)
	}
	defer conn.Close()
	return inTx(ctx, conn, func(tx *sqlx.Tx) error {
		var pos int
		err := tx.GetContext(ctx, &pos, `SELECT position FROM examples WHERE collection_id = ? AND id = ?`, collectionID, id)
		if errors.Is(err, sql.ErrNoRows) {
			return backend.Errorf(backend.ENotFound, "Example %d does not exist in this collection.", id)
		}
		if err != nil {
			return fmt.Errorf("store: move example %d: %w", id, err)
		}
		q := `SELECT id, position FROM examples WHERE collection_id = ? AND position > ? ORDER BY position LIMIT 1`
		if up {
			q = `SELECT id, position FROM examples WHERE collection_id = ? AND position < ? ORDER BY position DESC LIMIT 1`
		}
		var other struct {
			ID       int64 `db:"id"`
			Position int   `db:"position"`
		}
		err = tx.GetContext(ctx, &other, q, collectionID, pos)
		if errors.Is(err, sql.ErrNoRows) {
			return nil // already at that end
		}
		if err != nil {
			return fmt.Errorf("store: move example %d: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE examples SET position = ? WHERE id = ?`, other.Position, id); err != nil {
			return fmt.Errorf("store: move example %d: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE examples SET position = ? WHERE id = ?`, pos, other.ID); err != nil {
			return fmt.Errorf("store: move example %d: %w", id, err)
		}
		return nil
	})
}

// DeleteExample implements collections.Store.
func (d *DB) DeleteExample(ctx context.Context, collectionID, id int64) error {
	res, err := d.db.ExecContext(ctx, `DELETE FROM examples WHERE collection_id = ? AND id = ?`, collectionID, id)
	if err != nil {
		return fmt.Errorf("store: delete example %d: %w", id, err)
	}
	return mustAffect(res, "Example %d does not exist in this collection.", id)
}
