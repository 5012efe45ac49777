package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
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
	f := collections.File{Environments: []collections.FileEnvironment{
		{Name: "staging", Values: []collections.FileEnvValue{{Name: "city", Value: "Paris"}, {Name: "TOKEN", Secret: true}, {Name: "KEY", Secret: true}}},
		{Name: "prod", Values: []collections.FileEnvValue{}},
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
		_, err = runVars(collections.File{}, "nope", nil, env(nil))
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
	rep.add(collections.RunResult{ExampleName: "echo", Outcome: collections.RunPass, Latency: 12 * time.Millisecond})
	rep.add(collections.RunResult{ExampleName: "sum <a&b>", Outcome: collections.RunFail, Latency: 250 * time.Millisecond,
		Message: `The result differs from the snapshot (1 change).`,
		Diff:    []jsondiff.Change{{Path: "/content/0/text", Kind: jsondiff.Changed, Old: json.RawMessage(`"5"`), New: json.RawMessage(`"<6>\u0007"`)}},
		Checks: []collections.CheckResult{
			{Assertion: collections.Assertion{Kind: collections.AssertExists, Path: "$.content"}, Passed: true},
			{Assertion: collections.Assertion{Kind: collections.AssertMatches, Path: "$.content[0].text", Pattern: "^5$"}, Message: `$.content[0].text is "<6>"`},
		}})
	rep.add(collections.RunResult{ExampleName: "slow", Outcome: collections.RunError, Message: "No answer within 60s.\x07"})
	rep.DriftChecked = true
	rep.Drift = driftReport([]backend.KindDiff{{Kind: backend.KindTools, Added: []string{"get-env"}, Removed: []string{"old"},
		Changed: []backend.ItemChange{{Name: "echo", Changes: []jsondiff.Change{{Path: "/description"}}}}}})

	body, err := rep.junit(backend.Redactor{})
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
	if fail.Failure.Type != "fail" || fail.Failure.Message != "The result differs from the snapshot (1 change)." {
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
		body, err := rep.junit(backend.Redactor{})
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
		body, err := rep.junit(backend.Redactor{})
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
	rep.add(collections.RunResult{ExampleName: "a", Outcome: collections.RunPass, Latency: 3 * time.Millisecond})
	rep.add(collections.RunResult{ExampleName: "b", Outcome: collections.RunFail, Latency: time.Millisecond, Message: "differs",
		Diff: []jsondiff.Change{{Path: "/x", Kind: jsondiff.Added, New: json.RawMessage(strings.Repeat("1", 300))}}})
	rep.add(collections.RunResult{ExampleName: "c", Outcome: collections.RunError, Message: "Not sent: no value for token."})
	var out bytes.Buffer
	for _, r := range rep.Results {
		r.print(&out)
	}
	rep.printSummary(&out)
	want := "✓ a  3.0 ms\n" +
		"✗ b  1.0 ms  differs\n" +
		"    /x: (absent) → " + strings.Repeat("1", 199) + "…\n" +
		"! c  Not sent: no value for token.\n" +
		"1 passed, 1 failed, 1 error in 1.234 s\n"
	if out.String() != want {
		t.Errorf("output\n%s\nwant\n%s", out.String(), want)
	}
	if rep.ok() || rep.failure() != "2 of 3 examples did not pass" {
		t.Errorf("ok %t, failure %q", rep.ok(), rep.failure())
	}
}

func TestRunOutputRedactor(t *testing.T) {
	f := collections.File{Environments: []collections.FileEnvironment{{Name: "ci", Values: []collections.FileEnvValue{
		{Name: "user", Value: "alice-the-user"}, {Name: "pw", Secret: true}}}}}
	vars := map[string]string{"user": "alice-the-user", "pw": `p"ssw0rd-value`}
	secrets := secretValues(f, "ci", vars)
	if !slices.Equal(secrets, []string{`p"ssw0rd-value`}) {
		t.Fatalf("secrets = %q", secrets)
	}
	srv := backend.Server{Transport: backend.TransportHTTP, URL: "http://h/mcp", Headers: map[string]string{"Authorization": "Bearer header-t0ken"}}
	var out bytes.Buffer
	w := redactingWriter{&out, outputRedactor(srv, secrets)}
	io.WriteString(w, `/x: "p\"ssw0rd-value" → "Bearer header-t0ken" by alice-the-user`+"\n")
	want := `/x: "[redacted]" → "[redacted]" by alice-the-user` + "\n"
	if out.String() != want {
		t.Errorf("wrote %q, want %q", out.String(), want)
	}
}

// TestRunDashboardServerKey: --server reads a dashboard database whose key
// is kept elsewhere with that key, and a database it cannot open is a
// usage error.
func TestRunDashboardServerKey(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, keyFile := filepath.Join(dir, "playground.db"), filepath.Join(dir, "elsewhere.key")
	db, err := store.Open(ctx, path, store.WithKey(store.KeySource{File: keyFile}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateServer(ctx, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:1/mcp",
		Headers: map[string]string{"Authorization": "Bearer dashboard-s3cret"}}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	srv, _, err := dashboardServer(ctx, path, store.KeySource{File: keyFile}, "remote")
	if err != nil || srv.Headers["Authorization"] != "Bearer dashboard-s3cret" {
		t.Errorf("with the key: %+v, %v", srv, err)
	}
	if _, _, err := dashboardServer(ctx, path, store.KeySource{}, "remote"); exitStatus(err) != 2 {
		t.Errorf("without the key: %v (exit %d), want a usage error", err, exitStatus(err))
	}
}
