package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/oauth"
)

// fileRun is one run of a collection file's examples on one server.
type fileRun struct {
	file       collections.File
	server     backend.Server
	machine    *oauth.Settings   // the server's client-credentials settings, if any
	label      string            // names the server for people
	env        string            // the file's environment to run with; "" for none
	vars       map[string]string // more values, over the environment's
	checkDrift bool              // compare the server's interface with the file's baseline
	lint       bool              // report the protocol-lint findings of the run's traffic
	out        io.Writer         // progress lines
	log        io.Writer         // the playground's internal errors and a failed connect's diagnosis
	verbose    bool              // log the playground's warnings too
	fix        bool              // on a failed connect, retry once with the diagnosis's first suggestion
	line       commandLine       // how run was invoked
}

// run runs the file's examples with the dashboard's own machinery, in a
// temporary database removed before it returns: it registers the
// server, connects, imports the file and runs it, printing each result
// as it comes; with checkDrift it then compares the interface the server
// offered when it connected with the file's baseline; with lint it
// reads the findings the recorder's linter gave the session's frames. A
// server that cannot be registered or reached is a usage error.
func (fr fileRun) run(ctx context.Context) (*runReport, error) {
	rs, err := openRunSession(ctx, sessionSetup{cmd: "run", server: fr.server, machine: fr.machine, log: fr.log, verbose: fr.verbose,
		fix: fr.fix, line: fr.line, client: "mcp-playground-run", revise: fr.checkDrift})
	defer rs.Close()
	if err != nil {
		return nil, err
	}
	db, pool, rec, sess := rs.db, rs.pool, rs.rec, rs.sess
	cols := collections.New(db, db, db, pool, rs.log)
	defer cols.Close()
	col, err := cols.Import(ctx, fr.file)
	if err != nil {
		return nil, usageError("run: %s", describeError(err))
	}
	req := collections.RunRequest{CollectionID: col.ID, SessionID: sess.ID, Vars: fr.vars}
	if fr.env != "" {
		envs, err := cols.Environments(ctx, col.ID)
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		i := slices.IndexFunc(envs, func(e collections.Environment) bool { return e.Name == fr.env })
		req.EnvironmentID = envs[i].ID // runVars checked that it exists
	}

	rep := &runReport{Collection: fr.file.Name, Server: fr.label, Environment: fr.env, Results: []reportResult{}}
	rep.printStart(fr.out, len(fr.file.Examples))
	start := time.Now()
	if _, err := cols.Run(ctx, req, func(r collections.RunResult) {
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
	if fr.lint {
		if err := rep.readLint(ctx, rec, db, sess.ID); err != nil {
			return nil, fmt.Errorf("run: protocol lint: %w", err)
		}
		printLint(fr.out, rep.LintFrames, rep.Lint)
	}
	return rep, nil
}

// lintPage is how many frames with findings readLint reads at a time.
const lintPage = 500

// readLint waits until the recorder has stored the session's frames so
// far, then notes in the report how many there are and the findings the
// recorder's linter gave them.
func (rep *runReport) readLint(ctx context.Context, rec *backend.Recorder, frames backend.FrameStore, sessionID int64) error {
	if err := rec.Flush(ctx); err != nil {
		return err
	}
	n, err := frames.CountFrames(ctx, sessionID)
	if err != nil {
		return err
	}
	rep.LintChecked, rep.LintFrames, rep.Lint = true, n, []lintedFinding{}
	q := backend.FrameQuery{SessionID: sessionID, Limit: lintPage, BodyPreview: 1, Filter: backend.FrameFilter{Findings: true}}
	for {
		page, err := frames.ListFrames(ctx, q)
		if err != nil || len(page) == 0 {
			return err
		}
		for _, f := range backend.FindingsOf(page) {
			rep.Lint = append(rep.Lint, lintedFinding{FrameFinding: f})
		}
		q.AfterID = page[len(page)-1].ID
	}
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
