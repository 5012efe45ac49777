package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/check"
)

// checkCard is the report card of a `playground check`; --json prints it
// as it is.
type checkCard struct {
	Server string `json:"server"`
	check.Report
	Passed     int           `json:"passed"`
	Failed     int           `json:"failed"`
	Skipped    int           `json:"skipped"`
	Duration   time.Duration `json:"-"`
	DurationMS float64       `json:"durationMs"`
}

// checkSuite names the JUnit test suite of a check.
const checkSuite = "playground check"

var checkMarks = map[check.Verdict]string{check.Pass: "✓", check.Fail: "✗", check.Skip: "–"}

// tally fills in the counts.
func (c *checkCard) tally() {
	c.Passed, c.Failed, c.Skipped = c.Count(check.Pass), c.Count(check.Fail), c.Count(check.Skip)
	c.DurationMS = float64(c.Duration.Microseconds()) / 1000
}

// print writes the card: a heading, one line per check (mark, id, what
// it checked, the reason and the frames), a failure's exchanges and the
// lint findings indented below it, and the summary.
func (c *checkCard) print(w io.Writer) {
	c.tally()
	fmt.Fprintf(w, "Checking %s (protocol %s, %s era)\n", c.Server, c.ProtocolVersion, c.Era)
	width := 0
	for _, r := range c.Results {
		width = max(width, len(r.ID))
	}
	for _, r := range c.Results {
		line := fmt.Sprintf("%s %-*s  %s: %s", checkMarks[r.Verdict], width, r.ID, r.Title, r.Reason)
		if f := frameRefs(r.Exchanges); f != "" {
			line += " (" + f + ")"
		}
		fmt.Fprintln(w, line)
		for _, l := range checkDetails(r) {
			fmt.Fprintln(w, "    "+l)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped in %s\n", c.Passed, c.Failed, c.Skipped, backend.FormatDuration(max(c.Duration, time.Microsecond)))
}

// frameRefs names the recorded frames of the exchanges: "frames 3→4, 5→6".
func frameRefs(exs []check.Exchange) string {
	var refs []string
	for _, ex := range exs {
		if ex.Request == nil || ex.Request.FrameID == 0 {
			continue
		}
		ref := fmt.Sprint(ex.Request.FrameID)
		if ex.Response != nil && ex.Response.FrameID != 0 {
			ref += fmt.Sprintf("→%d", ex.Response.FrameID)
		}
		refs = append(refs, ref)
	}
	switch len(refs) {
	case 0:
		return ""
	case 1:
		return "frame " + refs[0]
	}
	return "frames " + strings.Join(refs, ", ")
}

// checkDetails are the lines under a check: a failure's exchanges
// (request and answer, bodies cut), and the lint findings.
func checkDetails(r check.Result) []string {
	var lines []string
	if r.Verdict == check.Fail {
		for _, ex := range r.Exchanges {
			lines = append(lines, ex.What+":")
			if ex.Request != nil {
				lines = append(lines, "  → "+frameText(ex.Request))
			}
			switch {
			case ex.Response != nil:
				status := ""
				if ex.HTTPStatus != 0 {
					status = fmt.Sprintf("HTTP %d ", ex.HTTPStatus)
				}
				lines = append(lines, "  ← "+status+frameText(ex.Response))
			case ex.HTTPStatus != 0:
				lines = append(lines, fmt.Sprintf("  ← HTTP %d", ex.HTTPStatus))
			}
		}
	}
	for _, f := range r.Findings {
		lines = append(lines, f.Text())
	}
	return lines
}

// frameText is a frame of evidence on one line: "frame 7: BODY".
func frameText(f *check.FrameEvidence) string {
	body := shorten(oneLine(f.Body), 300)
	if f.FrameID == 0 {
		return body
	}
	return fmt.Sprintf("frame %d: %s", f.FrameID, body)
}

// writeJSON prints the card as indented JSON.
func (c *checkCard) writeJSON(w io.Writer) error {
	c.tally()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(c)
}

// junit returns the card as JUnit XML: one test case per check, a
// failure with its reason and evidence, a skip with its reason; redact's
// secrets hidden.
func (c *checkCard) junit(redact backend.Redactor) ([]byte, error) {
	c.tally()
	suite := junitSuite{Name: checkSuite + " " + c.Server, Time: seconds(c.Duration), Failures: c.Failed, Skipped: c.Skipped}
	for _, r := range c.Results {
		tc := junitCase{Name: r.ID, Classname: checkSuite, Time: seconds(r.Duration)}
		switch r.Verdict {
		case check.Fail:
			tc.Failure = &junitProblem{Message: redact.Text(r.Reason), Type: "fail", Text: redact.Text(strings.Join(checkDetails(r), "\n"))}
		case check.Skip:
			tc.Skipped = &junitSkipped{Message: redact.Text(r.Reason)}
		}
		suite.Cases = append(suite.Cases, tc)
	}
	suite.Tests = len(suite.Cases)
	body, err := xml.MarshalIndent(junitSuites{Suites: []junitSuite{suite}}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(append([]byte(xml.Header), body...), '\n'), nil
}

// writeCheckJUnit writes the card as JUnit XML to the file at path.
func writeCheckJUnit(path string, c checkCard, redact backend.Redactor) error {
	body, err := c.junit(redact)
	if err != nil {
		return err
	}
	return os.WriteFile(path, body, 0o644)
}
