package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/mcpclient/lint"
	"github.com/mcp-playground/playground/web"
)

const lintUsage = `Usage: playground lint [--json] FILE

Judges every frame of a session or history export (the NDJSON file that
Export NDJSON downloads; FILE - reads standard input) against JSON-RPC 2.0
and the MCP version the file names, as the dashboard does as it records:
one linter per session of the file, which leaves out the rules that need
every frame when the file is an excerpt (a filtered or history export).
The file is read a line at a time, so it may be of any size.

Each finding is one line on stdout:

  FILE:LINE: session S frame F: SEVERITY CODE at POINTER: MESSAGE Fix: FIX

or, with --json, one JSON object: the finding (code, severity, pointer,
message, spec, fix) with its line, sessionId and frameId. A count of the
frames and findings goes to stderr.

Exit status: 0 when no finding is an error (warnings and information alone
pass); 1 when one is; 2 when the file cannot be read or is not an export.

Examples:
  playground lint session-12.ndjson
  gunzip -c history-20261203-101500.ndjson.gz | playground lint --json - | jq -r .code

Flags:
`

// lintConfig is what `playground lint` was asked to do.
type lintConfig struct {
	File string // "-" for stdin
	JSON bool
}

// parseLintConfig reads the flags and argument of `playground lint`;
// FILE may come before or after the flags. Its errors are usage errors,
// but for flag.ErrHelp.
func parseLintConfig(args []string, stderr io.Writer) (lintConfig, error) {
	fs := flag.NewFlagSet("lint", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		io.WriteString(stderr, lintUsage)
		fs.PrintDefaults()
	}
	var cfg lintConfig
	fs.BoolVar(&cfg.JSON, "json", false, "print each finding as one JSON object a line")
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return cfg, err
			}
			return cfg, &exitError{code: 2, err: fmt.Errorf("lint: %w", err)}
		}
		if args = fs.Args(); len(args) == 0 {
			break
		}
		files, args = append(files, args[0]), args[1:]
	}
	if len(files) != 1 || files[0] == "" {
		fs.Usage()
		return cfg, usageError("lint: want one export FILE, or - for standard input")
	}
	cfg.File = files[0]
	return cfg, nil
}

// lintedFinding is a finding as `playground lint --json` prints it, and
// as the reports of `run --lint` and `call --lint` give it: with the frame
// it belongs to, and the line of the file that holds that frame (lint
// alone).
type lintedFinding struct {
	backend.FrameFinding
	Line      int   `json:"line,omitempty"`
	SessionID int64 `json:"sessionId,omitempty"`
}

// text is the finding as one line of text, led by its frame, with its
// fix (as run and call print it).
func (f lintedFinding) text() string {
	text := f.Text()
	if f.Fix != "" {
		text += " Fix: " + oneLine(f.Fix)
	}
	return text + "\n"
}

// lintErrors counts the findings of error severity.
func lintErrors(found []lintedFinding) int {
	n := 0
	for _, f := range found {
		if f.Severity == lint.SevError {
			n++
		}
	}
	return n
}

// tapLinter lints the frames of one connection as a mcpclient.Tap sees
// them, with one lint.Linter, and keeps the findings; frames are numbered
// from 1 in the order they came. It is safe for concurrent use, as a Tap
// must be. It serves `call`, whose connection carries a handful of
// requests.
type tapLinter struct {
	mu     sync.Mutex
	linter *lint.Linter
	frames int
	found  []lintedFinding
}

func newTapLinter() *tapLinter {
	return &tapLinter{linter: lint.New(lint.Options{})}
}

// tap lints each frame, then hands it on to next (when not nil).
func (t *tapLinter) tap(next mcpclient.Tap) mcpclient.Tap {
	return func(f mcpclient.Frame) {
		t.mu.Lock()
		t.frames++
		if findings := t.linter.Lint(lint.FrameOf(f)); len(findings) > 0 {
			method := strings.Clone(t.linter.Method())
			for _, l := range findings {
				t.found = append(t.found, lintedFinding{FrameFinding: backend.FrameFinding{LintFinding: l, FrameID: int64(t.frames), Direction: string(f.Direction), Method: method}})
			}
		}
		t.mu.Unlock()
		if next != nil {
			next(f)
		}
	}
}

// restart forgets the frames seen so far and their findings, for a new
// connection (a connect retried with a fix).
func (t *tapLinter) restart() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.linter, t.frames, t.found = lint.New(lint.Options{}), 0, nil
}

// result returns how many frames were linted and their findings.
func (t *tapLinter) result() (frames int, found []lintedFinding) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.frames, slices.Clone(t.found)
}

// printLint writes the verdict of a traffic's lint to w, then each
// finding indented, as run and call print them.
func printLint(w io.Writer, frames int, found []lintedFinding) {
	switch n := lintErrors(found); {
	case n > 0:
		fmt.Fprintf(w, "✗ protocol lint: %s in %s\n", plural(n, "error finding"), plural(frames, "frame"))
	default:
		fmt.Fprintf(w, "✓ protocol lint: no error finding in %s\n", plural(frames, "frame"))
	}
	for _, f := range found {
		fmt.Fprint(w, "    "+f.text())
	}
}

// lintTally counts what a lint found, in how many frames and sessions.
type lintTally struct {
	backend.FindingCount
	frames, sessions int
}

// String is the tally as the summary line says it.
func (t lintTally) String() string {
	return fmt.Sprintf("%s of %s: %s, %s, %s", plural(t.frames, "frame"), plural(t.sessions, "session"),
		plural(t.Errors, "error"), plural(t.Warnings, "warning"), plural(t.Infos, "info"))
}

// plural is n and noun, with an s when n is not 1 (info stays info).
func plural(n int, noun string) string {
	if n == 1 || noun == "info" {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// lintCheckEvery is how many lines lint reads between looks at ctx.
const lintCheckEvery = 1024

// runLint is `playground lint`: it reads an export a line at a time,
// lints its frames and prints the findings.
func runLint(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := parseLintConfig(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	in, name := stdin, "stdin"
	if cfg.File != "-" {
		f, err := os.Open(cfg.File)
		if err != nil {
			return usageError("lint: %w", err)
		}
		defer f.Close()
		in, name = f, cfg.File
	}
	out := bufio.NewWriterSize(stdout, 64<<10)
	tally, err := lintExport(ctx, in, name, cfg.JSON, out)
	if ferr := out.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("lint: writing the findings: %w", ferr)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "lint: %s\n", tally)
	if tally.Errors > 0 {
		return fmt.Errorf("lint: %s: %s", name, plural(tally.Errors, "error finding"))
	}
	return nil
}

// lintExport lints the export that r reads, named name, and writes its
// findings to w, as text or as JSON lines. A file that cannot be read, is
// not an export or holds no frame is an error of exit status 2.
func lintExport(ctx context.Context, r io.Reader, name string, asJSON bool, w io.Writer) (lintTally, error) {
	var t lintTally
	linter := backend.NewExportLinter()
	sessions := map[int64]bool{}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for in, err := range web.ReadExport(r) {
		if err != nil {
			return t, usageError("lint: %s: %s", name, strings.TrimSuffix(backend.ErrorMessageOf(err), "."))
		}
		if t.frames%lintCheckEvery == 0 && ctx.Err() != nil {
			return t, fmt.Errorf("lint: stopped at line %d: %w", in.Line, context.Cause(ctx))
		}
		t.frames++
		sessions[in.SessionID] = true
		findings := linter.Lint(in)
		t.Add(findings...)
		for _, f := range findings {
			var err error
			if asJSON {
				err = enc.Encode(lintedFinding{FrameFinding: backend.FrameFinding{LintFinding: f, FrameID: in.ID, Direction: string(in.Direction), Method: in.Method},
					Line: in.Line, SessionID: in.SessionID})
			} else {
				_, err = io.WriteString(w, findingText(fmt.Sprintf("%s:%d: session %d frame %d", name, in.Line, in.SessionID, in.ID), f))
			}
			if err != nil {
				return t, fmt.Errorf("lint: writing the findings: %w", err)
			}
		}
	}
	t.sessions = len(sessions)
	if t.frames == 0 {
		return t, usageError("lint: %s holds no frames", name)
	}
	return t, nil
}

// findingText is f as one line of text, after where, which names its
// frame: "WHERE: SEVERITY CODE at POINTER: MESSAGE Fix: FIX".
func findingText(where string, f lint.Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s %s", where, f.Severity, f.Code)
	if f.Pointer != "" {
		b.WriteString(" at ")
		b.WriteString(f.Pointer)
	}
	b.WriteString(": ")
	b.WriteString(oneLine(f.Message))
	if f.Fix != "" {
		b.WriteString(" Fix: ")
		b.WriteString(oneLine(f.Fix))
	}
	b.WriteByte('\n')
	return b.String()
}

// oneLine is s with its line breaks as spaces, so that a finding stays on
// its line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
