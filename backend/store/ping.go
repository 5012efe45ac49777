package store

import (
	"context"
	"fmt"
)

// Ping runs a trivial query, so that a health check knows the database
// answers.
func (d *DB) Ping(ctx context.Context) error {
	var one int
	if err := d.db.GetContext(ctx, &one, `SELECT 1`); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}
