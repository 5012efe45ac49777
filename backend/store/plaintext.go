package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/mcp-playground/playground/backend"
)

// Older versions stored server URLs, the URLs in frames' HTTP info, and
// error texts quoting those URLs (close reasons, transport notes) in
// plaintext. SQL cannot encrypt, so Open runs sealOlderPlaintext after the
// migrations: it seals or redacts what it finds, with secure_delete on, so
// that the replaced text is zeroed rather than left in free space, and then
// empties the WAL into the main file.

// urlsSealedKey is the setting that records that frames and sessions have
// been swept for plaintext URL secrets; servers are checked on every Open,
// which costs one small query.
const urlsSealedKey = "url_secrets_sealed"

// sweepBatch is how many frames one transaction of the sweep rewrites.
const sweepBatch = 500

// sealOlderPlaintext seals plaintext server URLs and, once per database,
// seals the URLs of frames' HTTP info and redacts URLs in close reasons and
// transport notes.
func (d *DB) sealOlderPlaintext(ctx context.Context) error {
	conn, err := d.db.Connx(ctx)
	if err != nil {
		return fmt.Errorf("store: seal plaintext secrets: %w", err)
	}
	defer conn.Close()
	var swept bool
	if err := conn.GetContext(ctx, &swept, `SELECT COUNT(*) > 0 FROM settings WHERE key = ?`, urlsSealedKey); err != nil {
		return fmt.Errorf("store: seal plaintext secrets: %w", err)
	}
	var servers []serverRow
	if err := conn.SelectContext(ctx, &servers, `SELECT id, url FROM servers WHERE url != '' AND url NOT LIKE ?`, encryptedPrefix+"%"); err != nil {
		return fmt.Errorf("store: seal plaintext secrets: %w", err)
	}
	if swept && len(servers) == 0 {
		return nil
	}
	var secureDelete int
	if err := conn.GetContext(ctx, &secureDelete, `PRAGMA secure_delete`); err != nil {
		return fmt.Errorf("store: seal plaintext secrets: %w", err)
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA secure_delete = ON`); err != nil {
		return fmt.Errorf("store: seal plaintext secrets: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf(`PRAGMA secure_delete = %d`, secureDelete))

	changed := 0
	if err := inTx(ctx, conn, func(tx *sqlx.Tx) error {
		for _, r := range servers {
			sealed, err := d.sealURL(r.URL)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE servers SET url = ? WHERE id = ?`, sealed, r.ID); err != nil {
				return err
			}
			changed++
		}
		return nil
	}); err != nil {
		return fmt.Errorf("store: seal plaintext server URLs: %w", err)
	}
	if !swept {
		n, err := d.sweepFrames(ctx, conn)
		if err != nil {
			return err
		}
		changed += n
		if err := inTx(ctx, conn, func(tx *sqlx.Tx) error {
			var rows []sessionRow
			if err := tx.SelectContext(ctx, &rows, `SELECT id, close_reason FROM sessions WHERE close_reason LIKE '%://%'`); err != nil {
				return err
			}
			for _, r := range rows {
				if redacted := backend.RedactURLsIn(r.CloseReason); redacted != r.CloseReason {
					if _, err := tx.ExecContext(ctx, `UPDATE sessions SET close_reason = ? WHERE id = ?`, redacted, r.ID); err != nil {
						return err
					}
					changed++
				}
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, '1') ON CONFLICT (key) DO NOTHING`, urlsSealedKey)
			return err
		}); err != nil {
			return fmt.Errorf("store: redact URLs in close reasons: %w", err)
		}
	}
	if changed > 0 {
		// Copy every page into the main file and empty the WAL, which still
		// holds the pages as they were. A reader of another process can keep
		// the WAL from being emptied; it is then emptied by a later checkpoint.
		if _, err := conn.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			return fmt.Errorf("store: checkpoint after sealing secrets: %w", err)
		}
	}
	return nil
}

// sweepFrames seals the plaintext URLs of frames' HTTP info and redacts
// the URLs quoted by transport notes, in batches, and returns how many
// frames it rewrote.
func (d *DB) sweepFrames(ctx context.Context, conn *sqlx.Conn) (int, error) {
	type row struct {
		ID   int64          `db:"id"`
		Kind string         `db:"kind"`
		Body []byte         `db:"body"`
		HTTP sql.NullString `db:"http"`
	}
	changed := 0
	for after := int64(0); ; {
		var rows []row
		if err := conn.SelectContext(ctx, &rows, `SELECT f.id, f.kind, f.http,
				CASE WHEN f.body_size > length(f.body) THEN (SELECT b.body FROM frame_bodies b WHERE b.frame_id = f.id) ELSE f.body END AS body
			FROM frames f WHERE f.id > ? AND (f.http LIKE '%://%' OR f.kind = 'transport') ORDER BY f.id LIMIT ?`, after, sweepBatch); err != nil {
			return changed, fmt.Errorf("store: sweep frames for plaintext URLs: %w", err)
		}
		if len(rows) == 0 {
			return changed, nil
		}
		after = rows[len(rows)-1].ID
		if err := inTx(ctx, conn, func(tx *sqlx.Tx) error {
			for _, r := range rows {
				body := r.Body
				if r.Kind == "transport" {
					body = []byte(backend.RedactURLsIn(string(r.Body)))
				}
				httpJSON := r.HTTP
				if r.HTTP.Valid && plaintextURLSecrets(r.HTTP.String) {
					info, err := d.openHTTP(r.HTTP)
					if err != nil {
						return fmt.Errorf("frame %d http info: %w", r.ID, err)
					}
					if httpJSON, err = d.encodeHTTP(info, nil); err != nil {
						return fmt.Errorf("frame %d http info: %w", r.ID, err)
					}
				}
				if string(body) == string(r.Body) && httpJSON == r.HTTP {
					continue
				}
				// As InsertFrames stores it: a long body whole in
				// frame_bodies, its first bytes in frames.
				head := body[:min(len(body), backend.MaxBodyPreview)]
				if _, err := tx.ExecContext(ctx, `UPDATE frames SET body = ?, body_size = ?, http = ? WHERE id = ?`,
					head, len(body), httpJSON, r.ID); err != nil {
					return err
				}
				var err error
				if len(head) < len(body) {
					_, err = tx.ExecContext(ctx, `INSERT INTO frame_bodies (frame_id, body) VALUES (?, ?)
						ON CONFLICT (frame_id) DO UPDATE SET body = excluded.body`, r.ID, body)
				} else {
					_, err = tx.ExecContext(ctx, `DELETE FROM frame_bodies WHERE frame_id = ?`, r.ID)
				}
				if err != nil {
					return err
				}
				changed++
			}
			return nil
		}); err != nil {
			return changed, fmt.Errorf("store: sweep frames for plaintext URLs: %w", err)
		}
	}
}

// plaintextURLSecrets reports whether the http column col stores a URL
// with secrets in plaintext, as older versions did.
func plaintextURLSecrets(col string) bool {
	var st storedHTTP
	if json.Unmarshal([]byte(col), &st) != nil {
		return false
	}
	return st.SealedURL == "" && backend.RedactURL(st.URL) != st.URL
}

// inTx runs fn in a transaction on conn, committing when it returns nil.
func inTx(ctx context.Context, conn *sqlx.Conn, fn func(*sqlx.Tx) error) error {
	tx, err := conn.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}
