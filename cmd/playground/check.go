package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mcp-playground/playground/backend/check"
	"github.com/mcp-playground/playground/backend/store"
)

const checkUsage = `Usage: playground check (--server NAME | --url URL | --sse URL | --stdio 'CMD ARGS') [flags]

Checks one MCP server actively, as the official conformance suite's server
scenarios do: the handshake (initialize, or server/discover in the modern
era) and its capabilities, ping, tools/list, resources/list and
prompts/list followed page by page to the end, an unknown method (-32601),
bad params (-32602), an unknown tool and an unknown resource, completion
and logging when the server declares them, and over Streamable HTTP its
DNS-rebinding protection, Origin and MCP-Protocol-Version validation and
its session lifecycle (an unknown or ended Mcp-Session-Id is 404). Every
exchange is recorded and linted as the dashboard does; the last check,
protocol-lint, fails on an error finding on a frame the server sent.

The report card has one line per check: ✓ passed, ✗ failed, – skipped
(the server lacks the capability or the transport), what it checked and
its evidence (the answer, or why it was skipped, and the recorded frames);
a failure's exchanges follow, indented. Nothing is kept: the traffic is
recorded in a temporary database, removed at the end.

--server NAME checks a server registered in the dashboard database (--db),
with its stored settings and secrets; the database is only read.

Exit status: 0 when no check failed; 1 when one did; 2 for a bad command
line or a server that cannot be reached.

Examples:
  playground check --stdio 'npx -y @modelcontextprotocol/server-everything'
  playground check --url http://127.0.0.1:3001/mcp --junit check.xml
  playground check --server 'Weather' --json > check.json

Flags:
`

// checkConfig is what `playground check` was asked to do.
type checkConfig struct {
	// Server names a server of the dashboard database DB; when it is
	// empty, target names the server.
	Server string
	DB     string
	Key    store.KeySource
	target
	JUnit   string        // where to write a JUnit report; "" for none
	JSON    bool          // print the verdicts as JSON on stdout
	Timeout time.Duration // bounds each check; 0: check's default
	Fix     bool
	Verbose bool
	Line    commandLine
}

// parseCheckConfig reads the flags of `playground check`. Its errors are
// usage errors, but for flag.ErrHelp.
func parseCheckConfig(args []string, getenv func(string) string, stderr io.Writer) (checkConfig, error) {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		io.WriteString(stderr, checkUsage)
		fs.PrintDefaults()
	}
	var cfg checkConfig
	var tf targetFlags
	tf.register(fs)
	fs.StringVar(&cfg.Server, "server", "", "check the server of this name registered in the dashboard database")
	fs.StringVar(&cfg.DB, "db", envOr(getenv, "PLAYGROUND_DB", "./playground.db"), "the dashboard's SQLite database, read for --server (env PLAYGROUND_DB)")
	keyFile := keyFileFlag(fs, getenv)
	fs.StringVar(&cfg.JUnit, "junit", "", "write a JUnit XML report to this `FILE`: one test case per check")
	fs.BoolVar(&cfg.JSON, "json", false, "print the verdicts as JSON on stdout; the report card goes to stderr")
	fs.DurationVar(&cfg.Timeout, "timeout", 0, "give each check this long (default 10s)")
	fs.BoolVar(&cfg.Fix, "fix", false, "when the connect fails, retry once with the first change the diagnosis suggests (transport, URL path or era) and say what changed")
	fs.BoolVar(&cfg.Verbose, "verbose", false, "also print the playground's own warnings to stderr")
	cfg.Line = commandLine{command: "check", args: args, fs: fs}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, err
		}
		return cfg, &exitError{code: 2, err: fmt.Errorf("check: %w", err)}
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return cfg, usageError("check: unexpected argument %q: the server is named by a flag", fs.Arg(0))
	}
	if n := tf.given(); n+boolInt(cfg.Server != "") != 1 {
		fs.Usage()
		return cfg, usageError("check: give exactly one of --server, --url, --sse and --stdio")
	}
	var err error
	if cfg.target, err = tf.target("check", stderr); err != nil {
		return cfg, &exitError{code: 2, err: err}
	}
	if cfg.Server == "" {
		return cfg, nil
	}
	if cfg.DB == "" {
		return cfg, usageError("check: --server needs the dashboard database: give --db")
	}
	if cfg.Key, err = keySource(*keyFile, getenv); err != nil {
		return cfg, &exitError{code: 2, err: fmt.Errorf("check: %w", err)}
	}
	return cfg, nil
}

// runCheck is `playground check`: it connects, runs the checks, prints
// the report card and writes the reports asked for.
func runCheck(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseCheckConfig(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	srv, machine, label, err := chooseServer(ctx, "check", cfg.Server, cfg.DB, cfg.Key, cfg.target)
	if err != nil {
		return err
	}
	redact := outputRedactor(srv, nil)
	stdout, stderr = redactingWriter{stdout, redact}, redactingWriter{stderr, redact}
	out := stdout
	if cfg.JSON {
		out = stderr
	}
	start := time.Now()
	rs, err := openRunSession(ctx, sessionSetup{cmd: "check", server: srv, machine: machine, log: stderr, verbose: cfg.Verbose,
		fix: cfg.Fix, line: cfg.Line, client: "mcp-playground-check"})
	defer rs.Close()
	if err != nil {
		return err
	}
	client, err := rs.pool.Client(rs.sess.ID)
	if err != nil {
		return usageError("check: %s", describeError(err))
	}
	rep, err := check.Run(ctx, check.Conn{Client: client, Frames: check.StoredFrames(rs.rec, rs.db, rs.sess.ID)}, check.Options{Timeout: cfg.Timeout})
	if err != nil {
		return err
	}
	card := checkCard{Server: label, Report: rep, Duration: time.Since(start)}
	card.print(out)
	if cfg.JUnit != "" {
		if err := writeCheckJUnit(cfg.JUnit, card, redact); err != nil {
			return fmt.Errorf("check: --junit: %w", err)
		}
	}
	if cfg.JSON {
		if err := card.writeJSON(stdout); err != nil {
			return fmt.Errorf("check: --json: %w", err)
		}
	}
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("check: stopped before the end: %w", context.Cause(ctx))
	case rep.Count(check.Fail) > 0:
		return fmt.Errorf("check: %s of %d failed", plural(rep.Count(check.Fail), "check"), len(rep.Results))
	}
	return nil
}
