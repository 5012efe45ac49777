package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Setting implements backend.SettingStore.
func (d *DB) Setting(ctx context.Context, key string) (string, bool, error) {
	var v string
	err := d.db.GetContext(ctx, &v, `SELECT value FROM settings WHERE key = ?`, key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("store: setting %s: %w", key, err)
	}
	return v, true, nil
}

// SetSetting implements backend.SettingStore.
func (d *DB) SetSetting(ctx context.Context, key, value string) error {
	if _, err := d.db.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value); err != nil {
		return fmt.Errorf("store: set setting %s: %w", key, err)
	}
	return nil
}
