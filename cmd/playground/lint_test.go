package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// lintLine is one line of a hand-written export: a frame of session
// session, with extra members (such as `"excerpt":true`) after the rest.
func lintLine(session, id int64, dir, rpcType, body, extra string) string {
	return fmt.Sprintf(`{"id":%d,"time":"2026-12-03T09:00:00.%03dZ","direction":%q,"kind":"message","rpcType":%q,"body":%s,"sessionId":%d,"serverName":"hand","protocolVersion":"2025-06-18"%s}`,
		id, id, dir, rpcType, body, session, extra) + "\n"
}

// lintCleanFile is a whole legacy session that breaks no rule.
var lintCleanFile = lintLine(4, 1, "out", "request", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "") +
	lintLine(4, 2, "in", "result", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}}`, "") +
	lintLine(4, 3, "out", "notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "") +
	lintLine(4, 4, "out", "request", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "") +
	lintLine(4, 5, "in", "result", `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}}`, "")

// lintRulesFile breaks rules: an error (jsonrpc 1.0) on line 1, a
// response with both result and error (an error) on line 2, a reserved
// error code (a warning) on line 4 after a blank line, and an answer to
// an id never asked, which is no finding in an excerpt.
var lintRulesFile = lintLine(1, 1, "out", "request", `{"jsonrpc":"1.0","id":1,"method":"ping"}`, `,"excerpt":true`) +
	lintLine(1, 2, "in", "result", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":-32603,"message":"both"}}`, `,"excerpt":true`) +
	"\n" +
	lintLine(1, 3, "in", "error", `{"jsonrpc":"2.0","id":7,"error":{"code":-32500,"message":"odd"}}`, `,"excerpt":true`)

// lintResult is what one `playground lint` made.
type lintResult struct {
	code           int
	stdout, stderr string
}

// lintRun runs `playground lint args...` in this process, with stdin.
func lintRun(t *testing.T, stdin string, args ...string) lintResult {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), append([]string{"lint"}, args...), strings.NewReader(stdin), &stdout, &stderr)
	r := lintResult{stdout: stdout.String(), stderr: stderr.String()}
	if err != nil {
		r.code = exitStatus(err)
		printError(&stderr, err)
		r.stderr = stderr.String()
	}
	return r
}

// writeTemp writes content to a file named name in a temporary directory.
func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLintFiles runs `playground lint` on hand-written files: the exit
// status is 0 without an error finding (warnings alone pass), 1 with one,
// 2 for a file that cannot be read or is not an export; each finding is a
// line naming the file's line, the frame, severity, code, pointer, message
// and fix.
func TestLintFiles(t *testing.T) {
	rules := writeTemp(t, "rules.ndjson", lintRulesFile)
	for _, tt := range []struct {
		name    string
		args    []string
		stdin   string
		code    int
		stdout  []string // lines, in order; nil: no output
		stderr  []string // held by stderr
		noStdin bool
	}{
		{name: "clean", args: []string{writeTemp(t, "clean.ndjson", lintCleanFile)}, code: 0,
			stderr: []string{"lint: 5 frames of 1 session: 0 errors, 0 warnings, 0 info"}},
		{name: "rules broken", args: []string{rules}, code: 1, stdout: []string{
			rules + `:1: session 1 frame 1: error jsonrpc.version at /jsonrpc: "jsonrpc" is "1.0", not "2.0". Fix: Every message carries "jsonrpc": "2.0" exactly; the sender left it out or wrote another value.`,
			rules + `:2: session 1 frame 2: error jsonrpc.response-shape: The response has both a result and an error. Fix: A response holds exactly one of result and error;`,
			rules + `:4: session 1 frame 3: warning jsonrpc.reserved-code at /error/code: The error code -32500 is in the reserved range`,
		}, stderr: []string{"lint: 3 frames of 1 session: 2 errors, 1 warning, 0 info", "playground: lint: " + rules + ": 2 error findings"}},
		{name: "warnings alone", args: []string{"-"}, stdin: lintLine(2, 9, "in", "error", `{"jsonrpc":"2.0","id":7,"error":{"code":-32500,"message":"odd"}}`, `,"excerpt":true`),
			code: 0, stdout: []string{"stdin:1: session 2 frame 9: warning jsonrpc.reserved-code at /error/code:"}, stderr: []string{"0 errors, 1 warning"}},
		{name: "stdin, flag after the file", args: []string{"-", "--json"}, stdin: lintRulesFile, code: 1, stdout: []string{
			`{"code":"jsonrpc.version","severity":"error","pointer":"/jsonrpc",`, `{"code":"jsonrpc.response-shape"`, `{"code":"jsonrpc.reserved-code","severity":"warning"`}},
		{name: "not an export", args: []string{"-"}, stdin: lintCleanFile[:strings.Index(lintCleanFile, "\n")+1] + "these are not frames\n", code: 2,
			stderr: []string{"playground: lint: stdin: Line 2 is not a frame of an NDJSON export (one JSON object a line): it is not JSON (at byte 2)\n"}},
		{name: "a frame no recording has", args: []string{"-"}, stdin: strings.Replace(lintCleanFile, `"direction":"out"`, `"direction":"sideways"`, 1), code: 2,
			stderr: []string{`playground: lint: stdin: Line 1: the direction "sideways" is not out, in or stderr`}},
		{name: "a JSON array", args: []string{"-"}, stdin: "[1,2]\n", code: 2, stderr: []string{"Line 1 is not a frame of an NDJSON export (one JSON object a line): it is a JSON array, not an object"}},
		{name: "empty", args: []string{"-"}, stdin: "\n\n", code: 2, stderr: []string{"playground: lint: stdin holds no frames"}},
		{name: "missing file", args: []string{filepath.Join(t.TempDir(), "gone.ndjson")}, code: 2, stderr: []string{"gone.ndjson: no such file or directory"}},
		{name: "no file", args: nil, code: 2, stderr: []string{"Usage: playground lint", "want one export FILE"}},
		{name: "two files", args: []string{rules, rules}, code: 2, stderr: []string{"want one export FILE"}},
		{name: "unknown flag", args: []string{"--yaml", rules}, code: 2, stderr: []string{"flag provided but not defined: -yaml"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := lintRun(t, tt.stdin, tt.args...)
			if r.code != tt.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tt.code, r.stdout, r.stderr)
			}
			lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
			if r.stdout == "" {
				lines = nil
			}
			if len(lines) != len(tt.stdout) {
				t.Errorf("%d lines on stdout, want %d:\n%s", len(lines), len(tt.stdout), r.stdout)
			}
			for i := range min(len(lines), len(tt.stdout)) {
				if !strings.HasPrefix(lines[i], tt.stdout[i]) {
					t.Errorf("stdout line %d:\n%s\nwant it to start with\n%s", i+1, lines[i], tt.stdout[i])
				}
			}
			for _, want := range tt.stderr {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
				}
			}
		})
	}

	t.Run("json", func(t *testing.T) {
		r := lintRun(t, "", "--json", rules)
		var got []lintedFinding
		for line := range strings.Lines(r.stdout) {
			var f lintedFinding
			if err := json.Unmarshal([]byte(line), &f); err != nil {
				t.Fatalf("a line of --json is not JSON: %v\n%s", err, line)
			}
			got = append(got, f)
		}
		if r.code != 1 || len(got) != 3 {
			t.Fatalf("exit %d, %d findings:\n%s", r.code, len(got), r.stdout)
		}
		want := []lintedFinding{{Line: 1, SessionID: 1}, {Line: 2, SessionID: 1}, {Line: 4, SessionID: 1}}
		want[0].FrameID, want[1].FrameID, want[2].FrameID = 1, 2, 3
		want[0].Code, want[0].Severity, want[0].Pointer = "jsonrpc.version", "error", "/jsonrpc"
		want[1].Code, want[1].Severity, want[1].Pointer = "jsonrpc.response-shape", "error", ""
		want[2].Code, want[2].Severity, want[2].Pointer = "jsonrpc.reserved-code", "warning", "/error/code"
		for i, g := range got {
			w := want[i]
			if g.Code != w.Code || g.Severity != w.Severity || g.Pointer != w.Pointer || g.Line != w.Line || g.SessionID != w.SessionID || g.FrameID != w.FrameID ||
				g.Message == "" || g.Fix == "" || !strings.HasPrefix(g.Spec, "https://") {
				t.Errorf("finding %d: %+v, want %+v with a message, fix and spec", i, g, w)
			}
		}
	})

	t.Run("help", func(t *testing.T) {
		if r := lintRun(t, "", "-h"); r.code != 0 || !strings.Contains(r.stderr, "Exit status: 0 when no finding is an error") {
			t.Errorf("lint -h: exit %d\n%s", r.code, r.stderr)
		}
	})
}

// TestLintDashboardExports records sessions with the demo server in a
// running dashboard, downloads their exports as a person does and lints
// them with the built binary: the demo server's traffic has no error
// finding (exit 0); a frame sent raw with "jsonrpc": "1.0" is found in
// the session's export and its history export (exit 1); a history
// export is linted as the excerpt it says it is.
func TestLintDashboardExports(t *testing.T) {
	bin := e2eBuildPlayground(t)
	s := e2eServe(t, bin)
	demo := s.apiCreateServer(t, map[string]any{"name": "demo", "transport": "stdio", "command": bin, "args": []string{"demo-server"}})
	open := func() int64 {
		var sess struct {
			ID              int64  `json:"id"`
			ProtocolVersion string `json:"protocolVersion"`
		}
		e2ePostJSON(t, fmt.Sprintf("%s/api/v1/servers/%d/sessions", s.URL, demo), nil, http.StatusCreated, &sess)
		if sess.ProtocolVersion == "" {
			t.Fatalf("the session %d has no protocol version", sess.ID)
		}
		return sess.ID
	}
	call := func(session int64, message string) {
		var out struct{ Result json.RawMessage }
		e2ePostJSON(t, fmt.Sprintf("%s/api/v1/sessions/%d/requests", s.URL, session),
			map[string]any{"method": "tools/call", "params": map[string]any{"name": "echo", "arguments": map[string]any{"message": message}}}, http.StatusOK, &out)
		if !strings.Contains(string(out.Result), message) {
			t.Fatalf("echo %s answered %s", message, out.Result)
		}
	}
	export := func(path string) string {
		t.Helper()
		var body string
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			// An export reads what the recorder has committed.
			body = e2eGet(t, s.URL+path)
			if strings.Count(body, "\n") >= 2 || time.Now().After(deadline) {
				break
			}
		}
		return writeTemp(t, strings.NewReplacer("/", "-", "?", "-", "=", "-").Replace(strings.Trim(path, "/"))+".ndjson", body)
	}
	lint := func(args ...string) lintResult {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"lint"}, args...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		r := lintResult{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
		t.Logf("playground lint %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
		return r
	}

	clean := open()
	call(clean, "kookaburra")
	call(clean, "quokka")
	file := export(fmt.Sprintf("/sessions/%d/export", clean))
	body, _ := os.ReadFile(file)
	if !bytes.Contains(body, []byte(`"method":"initialize"`)) || !bytes.Contains(body, []byte(`"protocolVersion":"20`)) || bytes.Contains(body, []byte(`"excerpt"`)) {
		t.Fatalf("the session's export lacks its handshake or version, or says excerpt:\n%s", body)
	}
	if r := lint(file); r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "of 1 session: 0 errors") {
		t.Errorf("lint of the demo server's session: exit %d, want 0 and no finding", r.code)
	}
	if r := lint("--json", "-"); r.code != 2 || !strings.Contains(r.stderr, "stdin holds no frames") {
		t.Errorf("lint of an empty stdin: exit %d, want 2", r.code)
	}

	broken := open()
	call(broken, "wombat")
	req, err := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/api/v1/sessions/%d/raw", s.URL, broken),
		strings.NewReader(`{"jsonrpc":"1.0","id":"numbat","method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := e2eHTTPDo(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("sending the raw frame: %s", resp.Status)
	}
	var brokenFile string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		brokenFile = export(fmt.Sprintf("/sessions/%d/export", broken))
		if b, _ := os.ReadFile(brokenFile); bytes.Contains(b, []byte("numbat")) || time.Now().After(deadline) {
			break
		}
	}
	r := lint("--json", brokenFile)
	if r.code != 1 {
		t.Errorf("lint of the session with a jsonrpc 1.0 frame: exit %d, want 1", r.code)
	}
	var found bool
	for line := range strings.Lines(r.stdout) {
		var f lintedFinding
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("a line of --json is not JSON: %v\n%s", err, line)
		}
		found = found || f.Code == "jsonrpc.version" && f.Severity == "error" && f.Pointer == "/jsonrpc" && f.SessionID == broken && f.FrameID > 0 && f.Line > 0
	}
	if !found {
		t.Errorf("lint --json does not report the jsonrpc 1.0 frame of session %d", broken)
	}

	history := export("/history/export?q=wombat")
	hb, _ := os.ReadFile(history)
	if strings.Count(string(hb), "\n") != 2 || strings.Count(string(hb), `"excerpt":true`) != 2 {
		t.Fatalf("the history export of the wombat call:\n%s", hb)
	}
	if r := lint(history); r.code != 0 || r.stdout != "" || !strings.Contains(r.stderr, "lint: 2 frames of 1 session: 0 errors") {
		t.Errorf("lint of the history export (an excerpt: no initialize): exit %d, want 0 and no finding", r.code)
	}
}
