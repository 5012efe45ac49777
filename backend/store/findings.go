package store

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

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
		c.AddN(lint.Severity(r.Severity), r.N)
		out[r.SessionID] = c
	}
	return out, nil
}

// LintReport implements backend.FrameStore: one pass over the server's
// sessions' findings (index frame_findings_session), grouped by code.
func (d *DB) LintReport(ctx context.Context, serverID int64) ([]backend.LintCodeReport, error) {
	var rows []struct {
		Code            string `db:"code"`
		Worst           int    `db:"worst"` // backend.LintRank
		Findings        int    `db:"findings"`
		Sessions        int    `db:"sessions"`
		First           int64  `db:"first"`
		Last            int64  `db:"last"`
		Frame           int64  `db:"frame"`
		SessionID       int64  `db:"session_id"`
		ExampleSeverity string `db:"example_severity"`
		Pointer         string `db:"pointer"`
		Message         string `db:"message"`
		Spec            string `db:"spec"`
	}
	// The bare columns come from the row holding MAX(ff.frame_id), as
	// SQLite defines for a single max() aggregate: the newest finding.
	err := d.db.SelectContext(ctx, &rows, `
		SELECT r.code, r.worst, r.findings, r.sessions, r.first, r.last, r.frame, x.session_id, x.severity AS example_severity, x.pointer, x.message, x.spec
		FROM (SELECT ff.code, MIN(CASE ff.severity WHEN 'error' THEN 0 WHEN 'warning' THEN 1 ELSE 2 END) AS worst, COUNT(*) AS findings, COUNT(DISTINCT ff.session_id) AS sessions,
				MIN(ff.time) AS first, MAX(ff.time) AS last, MAX(ff.frame_id) AS frame
			FROM frame_findings ff JOIN sessions s ON s.id = ff.session_id
			WHERE s.server_id = ? GROUP BY ff.code) r
		JOIN frame_findings x ON x.rowid = (SELECT rowid FROM frame_findings WHERE frame_id = r.frame AND code = r.code LIMIT 1)`, serverID)
	if err != nil {
		return nil, fmt.Errorf("store: lint report of server %d: %w", serverID, err)
	}
	out := make([]backend.LintCodeReport, len(rows))
	for i, r := range rows {
		rule, _ := lint.RuleOf(r.Code)
		sev := []lint.Severity{lint.SevError, lint.SevWarning, lint.SevInfo}[min(max(r.Worst, 0), 2)]
		out[i] = backend.LintCodeReport{Code: r.Code, Severity: sev, Findings: r.Findings, Sessions: r.Sessions,
			FirstSeen: fromUnixNano(r.First), LastSeen: fromUnixNano(r.Last), ExampleFrameID: r.Frame, ExampleSessionID: r.SessionID,
			Example: lint.Finding{Code: r.Code, Severity: lint.Severity(r.ExampleSeverity), Pointer: r.Pointer, Message: r.Message, Spec: r.Spec, Fix: rule.Fix}}
	}
	slices.SortStableFunc(out, func(a, b backend.LintCodeReport) int {
		if c := cmp.Compare(backend.LintRank(a.Severity), backend.LintRank(b.Severity)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Findings, a.Findings); c != 0 {
			return c
		}
		return strings.Compare(a.Code, b.Code)
	})
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
