package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
)

type runRow struct {
	ID           int64         `db:"id"`
	CollectionID int64         `db:"collection_id"`
	SessionID    sql.NullInt64 `db:"session_id"`
	ServerName   string        `db:"server_name"`
	StartedAt    int64         `db:"started_at"`
	FinishedAt   sql.NullInt64 `db:"finished_at"`
	Passed       int           `db:"passed"`
	Failed       int           `db:"failed"`
	Total        int           `db:"total"`
	Environment  string        `db:"environment"`
	Interrupted  bool          `db:"interrupted"`
}

func (r runRow) run() collections.Run {
	run := collections.Run{ID: r.ID, CollectionID: r.CollectionID, SessionID: r.SessionID.Int64, ServerName: r.ServerName,
		Started: fromUnixNano(r.StartedAt), Passed: r.Passed, Failed: r.Failed, Total: r.Total, Environment: r.Environment, Interrupted: r.Interrupted}
	if r.FinishedAt.Valid {
		run.Finished = fromUnixNano(r.FinishedAt.Int64)
	}
	return run
}

// runColumns reads a run; while it goes (finished_at NULL) its counts
// are those of the results stored so far.
const runColumns = `SELECT id, collection_id, session_id, server_name, started_at, finished_at,
	CASE WHEN finished_at IS NULL THEN (SELECT COUNT(*) FROM run_results r WHERE r.run_id = collection_runs.id AND r.outcome = 'pass') ELSE passed END AS passed,
	CASE WHEN finished_at IS NULL THEN (SELECT COUNT(*) FROM run_results r WHERE r.run_id = collection_runs.id AND r.outcome <> 'pass') ELSE failed END AS failed,
	total, environment, interrupted
	FROM collection_runs`

// CreateRun implements collections.RunStore.
func (d *DB) CreateRun(ctx context.Context, r collections.Run) (collections.Run, error) {
	res, err := d.db.ExecContext(ctx, `INSERT INTO collection_runs (collection_id, session_id, server_name, started_at, total, environment)
		VALUES (?, ?, ?, ?, ?, ?)`,
		r.CollectionID, sql.NullInt64{Int64: r.SessionID, Valid: r.SessionID != 0}, r.ServerName, unixNano(r.Started), r.Total, r.Environment)
	if err != nil {
		return collections.Run{}, fmt.Errorf("store: create run of collection %d: %w", r.CollectionID, err)
	}
	if r.ID, err = res.LastInsertId(); err != nil {
		return collections.Run{}, fmt.Errorf("store: create run: %w", err)
	}
	return r, nil
}

// AddRunResult implements collections.RunStore.
func (d *DB) AddRunResult(ctx context.Context, r collections.RunResult) error {
	diff, err := jsonList(r.Diff)
	if err != nil {
		return fmt.Errorf("store: add run result: %w", err)
	}
	checks, err := jsonList(r.Checks)
	if err != nil {
		return fmt.Errorf("store: add run result: %w", err)
	}
	_, err = d.db.ExecContext(ctx, `
	INSERT INTO run_results (run_id, example_id, example_name, outcome, message, diff, checks, latency_ns, response_frame_id)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.RunID, sql.NullInt64{Int64: r.ExampleID, Valid: r.ExampleID != 0}, r.ExampleName, string(r.Outcome), r.Message, diff, checks,
		int64(r.Latency), sql.NullInt64{Int64: r.ResponseFrameID, Valid: r.ResponseFrameID != 0})
	if err != nil {
		return fmt.Errorf("store: add result of run %d: %w", r.RunID, err)
	}
	return nil
}

// FinishRun implements collections.RunStore.
func (d *DB) FinishRun(ctx context.Context, r collections.Run) error {
	res, err := d.db.ExecContext(ctx, `UPDATE collection_runs SET finished_at = ?, passed = ?, failed = ? WHERE id = ?`,
		unixNano(r.Finished), r.Passed, r.Failed, r.ID)
	if err != nil {
		return fmt.Errorf("store: finish run %d: %w", r.ID, err)
	}
	return mustAffect(res, "Run %d does not exist.", r.ID)
}

// EndInterruptedRuns implements collections.RunStore.
func (d *DB) EndInterruptedRuns(ctx context.Context, at time.Time) (int64, error) {
	res, err := d.db.ExecContext(ctx, `UPDATE collection_runs SET finished_at = ?, interrupted = 1,
		passed = (SELECT COUNT(*) FROM run_results r WHERE r.run_id = collection_runs.id AND r.outcome = 'pass'),
		failed = (SELECT COUNT(*) FROM run_results r WHERE r.run_id = collection_runs.id AND r.outcome <> 'pass')
		WHERE finished_at IS NULL`, unixNano(at))
	if err != nil {
		return 0, fmt.Errorf("store: end interrupted runs: %w", err)
	}
	return res.RowsAffected()
}

// PreferredServers implements collections.RunStore.
func (d *DB) PreferredServers(ctx context.Context, collectionID int64) ([]int64, error) {
	var ids []int64
	err := d.db.SelectContext(ctx, &ids, `
	SELECT id FROM (
		SELECT 1 AS rank, server_id AS id FROM (
			SELECT server_id FROM examples WHERE collection_id = ?1 AND server_id IS NOT NULL
			GROUP BY server_id ORDER BY COUNT(*) DESC, MAX(id) DESC LIMIT 1)
		UNION ALL
		SELECT 2, id FROM (
			SELECT s.server_id AS id FROM collection_runs r JOIN sessions s ON s.id = r.session_id
			WHERE r.collection_id = ?1 AND s.server_id IS NOT NULL ORDER BY r.id DESC LIMIT 1)
	) ORDER BY rank`, collectionID)
	if err != nil {
		return nil, fmt.Errorf("store: preferred servers of collection %d: %w", collectionID, err)
	}
	return ids, nil
}

type runResultRow struct {
	ID              int64         `db:"id"`
	RunID           int64         `db:"run_id"`
	ExampleID       sql.NullInt64 `db:"example_id"`
	ExampleName     string        `db:"example_name"`
	Outcome         string        `db:"outcome"`
	Message         string        `db:"message"`
	Diff            string        `db:"diff"`
	Checks          string        `db:"checks"`
	LatencyNS       int64         `db:"latency_ns"`
	ResponseFrameID sql.NullInt64 `db:"response_frame_id"`
}

// GetRun implements collections.RunStore.
func (d *DB) GetRun(ctx context.Context, collectionID, runID int64) (collections.Run, []collections.RunResult, error) {
	var r runRow
	err := d.db.GetContext(ctx, &r, runColumns+` WHERE collection_id = ? AND id = ?`, collectionID, runID)
	if errors.Is(err, sql.ErrNoRows) {
		return collections.Run{}, nil, backend.Errorf(backend.ENotFound, "Run %d of this collection does not exist.", runID)
	}
	if err != nil {
		return collections.Run{}, nil, fmt.Errorf("store: get run %d: %w", runID, err)
	}
	var rows []runResultRow
	if err := d.db.SelectContext(ctx, &rows, `
	SELECT id, run_id, example_id, example_name, outcome, message, diff, checks, latency_ns, response_frame_id
	FROM run_results WHERE run_id = ? ORDER BY id`, runID); err != nil {
		return collections.Run{}, nil, fmt.Errorf("store: results of run %d: %w", runID, err)
	}
	results := make([]collections.RunResult, len(rows))
	for i, x := range rows {
		res := collections.RunResult{ID: x.ID, RunID: x.RunID, ExampleID: x.ExampleID.Int64, ExampleName: x.ExampleName,
			Outcome: collections.RunOutcome(x.Outcome), Message: x.Message, Latency: time.Duration(x.LatencyNS),
			ResponseFrameID: x.ResponseFrameID.Int64}
		if err := json.Unmarshal([]byte(x.Diff), &res.Diff); err != nil {
			return collections.Run{}, nil, fmt.Errorf("store: result %d of run %d: diff: %w", x.ID, runID, err)
		}
		if err := json.Unmarshal([]byte(x.Checks), &res.Checks); err != nil {
			return collections.Run{}, nil, fmt.Errorf("store: result %d of run %d: checks: %w", x.ID, runID, err)
		}
		results[i] = res
	}
	return r.run(), results, nil
}

// ListRunsBefore implements collections.RunStore.
func (d *DB) ListRunsBefore(ctx context.Context, collectionID, before int64, limit int) ([]collections.Run, error) {
	if before <= 0 {
		before = math.MaxInt64
	}
	var rows []runRow
	if err := d.db.SelectContext(ctx, &rows, runColumns+` WHERE collection_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
		collectionID, before, limit); err != nil {
		return nil, fmt.Errorf("store: runs of collection %d before %d: %w", collectionID, before, err)
	}
	return runsOf(rows), nil
}

func runsOf(rows []runRow) []collections.Run {
	out := make([]collections.Run, len(rows))
	for i, r := range rows {
		out[i] = r.run()
	}
	return out
}
