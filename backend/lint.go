package backend

import (
	"time"

	"github.com/mcp-playground/playground/mcpclient/lint"
)

// The protocol linter's findings, as the layers above the backend show
// them: the mcpclient/lint types themselves, named here so that web and
// views depend on the backend only.
type (
	// LintFinding is one thing the protocol linter found wrong with a
	// frame: its code, severity, JSON pointer, message, spec and fix.
	LintFinding = lint.Finding
	// LintSeverity is a finding's severity: error, warning or info.
	LintSeverity = lint.Severity
)

// Lint severities.
const (
	LintError   = lint.SevError
	LintWarning = lint.SevWarning
	LintInfo    = lint.SevInfo
)

// LintRank orders severities, the worst first: 0 for an error, 1 for a
// warning, 2 for information.
func LintRank(s LintSeverity) int {
	switch s {
	case LintError:
		return 0
	case LintWarning:
		return 1
	}
	return 2
}

// LintRuleFix is the likely cause and fix of findings of the rule code,
// "" for a code no rule has.
func LintRuleFix(code string) string {
	r, _ := lint.RuleOf(code)
	return r.Fix
}

// LintCodeReport is what a server's Protocol report says of one finding
// code over the server's sessions: how many findings, in how many
// sessions and frames, when first and last, and the newest as an example.
type LintCodeReport struct {
	Code                string
	Severity            LintSeverity
	Findings, Sessions  int
	FirstSeen, LastSeen time.Time
	// Example is the newest finding of the code, of frame ExampleFrameID
	// of session ExampleSessionID; its Fix is the rule's.
	Example          LintFinding
	ExampleFrameID   int64
	ExampleSessionID int64
}
