package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

const runUsage = `Usage: playground run FILE (--server NAME | --url URL | --sse URL | --stdio 'CMD ARGS') [flags]

Runs the examples of a collection file (exported from the dashboard) on one
MCP server and judges every answer as the dashboard does: against the
example's snapshot and assertions. One line per example as it finishes,
then a summary. Nothing is recorded: the run uses a temporary database,
removed when it ends.

--server NAME runs on a server registered in the dashboard database (--db),
with its stored settings and secrets; the database is only read.

--env NAME picks one of the file's environments. The file holds no secret
values: give each secret of that environment with --var NAME=VALUE or the
environment variable PLAYGROUND_VAR_<NAME>. --var also sets any other
variable, over the environment's value.

Exit status: 0 when every example passed; 1 when one failed or erred, or
the interface drifted (--fail-on-drift); 2 for a bad command line, an
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
	target
	Env         string            // the file's environment to run with; "" for none
	Vars        map[string]string // --var values
	JUnit       string            // where to write a JUnit report; "" for none
	JSON        bool
	FailOnDrift bool
	Timeout     time.Duration // bounds the whole run, connecting included; 0 for none
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
	fs.StringVar(&cfg.Env, "env", "", "run with the file's environment of this name")
	fs.Var(varFlag(cfg.Vars), "var", "`NAME=VALUE` of a variable, over the environment's; repeatable")
	fs.StringVar(&cfg.JUnit, "junit", "", "write a JUnit XML report to this `FILE`, also when the run fails")
	fs.BoolVar(&cfg.JSON, "json", false, "print a JSON report on stdout; the progress lines go to stderr")
	fs.BoolVar(&cfg.FailOnDrift, "fail-on-drift", false, "compare what the server offers with the file's interface baseline; a difference fails the run")
	fs.DurationVar(&cfg.Timeout, "timeout", 0, "give up after this long, connecting included (default: no limit but each example's own)")
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
	if cfg.target, err = tf.target("run"); err != nil {
		return cfg, &exitError{code: 2, err: err}
	}
	if cfg.Server != "" && cfg.DB == "" {
		return cfg, usageError("run: --server needs the dashboard database: give --db")
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
	file, err := readCollectionFile(cfg.File)
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
	srv, label, err := cfg.server(ctx)
	if err != nil {
		return err
	}
	if cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Timeout)
		defer cancel()
	}
	fr := fileRun{file: file, server: srv, label: label, env: cfg.Env, vars: vars, checkDrift: cfg.FailOnDrift, out: stdout, log: stderr}
	if cfg.JSON {
		fr.out = stderr
	}
	rep, err := fr.run(ctx)
	if err != nil {
		return err
	}
	rep.printSummary(fr.out)
	if cfg.JUnit != "" {
		if err := writeJUnitFile(cfg.JUnit, rep); err != nil {
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

// readCollectionFile reads and decodes the collection file at path; what
// is wrong is a usage error that says so for people.
func readCollectionFile(path string) (backend.CollectionFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return backend.CollectionFile{}, usageError("run: %w", err)
	}
	f, err := backend.DecodeCollectionFile(data)
	if err != nil {
		return backend.CollectionFile{}, usageError("run: %s: %s", path, backend.ErrorMessageOf(err))
	}
	return f, nil
}

// runVars returns the variables given on top of the environment named env
// (none when env is ""): every --var, and each secret of the environment
// from --var or else from PLAYGROUND_VAR_<NAME>. An unknown environment
// and a secret without a value are usage errors.
func runVars(f backend.CollectionFile, env string, given map[string]string, getenv func(string) string) (map[string]string, error) {
	vars := maps.Clone(given)
	if vars == nil {
		vars = map[string]string{}
	}
	if env == "" {
		return vars, nil
	}
	i := slices.IndexFunc(f.Environments, func(e backend.FileEnvironment) bool { return e.Name == env })
	if i < 0 {
		if len(f.Environments) == 0 {
			return nil, usageError("run: --env %q: the file has no environments", env)
		}
		names := make([]string, len(f.Environments))
		for j, e := range f.Environments {
			names[j] = fmt.Sprintf("%q", e.Name)
		}
		return nil, usageError("run: --env %q: the file has no such environment; it has %s", env, strings.Join(names, ", "))
	}
	var missing []string
	for _, v := range f.Environments[i].Values {
		if !v.Secret {
			continue
		}
		if _, ok := vars[v.Name]; ok {
			continue
		}
		if value, ok := lookupEnv(getenv, "PLAYGROUND_VAR_"+v.Name); ok {
			vars[v.Name] = value
			continue
		}
		missing = append(missing, v.Name)
	}
	if len(missing) > 0 {
		var how []string
		for _, name := range missing {
			how = append(how, fmt.Sprintf("--var %s=VALUE or PLAYGROUND_VAR_%s", name, name))
		}
		return nil, usageError("run: environment %q needs the secret value of %s, which the file does not hold: give %s",
			env, strings.Join(missing, ", "), strings.Join(how, "; "))
	}
	return vars, nil
}

// lookupEnv reads an environment variable through getenv; an empty
// value counts as unset.
func lookupEnv(getenv func(string) string, name string) (string, bool) {
	v := getenv(name)
	return v, v != ""
}

// runServerName is the name under which a server named by --url, --sse
// or --stdio is registered in the run's temporary database.
const runServerName = "playground run"

// server returns the server to run on and a label that names it in the
// reports: read from the dashboard database for --server, else built
// from the target flags.
func (cfg runConfig) server(ctx context.Context) (backend.Server, string, error) {
	if cfg.Server == "" {
		t := cfg.target
		srv := backend.Server{Name: runServerName, Era: backend.Era(t.Era)}
		label := ""
		switch {
		case t.URL != "" || t.SSE != "":
			srv.Transport, srv.URL, label = backend.TransportHTTP, t.URL, backend.RedactURL(t.URL)
			if t.SSE != "" {
				srv.Transport, srv.URL, label = backend.TransportSSE, t.SSE, backend.RedactURL(t.SSE)
			}
			srv.Headers = map[string]string{}
			for name, values := range t.Header {
				srv.Headers[name] = strings.Join(values, ", ")
			}
		default:
			srv.Transport, srv.Command, srv.Args = backend.TransportStdio, t.Command[0], t.Command[1:]
			label = strings.Join(t.Command, " ")
		}
		return srv, label, nil
	}
	srv, err := dashboardServer(ctx, cfg.DB, cfg.Server)
	if err != nil {
		return srv, "", err
	}
	if cfg.Era != "" {
		srv.Era = backend.Era(cfg.Era)
	}
	for name, values := range cfg.Header {
		if srv.Headers == nil {
			srv.Headers = map[string]string{}
		}
		srv.Headers[name] = strings.Join(values, ", ")
	}
	return srv, srv.Name, nil
}

// dashboardServer reads the server called name, with its secrets, from
// the dashboard database at path, which must exist.
func dashboardServer(ctx context.Context, path, name string) (backend.Server, error) {
	if _, err := os.Stat(path); err != nil {
		return backend.Server{}, usageError("run: --server %q: the dashboard database: %w (give --db or set PLAYGROUND_DB)", name, err)
	}
	db, err := store.Open(ctx, path)
	if err != nil {
		return backend.Server{}, usageError("run: --server %q: %w", name, err)
	}
	defer db.Close()
	servers, err := db.ListServers(ctx)
	if err != nil {
		return backend.Server{}, usageError("run: --server %q: %w", name, err)
	}
	names := make([]string, 0, len(servers))
	for _, s := range servers {
		if s.Name == name {
			s.ID = 0
			return s, nil
		}
		names = append(names, fmt.Sprintf("%q", s.Name))
	}
	if len(names) == 0 {
		return backend.Server{}, usageError("run: --server %q: %s registers no servers", name, path)
	}
	return backend.Server{}, usageError("run: --server %q: %s registers no server of that name; it has %s", name, path, strings.Join(names, ", "))
}

// fileRun is one run of a collection file's examples on one server.
type fileRun struct {
	file       backend.CollectionFile
	server     backend.Server
	label      string            // names the server for people
	env        string            // the file's environment to run with; "" for none
	vars       map[string]string // more values, over the environment's
	checkDrift bool              // compare the server's interface with the file's baseline
	out        io.Writer         // progress lines
	log        io.Writer         // the playground's warnings
}

// run runs the file's examples with the dashboard's own machinery, in a
// temporary database removed before it returns: it registers the
// server, connects, imports the file and runs it, printing each result
// as it comes; with checkDrift it then compares the interface the server
// offered when it connected with the file's baseline. A server that
// cannot be registered or reached is a usage error.
func (fr fileRun) run(ctx context.Context) (*runReport, error) {
	dir, err := os.MkdirTemp("", "playground-run-")
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(ctx, filepath.Join(dir, "run.db"))
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	defer db.Close()
	log := slog.New(slog.NewTextHandler(fr.log, &slog.HandlerOptions{Level: slog.LevelWarn}))
	hub := backend.NewHub(0)
	rec, err := backend.NewRecorder(ctx, db, hub, log)
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	defer rec.Close()
	// Nobody is there to answer a server's elicitation or sampling
	// request: each fails at once.
	inbox := backend.NewInbox(hub, 0)
	var opts []backend.PoolOption
	if fr.checkDrift {
		opts = append(opts, backend.WithRevisions(db))
	}
	pool := backend.NewPool(db, db, rec, hub, inbox, log, mcpclient.Implementation{Name: "mcp-playground-run", Version: version}, opts...)
	defer pool.Close()
	cols := backend.NewCollections(db, db, db, pool, log)
	defer cols.Close()

	serverID, err := backend.NewRegistry(db, db, pool).Create(ctx, fr.server)
	if err != nil {
		return nil, usageError("run: the server: %s", describeError(err))
	}
	sess, err := pool.Connect(ctx, serverID)
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("run: stopped while connecting: %w", context.Cause(ctx))
	}
	if err != nil {
		return nil, usageError("run: %s", describeError(err))
	}
	col, err := cols.Import(ctx, fr.file)
	if err != nil {
		return nil, usageError("run: %s", describeError(err))
	}
	req := backend.RunRequest{CollectionID: col.ID, SessionID: sess.ID, Vars: fr.vars}
	if fr.env != "" {
		envs, err := cols.Environments(ctx, col.ID)
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		i := slices.IndexFunc(envs, func(e backend.Environment) bool { return e.Name == fr.env })
		req.EnvironmentID = envs[i].ID // runVars checked that it exists
	}

	rep := &runReport{Collection: fr.file.Name, Server: fr.label, Environment: fr.env, Results: []reportResult{}}
	rep.printStart(fr.out, len(fr.file.Examples))
	start := time.Now()
	if _, err := cols.Run(ctx, req, func(r backend.RunResult) {
		rep.add(r)
		rep.Results[len(rep.Results)-1].print(fr.out)
	}); err != nil {
		return nil, fmt.Errorf("run: %s", describeError(err))
	}
	rep.setDuration(time.Since(start))
	if fr.checkDrift && ctx.Err() == nil {
		rep.checkDrift(ctx, pool, db, sess, *fr.file.Interface)
		rep.printDrift(fr.out)
	}
	return rep, nil
}

// checkDrift compares the interface the session's server offered when
// it connected with baseline; when that interface cannot be had, the
// report says why (DriftError).
func (rep *runReport) checkDrift(ctx context.Context, pool *backend.Pool, revs backend.RevisionStore, sess backend.Session, baseline backend.InterfaceListing) {
	rep.DriftChecked = true
	if err := pool.AwaitRevision(ctx, sess.ID); err != nil {
		rep.DriftError = "The server's interface could not be listed: " + describeError(err)
		return
	}
	latest, err := revs.Revisions(ctx, sess.ServerID, 0, 1)
	if err != nil || len(latest) == 0 {
		rep.DriftError = fmt.Sprintf("The server's interface was not kept: %v", err)
		return
	}
	rep.Drift = driftReport(backend.DiffListings(baseline, latest[0].Listing))
}

// describeError is err's message for people: an *Error's safe message
// and field messages, or err's own text.
func describeError(err error) string {
	var e *backend.Error
	if !errors.As(err, &e) {
		return err.Error()
	}
	msg := e.Message
	for _, k := range slices.Sorted(maps.Keys(e.Fields)) {
		if e.Fields[k] != e.Message {
			msg += " " + e.Fields[k]
		}
	}
	return msg
}
