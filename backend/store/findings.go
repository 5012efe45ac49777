package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcp-playground/playground/backend"

	"github.com/mcp-playground/playground/mcpclient/lint"
)

// findingsColumn selects the findings of frame f as a JSON array of
// [code, severity, pointer, message, spec] arrays, in the order they were
// found ("[]" when none); findingsOf reads it.
const findingsColumn = `(SELECT json_group_array(json_array(ff.code, ff.severity, ff.pointer, ff.message, ff.spec))
		FROM (SELECT * FROM frame_findings WHERE frame_id = f.id ORDER BY rowid) ff)`

// CountFindings implements backend.FrameStore, from the index on
// (session_id, severity).
func (d *DB) CountFindings(ctx context.Context, sessionIDs ...int64) (map[int64]backend.FindingCount, error) {
	out := map[int64]backend.FindingCount{}
	if len(sessionIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(sessionIDs))
	for i, id := range sessionIDs {
		args[i] = id
	}
	var rows []struct {
		SessionID int64  `db:"session_id"`
		Severity  string `db:"severity"`
		N         int    `db:"n"`
	}
	if err := d.db.SelectContext(ctx, &rows, `SELECT session_id, severity, COUNT(*) AS n FROM frame_findings
		WHERE session_id IN (`+placeholders(len(sessionIDs), 1)+`) GROUP BY session_id, severity`, args...); err != nil {
		return nil, fmt.Errorf("store: count findings: %w", err)
	}
	for _, r := range rows {
		c := out[r.SessionID]
		switch lint.Severity(r.Severity) {
		case lint.SevError:
			c.Errors = r.N
		case lint.SevWarning:
			c.Warnings = r.N
		case lint.SevInfo:
			c.Infos = r.N
		}
		out[r.SessionID] = c
	}
	return out, nil
}

// findingsOf reads findingsColumn, giving each finding its rule's fix.
func findingsOf(col string) ([]lint.Finding, error) {
	if col == "" || col == "[]" {
		return nil, nil
	}
	var rows [][5]string
	if err := json.Unmarshal([]byte(col), &rows); err != nil {
		return nil, err
	}
	out := make([]lint.Finding, len(rows))
	for i, r := range rows {
		rule, _ := lint.RuleOf(r[0])
		out[i] = lint.Finding{Code: r[0], Severity: lint.Severity(r[1]), Pointer: r[2], Message: r[3], Spec: r[4], Fix: rule.Fix}
	}
	return out, nil
}
