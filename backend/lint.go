package backend

import (
	"fmt"
	"strings"
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

// FrameFinding is a finding with the frame it belongs to, as the reports
// of playground run, call and check list them.
type FrameFinding struct {
	LintFinding
	FrameID   int64  `json:"frameId"`
	Direction string `json:"direction,omitempty"`
	// Method is the frame's JSON-RPC method, or for a response the
	// method of the request it answers.
	Method string `json:"method,omitempty"`
}

// FindingsOf lists the findings of frames, each with its frame.
func FindingsOf(frames []Frame) []FrameFinding {
	var out []FrameFinding
	for _, f := range frames {
		for _, l := range f.Findings {
			out = append(out, FrameFinding{LintFinding: l, FrameID: f.ID, Direction: string(f.Direction), Method: f.Method})
		}
	}
	return out
}

// Text is the finding as one line, led by its frame: "frame 12 (in
// tools/list): error mcp.schema at /result/tools/0: MESSAGE" (a message's
// line breaks as spaces).
func (f FrameFinding) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "frame %d (%s", f.FrameID, f.Direction)
	if f.Method != "" {
		b.WriteString(" " + f.Method)
	}
	fmt.Fprintf(&b, "): %s %s", f.Severity, f.Code)
	if f.Pointer != "" {
		b.WriteString(" at " + f.Pointer)
	}
	b.WriteString(": " + strings.Join(strings.Fields(f.Message), " "))
	return b.String()
}
