package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend/store"
)

const runUsage = `Usage: playground run FILE (--server NAME | --url URL | --sse URL | --stdio 'CMD ARGS') [flags]

Runs the examples of a collection file (exported from the dashboard) on one
MCP server and judges every answer as the dashboard does: against the
example's snapshot and assertions. One line per example as it finishes,
then a summary. Nothing is recorded: the run uses a temporary database,
removed when it ends.

FILE may also be a dashboard's export URL, such as
https://playground.example.com/api/v1/collections/3/export: the file is
fetched with the personal API token in the environment variable
PLAYGROUND_TOKEN.

--server NAME runs on a server registered in the dashboard database (--db),
with its stored settings and secrets; the database is only read.

A server that cannot be reached is diagnosed on stderr, with the command
line that tries each suggestion; --fix tries the first one.

--env NAME picks one of the file's environments. The file holds no secret
values: give each secret of that environment with --var NAME=VALUE or the
environment variable PLAYGROUND_VAR_<NAME>. --var also sets any other
variable, over the environment's value.

--lint judges every frame of the run's traffic as the dashboard does
(JSON-RPC 2.0 and the MCP version negotiated), prints the findings after
the results, and fails the run when one is an error (in the JUnit report,
the test case "protocol lint").

Exit status: 0 when every example passed; 1 when one failed or erred, the
interface drifted (--fail-on-drift) or the traffic broke the protocol
(--lint); 2 for a bad command line, an
unreadable or invalid file, or a server that cannot be reached.

Examples:
  playground run smoke.json --stdio 'npx -y @modelcontextprotocol/server-everything'
  playground run smoke.json --url http://127.0.0.1:3001/mcp --env staging --var TOKEN=s3cret --junit report.xml
  playground run smoke.json --server 'Weather' --fail-on-drift --json > report.json

Flags:
`

// runConfig is what `playground run` was asked to do.
type runConfig struct {
	File string
	// Server names a server of the dashboard database DB; when it is
	// empty, target names the server.
	Server string
	DB     string
	Key    store.KeySource // the key of DB's secrets (keySource), with Server
	target
	Env         string            // the file's environment to run with; "" for none
	Vars        map[string]string // --var values
	JUnit       string            // where to write a JUnit report; "" for none
	JSON        bool
	FailOnDrift bool
	Lint        bool          // judge the run's traffic; an error finding fails the run
	Timeout     time.Duration // bounds the whole run, connecting included; 0 for none
	Fix         bool          // on a failed connect, retry once with the diagnosis's first suggestion
	Verbose     bool          // also print the playground's own warnings, not only its errors
	Line        commandLine   // how run was invoked, for the diagnosis's command lines
}

// varFlag collects repeated --var NAME=VALUE flags.
type varFlag map[string]string

func (f varFlag) String() string { return "" }

func (f varFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	f[strings.TrimSpace(k)] = v
	return nil
}

// exitError is an error that calls for a process exit status other than 1.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// usageError is an error of exit status 2: the command cannot start, for
// a bad command line, file or server.
func usageError(format string, args ...any) error {
	return &exitError{code: 2, err: fmt.Errorf(format, args...)}
}

// exitStatus is the process exit status for err returned by run.
func exitStatus(err error) int {
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	return 1
}

// parseRunConfig reads the flags and argument of `playground run`; FILE
// may come before, between or after the flags. Its errors are usage
// errors, but for flag.ErrHelp.
func parseRunConfig(args []string, getenv func(string) string, stderr io.Writer) (runConfig, error) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		io.WriteString(stderr, runUsage)
		fs.PrintDefaults()
	}
	cfg := runConfig{Vars: map[string]string{}}
	var tf targetFlags
	tf.register(fs)
	fs.StringVar(&cfg.Server, "server", "", "run on the server of this name registered in the dashboard database")
	fs.StringVar(&cfg.DB, "db", envOr(getenv, "PLAYGROUND_DB", "./playground.db"), "the dashboard's SQLite database, read for --server (env PLAYGROUND_DB)")
	keyFile := keyFileFlag(fs, getenv)
	fs.StringVar(&cfg.Env, "env", "", "run with the file's environment of this name")
	fs.Var(varFlag(cfg.Vars), "var", "`NAME=VALUE` of a variable, over the environment's; repeatable")
	fs.StringVar(&cfg.JUnit, "junit", "", "write a JUnit XML report to this `FILE`, also when the run fails")
	fs.BoolVar(&cfg.JSON, "json", false, "print a JSON report on stdout; the progress lines go to stderr")
	fs.BoolVar(&cfg.FailOnDrift, "fail-on-drift", false, "compare what the server offers with the file's interface baseline; a difference fails the run")
	fs.BoolVar(&cfg.Lint, "lint", false, "judge every frame of the run's traffic against JSON-RPC 2.0 and the MCP version in use; an error finding fails the run")
	fs.DurationVar(&cfg.Timeout, "timeout", 0, "give up after this long, connecting included (default: no limit but each example's own)")
	fs.BoolVar(&cfg.Fix, "fix", false, "when the connect fails, retry once with the first change the diagnosis suggests (transport, URL path or era) and say what changed")
	fs.BoolVar(&cfg.Verbose, "verbose", false, "also print the playground's own warnings (such as a failed interface listing) to stderr; without it only its internal errors show there, and the results say what went wrong")
	cfg.Line = commandLine{command: "run", args: args, fs: fs, interspersed: true}
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return cfg, err
			}
			return cfg, &exitError{code: 2, err: fmt.Errorf("run: %w", err)}
		}
		if args = fs.Args(); len(args) == 0 {
			break
		}
		files, args = append(files, args[0]), args[1:]
	}
	if len(files) != 1 || files[0] == "" {
		fs.Usage()
		return cfg, usageError("run: want one collection FILE")
	}
	cfg.File = files[0]
	if n := tf.given(); n+boolInt(cfg.Server != "") != 1 {
		fs.Usage()
		return cfg, usageError("run: give exactly one of --server, --url, --sse and --stdio")
	}
	var err error
	if cfg.target, err = tf.target("run", stderr); err != nil {
		return cfg, &exitError{code: 2, err: err}
	}
	if cfg.Server != "" && cfg.DB == "" {
		return cfg, usageError("run: --server needs the dashboard database: give --db")
	}
	if cfg.Server == "" {
		return cfg, nil
	}
	if cfg.Key, err = keySource(*keyFile, getenv); err != nil {
		return cfg, &exitError{code: 2, err: fmt.Errorf("run: %w", err)}
	}
	return cfg, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// runRun is `playground run`: it runs a collection file's examples on one
// server, prints how each fared and writes the reports asked for.
func runRun(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseRunConfig(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	file, err := readCollectionFile(ctx, cfg.File, getenv)
	if err != nil {
		return err
	}
	if len(file.Examples) == 0 {
		return usageError("run: %s has no examples to run", cfg.File)
	}
	if cfg.FailOnDrift && file.Interface == nil {
		return usageError("run: --fail-on-drift: %s has no interface baseline; export it again with the server's interface", cfg.File)
	}
	vars, err := runVars(file, cfg.Env, cfg.Vars, getenv)
	if err != nil {
		return err
	}
	srv, machine, label, err := cfg.resolveServer(ctx)
	if err != nil {
		return err
	}
	redact := outputRedactor(srv, secretValues(file, cfg.Env, vars))
	stdout, stderr = redactingWriter{stdout, redact}, redactingWriter{stderr, redact}
	if cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Timeout)
		defer cancel()
	}
	fr := fileRun{file: file, server: srv, machine: machine, label: label, env: cfg.Env, vars: vars, checkDrift: cfg.FailOnDrift, lint: cfg.Lint, out: stdout, log: stderr,
		fix: cfg.Fix, line: cfg.Line, verbose: cfg.Verbose}
	if cfg.JSON {
		fr.out = stderr
	}
	rep, err := fr.run(ctx)
	if err != nil {
		return err
	}
	rep.printSummary(fr.out)
	if cfg.JUnit != "" {
		if err := writeJUnitFile(cfg.JUnit, rep, redact); err != nil {
			return fmt.Errorf("run: --junit: %w", err)
		}
	}
	if cfg.JSON {
		if err := rep.writeJSON(stdout); err != nil {
			return fmt.Errorf("run: --json: %w", err)
		}
	}
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("run: stopped before the end: %w", context.Cause(ctx))
	case !rep.ok():
		return errors.New("run: " + rep.failure())
	}
	return nil
}
