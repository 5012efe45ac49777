package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/oauth"
)

type flowRow struct {
	ID        int64  `db:"id"`
	ServerID  int64  `db:"server_id"`
	UserID    int64  `db:"user_id"`
	UserName  string `db:"user_name"`
	Issuer    string `db:"issuer"`
	Status    string `db:"status"`
	Err       string `db:"err"`
	StartedAt int64  `db:"started_at"`
	EndedAt   int64  `db:"ended_at"`
}

const flowColumns = `f.id, f.server_id, f.user_id, u.name AS user_name, f.issuer, f.status, f.err, f.started_at, f.ended_at
	FROM oauth_flows f JOIN users u ON u.id = f.user_id`

func (r flowRow) flow() oauth.Flow {
	f := oauth.Flow{ID: r.ID, ServerID: r.ServerID, UserID: r.UserID, UserName: r.UserName, Issuer: r.Issuer,
		Status: oauth.FlowStatus(r.Status), Err: r.Err, StartedAt: fromUnixNano(r.StartedAt)}
	if r.EndedAt != 0 {
		f.EndedAt = fromUnixNano(r.EndedAt)
	}
	return f
}

type stepRow struct {
	ID             int64  `db:"id"`
	FlowID         int64  `db:"flow_id"`
	Seq            int    `db:"seq"`
	Kind           string `db:"kind"`
	Title          string `db:"title"`
	Method         string `db:"method"`
	URL            string `db:"url"`
	RequestHeader  string `db:"request_header"`
	RequestBody    string `db:"request_body"`
	Status         int    `db:"status"`
	ResponseHeader string `db:"response_header"`
	ResponseBody   string `db:"response_body"`
	Err            string `db:"err"`
	Checks         string `db:"checks"`
	ElapsedNS      int64  `db:"elapsed_ns"`
	At             int64  `db:"at"`
	RerunOf        int64  `db:"rerun_of"`
}

func (r stepRow) step() (oauth.Step, error) {
	s := oauth.Step{ID: r.ID, FlowID: r.FlowID, Seq: r.Seq, Kind: oauth.StepKind(r.Kind), Title: r.Title,
		Method: r.Method, URL: r.URL, RequestBody: r.RequestBody, Status: r.Status, ResponseBody: r.ResponseBody, Err: r.Err,
		Elapsed: time.Duration(r.ElapsedNS), At: fromUnixNano(r.At), RerunOf: r.RerunOf}
	for _, j := range []struct {
		text string
		into any
	}{{r.RequestHeader, &s.RequestHeader}, {r.ResponseHeader, &s.ResponseHeader}, {r.Checks, &s.Checks}} {
		if err := json.Unmarshal([]byte(j.text), j.into); err != nil {
			return s, fmt.Errorf("store: OAuth step %d: %w", r.ID, err)
		}
	}
	return s, nil
}

// CreateOAuthFlow implements oauth.Store.
func (d *DB) CreateOAuthFlow(ctx context.Context, f oauth.Flow) (int64, error) {
	res, err := d.db.ExecContext(ctx, `INSERT INTO oauth_flows (server_id, user_id, issuer, status, started_at) VALUES (?, ?, ?, ?, ?)`,
		f.ServerID, f.UserID, f.Issuer, string(oauth.FlowRunning), unixNano(f.StartedAt))
	if err != nil {
		return 0, fmt.Errorf("store: create OAuth flow: %w", err)
	}
	return res.LastInsertId()
}

// EndOAuthFlow implements oauth.Store.
func (d *DB) EndOAuthFlow(ctx context.Context, id int64, status oauth.FlowStatus, issuer, reason string, at time.Time) error {
	_, err := d.db.ExecContext(ctx, `UPDATE oauth_flows SET status = ?, issuer = CASE WHEN ? = '' THEN issuer ELSE ? END, err = ?, ended_at = ? WHERE id = ?`,
		string(status), issuer, issuer, reason, unixNano(at), id)
	if err != nil {
		return fmt.Errorf("store: end OAuth flow %d: %w", id, err)
	}
	return nil
}

// EndRunningOAuthFlows fails every flow still running, with reason, and
// says how many it ended. Only a start, before any sign-in begins, may
// call it.
func (d *DB) EndRunningOAuthFlows(ctx context.Context, reason string, at time.Time) (int64, error) {
	res, err := d.db.ExecContext(ctx, `UPDATE oauth_flows SET status = ?, err = ?, ended_at = ? WHERE status = ?`,
		string(oauth.FlowFailed), reason, unixNano(at), string(oauth.FlowRunning))
	if err != nil {
		return 0, fmt.Errorf("store: end running OAuth flows: %w", err)
	}
	return res.RowsAffected()
}

// maxRenewalSteps is how many token renewals (refreshes, client
// credentials grants) a flow keeps: a grant renewed every hour for a year
// would otherwise grow its flow, and the debugger page, without bound.
const maxRenewalSteps = 100

// AddOAuthStep implements oauth.Store. A renewal step beyond the
// latest maxRenewalSteps of its flow drops the oldest, with their re-runs.
func (d *DB) AddOAuthStep(ctx context.Context, s oauth.Step) (int64, error) {
	jsonOf := func(v any, empty string) string {
		b, err := json.Marshal(v)
		if err != nil || string(b) == "null" {
			return empty
		}
		return string(b)
	}
	res, err := d.db.ExecContext(ctx, `INSERT INTO oauth_steps (flow_id, seq, kind, title, method, url, request_header, request_body, status,
		response_header, response_body, err, checks, elapsed_ns, at, rerun_of)
		VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM oauth_steps WHERE flow_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.FlowID, s.FlowID, string(s.Kind), s.Title, s.Method, s.URL, jsonOf(s.RequestHeader, "{}"), s.RequestBody, s.Status,
		jsonOf(s.ResponseHeader, "{}"), s.ResponseBody, s.Err, jsonOf(s.Checks, "[]"), int64(s.Elapsed), unixNano(s.At), s.RerunOf)
	if err != nil {
		return 0, fmt.Errorf("store: add OAuth step: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil || s.RerunOf != 0 || (s.Kind != oauth.StepRefresh && s.Kind != oauth.StepClientCredentials) {
		return id, err
	}
	_, err = d.db.ExecContext(ctx, `WITH old AS (
			SELECT id FROM oauth_steps WHERE flow_id = ? AND rerun_of = 0 AND kind IN (?, ?)
			ORDER BY seq DESC LIMIT -1 OFFSET ?)
		DELETE FROM oauth_steps WHERE id IN (SELECT id FROM old) OR rerun_of IN (SELECT id FROM old)`,
		s.FlowID, string(oauth.StepRefresh), string(oauth.StepClientCredentials), maxRenewalSteps)
	if err != nil {
		return id, fmt.Errorf("store: drop old OAuth renewals: %w", err)
	}
	return id, nil
}

// OAuthFlow implements oauth.Store.
func (d *DB) OAuthFlow(ctx context.Context, id int64) (oauth.Flow, error) {
	var r flowRow
	err := d.db.GetContext(ctx, &r, `SELECT `+flowColumns+` WHERE f.id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return oauth.Flow{}, backend.Errorf(backend.ENotFound, "Sign-in %d does not exist.", id)
	}
	if err != nil {
		return oauth.Flow{}, fmt.Errorf("store: OAuth flow %d: %w", id, err)
	}
	f := r.flow()
	var steps []stepRow
	if err := d.db.SelectContext(ctx, &steps, `SELECT * FROM oauth_steps WHERE flow_id = ? ORDER BY seq`, id); err != nil {
		return f, fmt.Errorf("store: OAuth flow %d steps: %w", id, err)
	}
	for _, sr := range steps {
		s, err := sr.step()
		if err != nil {
			return f, err
		}
		f.Steps = append(f.Steps, s)
	}
	return f, nil
}

// OAuthStep implements oauth.Store.
func (d *DB) OAuthStep(ctx context.Context, id int64) (oauth.Step, error) {
	var r stepRow
	err := d.db.GetContext(ctx, &r, `SELECT * FROM oauth_steps WHERE id = ?`, id)
	if errors.Is(err, sql.ErrNoRows) {
		return oauth.Step{}, backend.Errorf(backend.ENotFound, "Step %d does not exist.", id)
	}
	if err != nil {
		return oauth.Step{}, fmt.Errorf("store: OAuth step %d: %w", id, err)
	}
	return r.step()
}

// OAuthFlows implements oauth.Store.
func (d *DB) OAuthFlows(ctx context.Context, serverID int64, limit int) ([]oauth.Flow, error) {
	var rows []flowRow
	if err := d.db.SelectContext(ctx, &rows, `SELECT `+flowColumns+` WHERE f.server_id = ? ORDER BY f.id DESC LIMIT ?`, serverID, limit); err != nil {
		return nil, fmt.Errorf("store: OAuth flows: %w", err)
	}
	out := make([]oauth.Flow, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.flow())
	}
	return out, nil
}

var _ oauth.Store = (*DB)(nil)
