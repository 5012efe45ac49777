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

// Secret environment values are stored sealed (see secrets.go); listings
// never open them.

type envValueRow struct {
	EnvironmentID int64  `db:"environment_id"`
	Name          string `db:"name"`
	Value         string `db:"value"`
	Secret        bool   `db:"secret"`
}

// ListEnvironments implements collections.EnvironmentStore.
func (d *DB) ListEnvironments(ctx context.Context, collectionID int64) ([]collections.Environment, error) {
	var envs []struct {
		ID      int64  `db:"id"`
		Name    string `db:"name"`
		Origins string `db:"origins"`
	}
	if err := d.db.SelectContext(ctx, &envs, `SELECT id, name, origins FROM environments WHERE collection_id = ? ORDER BY name`, collectionID); err != nil {
		return nil, fmt.Errorf("store: environments of collection %d: %w", collectionID, err)
	}
	var values []envValueRow
	if err := d.db.SelectContext(ctx, &values, `
	SELECT v.environment_id, v.name, v.value, v.secret FROM environment_values v
	JOIN environments e ON e.id = v.environment_id WHERE e.collection_id = ? ORDER BY v.name`, collectionID); err != nil {
		return nil, fmt.Errorf("store: environment values of collection %d: %w", collectionID, err)
	}
	out := make([]collections.Environment, len(envs))
	index := map[int64]int{}
	for i, e := range envs {
		out[i] = collections.Environment{ID: e.ID, CollectionID: collectionID, Name: e.Name}
		if err := json.Unmarshal([]byte(e.Origins), &out[i].Origins); err != nil {
			return nil, fmt.Errorf("store: origins of environment %d: %w", e.ID, err)
		}
		index[e.ID] = i
	}
	for _, v := range values {
		e := &out[index[v.EnvironmentID]]
		e.Values = append(e.Values, shownValue(v))
	}
	return out, nil
}

// shownValue is a stored value as listings show it: a secret's left empty.
func shownValue(v envValueRow) collections.EnvValue {
	if v.Secret {
		return collections.EnvValue{Name: v.Name, Secret: true}
	}
	return collections.EnvValue{Name: v.Name, Value: v.Value}
}

// GetEnvironment implements collections.EnvironmentStore.
func (d *DB) GetEnvironment(ctx context.Context, collectionID, id int64) (collections.Environment, error) {
	envs, err := d.ListEnvironments(ctx, collectionID)
	if err != nil {
		return collections.Environment{}, err
	}
	for _, e := range envs {
		if e.ID == id {
			return e, nil
		}
	}
	return collections.Environment{}, backend.Errorf(backend.ENotFound, "Environment %d does not exist in this collection.", id)
}

// SaveEnvironment implements collections.EnvironmentStore.
func (d *DB) SaveEnvironment(ctx context.Context, e collections.Environment) (collections.Environment, error) {
	conn, err := d.db.Connx(ctx)
	if err != nil {
		return collections.Environment{}, fmt.Errorf("store: save environment: %w", err)
	}
	defer conn.Close()
	err = inTx(ctx, conn, func(tx *sqlx.Tx) (err error) {
		e.ID, err = d.saveEnvironment(ctx, tx, e)
		return err
	})
	if err != nil {
		return collections.Environment{}, err
	}
	return d.GetEnvironment(ctx, e.CollectionID, e.ID)
}

// saveEnvironment creates or updates e within tx and returns its id.
func (d *DB) saveEnvironment(ctx context.Context, tx *sqlx.Tx, e collections.Environment) (int64, error) {
	kept, err := d.keptSecrets(ctx, tx, e)
	if err != nil {
		return 0, err
	}
	origins, err := jsonList(e.Origins)
	if err != nil {
		return 0, fmt.Errorf("store: save environment: %w", err)
	}
	if e.ID == 0 {
		err = tx.GetContext(ctx, &e.ID, `INSERT INTO environments (collection_id, name, origins) VALUES (?, ?, ?) RETURNING id`, e.CollectionID, e.Name, origins)
	} else {
		var res sql.Result
		if res, err = tx.ExecContext(ctx, `UPDATE environments SET name = ?, origins = ? WHERE collection_id = ? AND id = ?`, e.Name, origins, e.CollectionID, e.ID); err == nil {
			err = mustAffect(res, "Environment %d does not exist in this collection.", e.ID)
		}
	}
	if err != nil {
		return 0, environmentConflict(e.Name, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM environment_values WHERE environment_id = ?`, e.ID); err != nil {
		return 0, fmt.Errorf("store: save environment %d: %w", e.ID, err)
	}
	for _, v := range e.Values {
		stored := v.Value
		if v.Secret {
			if stored == "" {
				stored = kept[v.Name]
			} else if stored, err = d.seal([]byte(v.Value)); err != nil {
				return 0, err
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO environment_values (environment_id, name, value, secret) VALUES (?, ?, ?, ?)`,
			e.ID, v.Name, stored, v.Secret); err != nil {
			return 0, fmt.Errorf("store: save environment %d: %w", e.ID, err)
		}
	}
	return e.ID, nil
}

// keptSecrets are the sealed values stored for the secrets of e whose new
// value is left empty, by name ("" seals to nothing: the value stays empty
// when none was stored).
func (d *DB) keptSecrets(ctx context.Context, tx *sqlx.Tx, e collections.Environment) (map[string]string, error) {
	kept := map[string]string{}
	if e.ID == 0 {
		return kept, nil
	}
	var rows []envValueRow
	if err := tx.SelectContext(ctx, &rows, `SELECT environment_id, name, value, secret FROM environment_values WHERE environment_id = ? AND secret = 1`, e.ID); err != nil {
		return nil, fmt.Errorf("store: environment %d: %w", e.ID, err)
	}
	for _, r := range rows {
		kept[r.Name] = r.Value
	}
	return kept, nil
}

func environmentConflict(name string, err error) error {
	var be *backend.Error
	switch {
	case errors.As(err, &be):
		return err
	case strings.Contains(err.Error(), "UNIQUE constraint failed: environments.collection_id, environments.name"):
		msg := fmt.Sprintf("This collection already has an environment named %q.", name)
		return &backend.Error{Code: backend.EConflict, Message: msg, Fields: map[string]string{"name": msg}}
	case strings.Contains(err.Error(), "FOREIGN KEY constraint failed"):
		return backend.Errorf(backend.ENotFound, "The collection does not exist.")
	}
	return fmt.Errorf("store: save environment %q: %w", name, err)
}

// DeleteEnvironment implements collections.EnvironmentStore.
func (d *DB) DeleteEnvironment(ctx context.Context, collectionID, id int64) error {
	res, err := d.db.ExecContext(ctx, `DELETE FROM environments WHERE collection_id = ? AND id = ?`, collectionID, id)
	if err != nil {
		return fmt.Errorf("store: delete environment %d: %w", id, err)
	}
	return mustAffect(res, "Environment %d does not exist in this collection.", id)
}

// EnvironmentValues implements collections.EnvironmentStore.
func (d *DB) EnvironmentValues(ctx context.Context, collectionID, id int64) (map[string]string, error) {
	if _, err := d.GetEnvironment(ctx, collectionID, id); err != nil {
		return nil, err
	}
	var rows []envValueRow
	if err := d.db.SelectContext(ctx, &rows, `SELECT environment_id, name, value, secret FROM environment_values WHERE environment_id = ?`, id); err != nil {
		return nil, fmt.Errorf("store: environment %d: %w", id, err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.Name] = r.Value
		if r.Secret && r.Value != "" {
			plain, err := d.open(r.Value)
			if err != nil {
				return nil, fmt.Errorf("store: environment %d: %s: %w", id, r.Name, err)
			}
			out[r.Name] = string(plain)
		}
	}
	return out, nil
}
