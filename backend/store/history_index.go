package store

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// historyIndexBatch is how many queued exchanges one IndexHistory
// transaction indexes: FTS5 indexes large batches several times faster
// than small ones.
const historyIndexBatch = 4096

// historyIndexInterval is how often the background indexer looks at the queue.
const historyIndexInterval = 500 * time.Millisecond

// historyIndexBacklog is how many queued exchanges the background indexer
// lets wait while frames are being recorded. Indexing takes the write
// lock that the recorder needs (it cost a busy recorder a quarter of its
// rate), so during a burst the indexer waits for a pause, unless the queue
// grows past this; a search indexes the queue before it looks, so what it
// finds is whole either way.
const historyIndexBacklog = 100_000

// IndexHistory moves up to limit exchanges from the queue that migration
// 0006's trigger fills into the full-text index, oldest first, in one
// transaction, and returns how many it indexed (fewer than limit: the
// queue is now empty).
func (d *DB) IndexHistory(ctx context.Context, limit int) (int, error) {
	tx, err := d.db.BeginTxx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("store: index history: %w", err)
	}
	defer tx.Rollback()
	var ids struct {
		N    int   `db:"n"`
		Last int64 `db:"last"`
	}
	if err := tx.GetContext(ctx, &ids, `SELECT COUNT(*) AS n, COALESCE(MAX(request_frame_id), 0) AS last
		FROM (SELECT request_frame_id FROM exchanges_fts_pending ORDER BY request_frame_id LIMIT ?)`, limit); err != nil {
		return 0, fmt.Errorf("store: index history: %w", err)
	}
	if ids.N == 0 {
		return 0, nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO exchanges_fts (rowid, body)
		SELECT e.request_frame_id, CAST(rq.body AS TEXT) || char(10) || CAST(rs.body AS TEXT)
		FROM exchanges_fts_pending p
		JOIN exchanges e ON e.request_frame_id = p.request_frame_id
		JOIN frames rq ON rq.id = e.request_frame_id
		JOIN frames rs ON rs.id = e.response_frame_id
		WHERE p.request_frame_id <= ?`, ids.Last); err != nil {
		return 0, fmt.Errorf("store: index history: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM exchanges_fts_pending WHERE request_frame_id <= ?`, ids.Last); err != nil {
		return 0, fmt.Errorf("store: index history: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("store: index history: %w", err)
	}
	return ids.N, nil
}

// indexAllHistory empties the queue.
func (d *DB) indexAllHistory(ctx context.Context) error {
	for {
		n, err := d.IndexHistory(ctx, historyIndexBatch)
		if err != nil || n < historyIndexBatch {
			return err
		}
	}
}

// historyIndexer runs indexAllHistory every historyIndexInterval until
// stopped. Its errors are not reported: a search indexes the queue first
// and reports them then.
type historyIndexer struct {
	stopOnce sync.Once
	cancel   context.CancelFunc
	done     chan struct{}
}

func startHistoryIndexer(d *DB) *historyIndexer {
	ctx, cancel := context.WithCancel(context.Background())
	ix := &historyIndexer{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(ix.done)
		t := time.NewTicker(historyIndexInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if d.recentlyInserted(historyIndexInterval) && d.historyBacklog(ctx) < historyIndexBacklog {
					continue
				}
				_ = d.indexAllHistory(ctx)
			}
		}
	}()
	return ix
}

// historyBacklog is how many exchanges wait to be indexed (0 when it
// cannot tell).
func (d *DB) historyBacklog(ctx context.Context) int {
	var n int
	_ = d.db.GetContext(ctx, &n, `SELECT COUNT(*) FROM exchanges_fts_pending`)
	return n
}

// stop ends the indexer and waits for it. It is safe to call more than once.
func (ix *historyIndexer) stop() {
	ix.stopOnce.Do(func() {
		ix.cancel()
		<-ix.done
	})
}
