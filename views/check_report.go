package views

import "github.com/mcp-playground/playground/backend/check"

// checkMark is a verdict's mark on the report card.
func checkMark(v check.Verdict) string {
	switch v {
	case check.Pass:
		return "✓"
	case check.Fail:
		return "✗"
	}
	return "–"
}

// checkSummary counts a run's verdicts: "12 passed, 1 failed, 4 skipped".
func checkSummary(rep check.Report) string {
	return itoa(int64(rep.Count(check.Pass))) + " passed, " + itoa(int64(rep.Count(check.Fail))) + " failed, " +
		itoa(int64(rep.Count(check.Skip))) + " skipped"
}
