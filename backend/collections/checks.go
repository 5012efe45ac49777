package collections

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/theory/jsonpath"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/jsondiff"
	"github.com/mcp-playground/playground/mcpclient"
)

// AssertionKind names what an assertion checks.
type AssertionKind string

const (
	// AssertEquals: the value at Path equals Value (JSON, compared as data).
	AssertEquals AssertionKind = "equals"
	// AssertExists: Path selects at least one value.
	AssertExists AssertionKind = "exists"
	// AssertMatches: the value at Path is a string matching the regular
	// expression Pattern (Go syntax, unanchored).
	AssertMatches AssertionKind = "matches"
	// AssertOutputSchema: the tools/call result's structuredContent is
	// valid against the outputSchema the tool declares.
	AssertOutputSchema AssertionKind = "outputSchema"
	// AssertLatency: the answer came within MaxMS milliseconds.
	AssertLatency AssertionKind = "latency"
)

// Assertion is one check of an example's answer. Path is an RFC 9535
// JSONPath into the result, or into the JSON-RPC error object when the
// answer is one (such as $.content[0].text or $.code); where it selects
// several values, equals and matches need every one to hold.
type Assertion struct {
	Kind    AssertionKind   `json:"kind"`
	Path    string          `json:"path,omitempty"`
	Value   json.RawMessage `json:"value,omitempty"`
	Pattern string          `json:"pattern,omitempty"`
	MaxMS   int64           `json:"maxMs,omitempty"`
}

// Capture keeps a value of an example's answer as a variable for the
// examples after it: the first value Path selects, as JSON.
type Capture struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

// CheckResult is how one assertion fared in a run.
type CheckResult struct {
	Assertion
	Passed  bool   `json:"passed"`
	Message string `json:"message,omitempty"` // why it failed
}

// String describes the assertion for people, e.g. `$.content[0].text equals "hi"`.
func (a Assertion) String() string {
	switch a.Kind {
	case AssertEquals:
		return a.Path + " equals " + string(a.Value)
	case AssertExists:
		return a.Path + " exists"
	case AssertMatches:
		return a.Path + " matches /" + a.Pattern + "/"
	case AssertOutputSchema:
		return "structuredContent matches the tool's outputSchema"
	case AssertLatency:
		return fmt.Sprintf("answer within %d ms", a.MaxMS)
	}
	return string(a.Kind)
}

// Validate reports what is wrong with the assertion, for the person who
// wrote it, or nil.
func (a Assertion) Validate() error {
	switch a.Kind {
	case AssertEquals:
		if !json.Valid(a.Value) {
			return fmt.Errorf("the expected value of %s is not JSON (quote a string: \"text\")", a.Path)
		}
	case AssertMatches:
		if _, err := regexp.Compile(a.Pattern); err != nil {
			return fmt.Errorf("the pattern /%s/ is not a regular expression: %v", a.Pattern, err)
		}
	case AssertExists, AssertOutputSchema:
	case AssertLatency:
		if a.MaxMS <= 0 {
			return fmt.Errorf("a latency bound is a number of milliseconds above 0")
		}
		return nil
	default:
		return fmt.Errorf("%q is not a kind of assertion (equals, exists, matches, outputSchema, latency)", a.Kind)
	}
	if a.Kind == AssertOutputSchema {
		return nil
	}
	_, err := parsePath(a.Path)
	return err
}

// Validate reports what is wrong with the capture, or nil.
func (c Capture) Validate() error {
	if !variableName().MatchString(c.Name) {
		return fmt.Errorf("%q is not a variable name (letters, digits, _ and -, starting with a letter or _)", c.Name)
	}
	_, err := parsePath(c.Path)
	return err
}

func parsePath(p string) (*jsonpath.Path, error) {
	if !strings.HasPrefix(strings.TrimSpace(p), "$") {
		return nil, fmt.Errorf("%q is not a JSONPath: it starts with $, as in $.content[0].text", p)
	}
	path, err := jsonpath.Parse(strings.TrimSpace(p))
	if err != nil {
		return nil, fmt.Errorf("%q is not a JSONPath: %v", p, err)
	}
	return path, nil
}

// answerDoc decodes the document assertions and captures look into.
func answerDoc(answer json.RawMessage) (any, error) {
	var doc any
	if err := json.Unmarshal(answer, &doc); err != nil {
		return nil, fmt.Errorf("the answer is not JSON: %v", err)
	}
	return doc, nil
}

// checkAssertions runs each assertion against answer (the result, or the
// JSON-RPC error object), given the call's latency and the outputSchema of
// the tool called (nil when it declares none or is not a tool).
func checkAssertions(as []Assertion, answer json.RawMessage, latency time.Duration, outputSchema json.RawMessage) []CheckResult {
	if len(as) == 0 {
		return nil
	}
	doc, docErr := answerDoc(answer)
	out := make([]CheckResult, len(as))
	for i, a := range as {
		out[i] = CheckResult{Assertion: a, Passed: true}
		var err error
		switch {
		case a.Kind == AssertLatency:
			if latency > time.Duration(a.MaxMS)*time.Millisecond {
				err = fmt.Errorf("the answer took %d ms", latency.Milliseconds())
			}
		case docErr != nil:
			err = docErr
		case a.Kind == AssertOutputSchema:
			err = checkOutputSchema(answer, outputSchema)
		default:
			err = checkPath(a, doc)
		}
		if err != nil {
			out[i].Passed, out[i].Message = false, err.Error()
		}
	}
	return out
}

func checkOutputSchema(result, outputSchema json.RawMessage) error {
	if len(outputSchema) == 0 {
		return fmt.Errorf("the tool declares no outputSchema")
	}
	var r mcpclient.CallToolResult
	if err := json.Unmarshal(result, &r); err != nil {
		return fmt.Errorf("the answer is not a tools/call result: %v", err)
	}
	switch v := backend.CheckStructuredContent(outputSchema, r.StructuredContent, r.IsError); v.Kind {
	case backend.VerdictMatch, backend.VerdictNotApplicable:
		return nil
	case backend.VerdictMissing:
		return fmt.Errorf("the result has no structuredContent")
	default:
		return fmt.Errorf("structuredContent does not match the outputSchema: %s", strings.Join(v.Errors, "; "))
	}
}

func checkPath(a Assertion, doc any) error {
	path, err := parsePath(a.Path)
	if err != nil {
		return err
	}
	nodes := path.Select(doc)
	if len(nodes) == 0 {
		return fmt.Errorf("%s selects nothing", a.Path)
	}
	switch a.Kind {
	case AssertEquals:
		for _, n := range nodes {
			got, _ := json.Marshal(n)
			if diff, err := jsondiff.Diff(a.Value, got, nil); err != nil || len(diff) > 0 {
				return fmt.Errorf("%s is %s", a.Path, backend.Cut(string(got), 200))
			}
		}
	case AssertMatches:
		re, err := regexp.Compile(a.Pattern)
		if err != nil {
			return err
		}
		for _, n := range nodes {
			s, ok := n.(string)
			if !ok {
				got, _ := json.Marshal(n)
				return fmt.Errorf("%s is %s, not a string", a.Path, backend.Cut(string(got), 200))
			}
			if !re.MatchString(s) {
				got, _ := json.Marshal(s)
				return fmt.Errorf("%s is %s", a.Path, backend.Cut(string(got), 200))
			}
		}
	}
	return nil
}

// capture returns the JSON of the first value path selects in answer.
func capture(c Capture, answer json.RawMessage) (json.RawMessage, error) {
	path, err := parsePath(c.Path)
	if err != nil {
		return nil, err
	}
	doc, err := answerDoc(answer)
	if err != nil {
		return nil, err
	}
	nodes := path.Select(doc)
	if len(nodes) == 0 {
		return nil, fmt.Errorf("capture %s: %s selects nothing", c.Name, c.Path)
	}
	return json.Marshal(nodes[0])
}
