package store

import (
	"encoding/json"

	"github.com/mcp-playground/playground/mcpclient/lint"
)

// findingsColumn selects the findings of frame f as a JSON array of
// [code, severity, pointer, message, spec] arrays, in the order they were
// found ("[]" when none); findingsOf reads it.
const findingsColumn = `(SELECT json_group_array(json_array(ff.code, ff.severity, ff.pointer, ff.message, ff.spec))
		FROM (SELECT * FROM frame_findings WHERE frame_id = f.id ORDER BY rowid) ff)`

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
