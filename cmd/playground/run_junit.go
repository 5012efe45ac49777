package main

import (
	"encoding/xml"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
)

// JUnit XML, as CI systems read it: one suite per collection, one test
// case per example, one more, "interface drift", when drift was checked,
// and "protocol lint" when the traffic was linted.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr,omitempty"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
}

// junitSkipped marks a test case that did not apply, and why.
type junitSkipped struct {
	Message string `xml:"message,attr,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// driftCaseName names the JUnit test case of the interface comparison,
// lintCaseName that of the traffic's lint.
const (
	driftCaseName = "interface drift"
	lintCaseName  = "protocol lint"
)

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// junit returns the report as JUnit XML, with redact's secrets hidden in
// the messages and texts of failures and errors.
func (rep *runReport) junit(redact backend.Redactor) ([]byte, error) {
	suite := junitSuite{Name: rep.Collection, Time: seconds(rep.Duration), Failures: rep.Failed, Errors: rep.Errors}
	for _, r := range rep.Results {
		c := junitCase{Name: r.Name, Classname: rep.Collection, Time: seconds(r.latency)}
		problem := &junitProblem{Message: redact.Text(r.Message), Type: string(r.Outcome), Text: redact.Text(strings.Join(r.details(), "\n"))}
		switch r.Outcome {
		case collections.RunPass:
		case collections.RunFail:
			c.Failure = problem
		default:
			c.Error = problem
		}
		suite.Cases = append(suite.Cases, c)
	}
	if rep.DriftChecked {
		c := junitCase{Name: driftCaseName, Classname: rep.Collection, Time: seconds(0)}
		switch {
		case rep.DriftError != "":
			suite.Errors++
			c.Error = &junitProblem{Message: redact.Text(rep.DriftError), Type: "error"}
		case len(rep.Drift) > 0:
			suite.Failures++
			c.Failure = &junitProblem{Message: "The server's interface differs from the file's baseline.", Type: "fail",
				Text: strings.Join(driftLines(rep.Drift), "\n")}
		}
		suite.Cases = append(suite.Cases, c)
	}
	if rep.LintChecked {
		c := junitCase{Name: lintCaseName, Classname: rep.Collection, Time: seconds(0)}
		if n := lintErrors(rep.Lint); n > 0 {
			suite.Failures++
			lines := make([]string, len(rep.Lint))
			for i, f := range rep.Lint {
				lines[i] = strings.TrimSuffix(f.text(), "\n")
			}
			c.Failure = &junitProblem{Message: fmt.Sprintf("The traffic breaks the protocol: %s.", plural(n, "error finding")), Type: "fail",
				Text: redact.Text(strings.Join(lines, "\n"))}
		}
		suite.Cases = append(suite.Cases, c)
	}
	suite.Tests = len(suite.Cases)
	body, err := xml.MarshalIndent(junitSuites{Suites: []junitSuite{suite}}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(append([]byte(xml.Header), body...), '\n'), nil
}

// writeJUnitFile writes the report as JUnit XML to the file at path,
// with redact's secrets hidden.
func writeJUnitFile(path string, rep *runReport, redact backend.Redactor) error {
	body, err := rep.junit(redact)
	if err != nil {
		return err
	}
	return os.WriteFile(path, body, 0o644)
}
