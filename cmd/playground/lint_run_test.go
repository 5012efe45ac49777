package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sloppyServer is a stdio MCP server in POSIX sh that breaks one rule:
// its tools/list result lists a tool without the inputSchema every tool
// has. It answers initialize (tools offered) and ping as it should, any
// other request with -32601, and no notification.
const sloppyServer = `while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9][0-9]*\).*/\1/p')
  [ -n "$id" ] || continue
  case "$line" in
    *'"method":"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"sloppy","version":"1"}}}\n' "$id" ;;
    *'"method":"ping"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{}}\n' "$id" ;;
    *'"method":"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"shapeless"}]}}\n' "$id" ;;
    *) printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\n' "$id" ;;
  esac
done
`

// sloppyStdio writes sloppyServer to a file and returns the --stdio
// command that runs it.
func sloppyStdio(t *testing.T) string {
	t.Helper()
	return "sh '" + writeTemp(t, "sloppy.sh", sloppyServer) + "'"
}

// TestCallLint: call --lint judges the connection's traffic and prints
// the findings on stderr; a clean exchange passes, a result that breaks
// the version's schema fails the call with exit status 1 though its
// result is printed. Without --lint the same call passes.
func TestCallLint(t *testing.T) {
	stdio := sloppyStdio(t)
	out, errOut, err := runCallCmd("--lint", "--stdio", stdio, "ping")
	if err != nil || strings.TrimSpace(out) != "{}" || !strings.Contains(errOut, "✓ protocol lint: no error finding in ") {
		t.Errorf("call --lint ping: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}

	out, errOut, err = runCallCmd("--stdio", stdio, "--lint", "tools/list")
	if exitStatus(err) != 1 || err == nil || !strings.Contains(err.Error(), "call: protocol lint: 1 error finding") || !strings.Contains(out, `"shapeless"`) {
		t.Errorf("call --lint tools/list: %v (exit %d)\nstdout:\n%s", err, exitStatus(err), out)
	}
	if !strings.Contains(errOut, "✗ protocol lint: 1 error finding in ") ||
		!strings.Contains(errOut, "(in tools/list): error mcp.schema at /result/tools/0") {
		t.Errorf("call --lint tools/list prints on stderr:\n%s", errOut)
	}

	if out, errOut, err := runCallCmd("--stdio", stdio, "tools/list"); err != nil || strings.Contains(errOut, "protocol lint") {
		t.Errorf("call tools/list without --lint: %v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}

	t.Run("demo server", func(t *testing.T) {
		bin := e2eBuildPlayground(t)
		demo := "'" + strings.ReplaceAll(bin, "'", `'\''`) + "' demo-server"
		for _, args := range [][]string{{"tools/list"}, {"tools/call", `{"name":"rich_result","arguments":{}}`}} {
			out, errOut, err := runCallCmd(append([]string{"--lint", "--stdio", demo}, args...)...)
			if err != nil || !strings.Contains(errOut, "✓ protocol lint: no error finding in ") {
				t.Errorf("call --lint %s on the demo server: %v\nstdout:\n%.300s\nstderr:\n%s", args[0], err, out, errOut)
			}
		}
	})
}

// TestRunLint: run --lint reads the findings the recorder gave the run's
// traffic: the examples pass, but the server's answer to tools/list, as
// the file expects it, breaks the schema, so the run fails with exit status 1,
// prints the finding after the results, gives it in --json, and the JUnit
// report has a failed "protocol lint" case. Without --lint it passes.
func TestRunLint(t *testing.T) {
	stdio := sloppyStdio(t)
	file := writeTemp(t, "ping.json", `{"format":"mcp-playground-collection","version":1,"name":"pings","examples":[
		{"name":"ping","method":"ping","params":{},"expect":{"result":{}}},
		{"name":"tools","method":"tools/list","params":{},"expect":{"result":{"tools":[{"name":"shapeless"}]}}}]}`)
	dir := t.TempDir()
	junit := filepath.Join(dir, "report.xml")
	runIt := func(args ...string) (string, string, error) {
		var stdout, stderr bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		err := run(ctx, append([]string{"run", file, "--stdio", stdio}, args...), strings.NewReader(""), &stdout, &stderr)
		t.Logf("run %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
		return stdout.String(), stderr.String(), err
	}

	out, _, err := runIt("--lint", "--junit", junit)
	if exitStatus(err) != 1 || err == nil || !strings.Contains(err.Error(), "the traffic has 1 protocol-lint error finding") {
		t.Errorf("run --lint: %v (exit %d), want exit 1 for the lint", err, exitStatus(err))
	}
	for _, want := range []string{"✓ ping", "✓ tools", "✗ protocol lint: 1 error finding in ", "(in tools/list): error mcp.schema at /result/tools/0",
		"2 passed, 0 failed, 0 errors in", "; the traffic has 1 protocol error"} {
		if !strings.Contains(out, want) {
			t.Errorf("run --lint does not print %q", want)
		}
	}
	body, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var suites junitSuites
	if err := xml.Unmarshal(body, &suites); err != nil || len(suites.Suites) != 1 {
		t.Fatalf("the JUnit report: %v\n%s", err, body)
	}
	s := suites.Suites[0]
	last := s.Cases[len(s.Cases)-1]
	if s.Tests != 3 || s.Failures != 1 || last.Name != lintCaseName || last.Failure == nil ||
		!strings.Contains(last.Failure.Message, "1 error finding") || !strings.Contains(last.Failure.Text, "error mcp.schema at /result/tools/0") {
		t.Errorf("the JUnit report:\n%s", body)
	}

	out, _, err = runIt("--lint", "--json")
	var rep runReport
	if jerr := json.Unmarshal([]byte(out), &rep); jerr != nil || exitStatus(err) != 1 {
		t.Fatalf("run --lint --json: %v, exit %d\n%s", jerr, exitStatus(err), out)
	}
	if !rep.LintChecked || rep.LintFrames == 0 || lintErrors(rep.Lint) != 1 || rep.Lint[0].Code != "mcp.schema" || rep.Lint[0].FrameID == 0 || rep.Lint[0].Method != "tools/list" {
		t.Errorf("the JSON report's lint: %+v", rep)
	}

	if _, _, err := runIt(); err != nil {
		t.Errorf("run without --lint: %v", err)
	}
}
