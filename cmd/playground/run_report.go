package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/jsondiff"
)

// runReport is how a `playground run` fared; --json prints it as it is.
type runReport struct {
	Collection   string         `json:"collection"`
	Server       string         `json:"server"`
	Environment  string         `json:"environment,omitempty"`
	Passed       int            `json:"passed"`
	Failed       int            `json:"failed"`
	Errors       int            `json:"errors"`
	Duration     time.Duration  `json:"-"`
	DurationMS   float64        `json:"durationMs"`
	Results      []reportResult `json:"results"`
	DriftChecked bool           `json:"driftChecked"`
	// Drift is what changed from the file's baseline to the server's
	// interface, by kind; empty when nothing did or when not checked.
	Drift []driftKind `json:"drift,omitempty"`
	// DriftError says why drift could not be checked; "" when it was.
	DriftError string `json:"driftError,omitempty"`
	// LintChecked says the traffic was linted (--lint): LintFrames frames,
	// with the findings Lint.
	LintChecked bool            `json:"lintChecked,omitempty"`
	LintFrames  int             `json:"lintFrames,omitempty"`
	Lint        []lintedFinding `json:"lint,omitempty"`
}

// reportResult is how one example fared.
type reportResult struct {
	Name      string                    `json:"name"`
	Outcome   collections.RunOutcome    `json:"outcome"`
	Message   string                    `json:"message,omitempty"`
	LatencyMS float64                   `json:"latencyMs"`
	Diff      []jsondiff.Change         `json:"diff,omitempty"`
	Checks    []collections.CheckResult `json:"checks,omitempty"`
	latency   time.Duration
}

// driftKind is what changed in one kind of the server's interface.
type driftKind struct {
	Kind    backend.InterfaceKind `json:"kind"`
	Added   []string              `json:"added,omitempty"`
	Removed []string              `json:"removed,omitempty"`
	Changed []driftItem           `json:"changed,omitempty"`
}

// driftItem is one item of the interface that changed, and how.
type driftItem struct {
	Name    string            `json:"name"`
	Changes []jsondiff.Change `json:"changes"`
}

func driftReport(diffs []backend.KindDiff) []driftKind {
	out := make([]driftKind, 0, len(diffs))
	for _, d := range diffs {
		k := driftKind{Kind: d.Kind, Added: d.Added, Removed: d.Removed}
		for _, c := range d.Changed {
			k.Changed = append(k.Changed, driftItem{Name: c.Name, Changes: c.Changes})
		}
		out = append(out, k)
	}
	return out
}

// add counts a result and keeps it.
func (rep *runReport) add(r collections.RunResult) {
	switch r.Outcome {
	case collections.RunPass:
		rep.Passed++
	case collections.RunFail:
		rep.Failed++
	default:
		rep.Errors++
	}
	rep.Results = append(rep.Results, reportResult{Name: r.ExampleName, Outcome: r.Outcome, Message: r.Message,
		LatencyMS: float64(r.Latency.Microseconds()) / 1000, Diff: r.Diff, Checks: r.Checks, latency: r.Latency})
}

// setDuration sets how long the examples took.
func (rep *runReport) setDuration(d time.Duration) {
	rep.Duration, rep.DurationMS = d, float64(d.Microseconds())/1000
}

// ok reports whether every example passed, nothing drifted and the
// traffic has no error finding.
func (rep *runReport) ok() bool {
	return rep.Failed+rep.Errors == 0 && len(rep.Drift) == 0 && rep.DriftError == "" && lintErrors(rep.Lint) == 0
}

// verdict is the summary: "3 passed, 1 failed, 0 errors in 1.2s", and
// whether the interface drifted.
func (rep *runReport) verdict() string {
	s := fmt.Sprintf("%d passed, %d failed, %s in %s", rep.Passed, rep.Failed, backend.Count(rep.Errors, "error"), backend.FormatDuration(max(rep.Duration, time.Microsecond)))
	if len(rep.Drift) > 0 {
		s += "; the interface drifted"
	}
	if n := lintErrors(rep.Lint); n > 0 {
		s += "; the traffic has " + plural(n, "protocol error")
	}
	return s
}

// failure says why a run that is not ok failed, such as "2 of 5 examples
// did not pass".
func (rep *runReport) failure() string {
	var why []string
	if n := rep.Failed + rep.Errors; n > 0 {
		why = append(why, fmt.Sprintf("%d of %s did not pass", n, backend.Count(len(rep.Results), "example")))
	}
	if len(rep.Drift) > 0 {
		why = append(why, "the interface drifted")
	}
	if rep.DriftError != "" {
		why = append(why, "the interface could not be compared")
	}
	if n := lintErrors(rep.Lint); n > 0 {
		why = append(why, "the traffic has "+plural(n, "protocol-lint error finding"))
	}
	return strings.Join(why, "; ")
}

func (rep *runReport) printStart(w io.Writer, examples int) {
	env := ""
	if rep.Environment != "" {
		env = fmt.Sprintf(" with environment %q", rep.Environment)
	}
	fmt.Fprintf(w, "Running %q (%s) on %s%s\n", rep.Collection, backend.Count(examples, "example"), rep.Server, env)
}

func (rep *runReport) printSummary(w io.Writer) {
	fmt.Fprintln(w, rep.verdict())
}

// print writes the result's line: a mark (✓ passed, ✗ failed, ! error),
// the example's name, the latency and the message; then, for a failure,
// the differences from the snapshot and the failed checks, indented.
func (r reportResult) print(w io.Writer) {
	mark := map[collections.RunOutcome]string{collections.RunPass: "✓", collections.RunFail: "✗"}[r.Outcome]
	if mark == "" {
		mark = "!"
	}
	line := mark + " " + r.Name
	if d := backend.FormatDuration(r.latency); d != "" {
		line += "  " + d
	}
	if r.Message != "" {
		line += "  " + r.Message
	}
	fmt.Fprintln(w, line)
	for _, l := range r.details() {
		fmt.Fprintln(w, "    "+l)
	}
}

// details are the lines that explain a failure: each difference as
// "path: old → new", then each failed check.
func (r reportResult) details() []string {
	var lines []string
	for _, c := range r.Diff {
		lines = append(lines, diffLine(c))
	}
	for _, c := range r.Checks {
		if !c.Passed {
			lines = append(lines, fmt.Sprintf("assertion failed: %s: %s", c.Assertion, c.Message))
		}
	}
	return lines
}

// diffLine shows one difference as "path: old → new", long values cut.
func diffLine(c jsondiff.Change) string {
	path := c.Path
	if path == "" {
		path = "(the whole answer)"
	}
	show := func(v json.RawMessage) string {
		if v == nil {
			return "(absent)"
		}
		return shorten(string(v), 200)
	}
	return fmt.Sprintf("%s: %s → %s", path, show(c.Old), show(c.New))
}

// shorten cuts s to at most n runes, marking the cut with an ellipsis.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// printDrift writes what changed in the server's interface since the
// file's baseline, or that nothing did.
func (rep *runReport) printDrift(w io.Writer) {
	if rep.DriftError != "" {
		fmt.Fprintln(w, "! interface: "+rep.DriftError)
		return
	}
	if len(rep.Drift) == 0 {
		fmt.Fprintln(w, "✓ interface: as in the file's baseline")
		return
	}
	fmt.Fprintln(w, "✗ interface drift: the server's interface differs from the file's baseline")
	for _, l := range driftLines(rep.Drift) {
		fmt.Fprintln(w, "    "+l)
	}
}

// driftLines describes drift, one line per added, removed or changed
// item, such as "tools added: get-env".
func driftLines(drift []driftKind) []string {
	var lines []string
	for _, k := range drift {
		if len(k.Added) > 0 {
			lines = append(lines, fmt.Sprintf("%s added: %s", k.Kind, strings.Join(k.Added, ", ")))
		}
		if len(k.Removed) > 0 {
			lines = append(lines, fmt.Sprintf("%s removed: %s", k.Kind, strings.Join(k.Removed, ", ")))
		}
		for _, c := range k.Changed {
			paths := make([]string, len(c.Changes))
			for i, ch := range c.Changes {
				paths[i] = ch.Path
			}
			lines = append(lines, fmt.Sprintf("%s changed: %s (at %s)", k.Kind, c.Name, strings.Join(paths, ", ")))
		}
	}
	return lines
}

// writeJSON prints the report as indented JSON.
func (rep *runReport) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(rep)
}
