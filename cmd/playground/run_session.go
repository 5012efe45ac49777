package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/oauth"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
)

// sessionSetup says how `playground run` and `playground check` connect
// to the server they talk to.
type sessionSetup struct {
	cmd     string          // the command, which prefixes errors
	server  backend.Server  // the server, registered in the temporary database
	machine *oauth.Settings // the server's client-credentials settings, if any
	log     io.Writer       // the playground's internal errors and a failed connect's diagnosis
	verbose bool            // log the playground's warnings too
	fix     bool            // on a failed connect, retry once with the diagnosis's first suggestion
	line    commandLine     // how the command was invoked
	client  string          // the name the playground gives itself in initialize
	revise  bool            // keep the server's interface revisions (for drift)
}

// runSession is one server connected through the dashboard's own
// machinery (store, recorder with its linter, pool) in a temporary
// database that Close removes.
type runSession struct {
	db   *store.DB
	rec  *backend.Recorder
	pool *backend.Pool
	log  *slog.Logger
	sess backend.Session

	closers []func() // run by Close, the last first
}

// openRunSession registers s.server in a temporary database and connects
// to it: a connect that fails is diagnosed on s.log, and retried once
// with the diagnosis's first suggestion when s.fix. A server that cannot
// be registered or reached is a usage error. The caller must Close the
// session, also when openRunSession fails after creating it (it then
// returns it with the error).
func openRunSession(ctx context.Context, s sessionSetup) (*runSession, error) {
	rs := &runSession{}
	dir, err := os.MkdirTemp("", "playground-"+s.cmd+"-")
	if err != nil {
		return rs, fmt.Errorf("%s: %w", s.cmd, err)
	}
	rs.closers = append(rs.closers, func() { os.RemoveAll(dir) })
	db, err := store.Open(ctx, filepath.Join(dir, s.cmd+".db"))
	if err != nil {
		return rs, fmt.Errorf("%s: %w", s.cmd, err)
	}
	rs.db = db
	rs.closers = append(rs.closers, func() { db.Close() })
	// The playground's own log says what the results already say (an
	// interface it could not list is the drift line's error), so only its
	// errors show, unless asked.
	level := slog.LevelError
	if s.verbose {
		level = slog.LevelWarn
	}
	rs.log = slog.New(slog.NewTextHandler(s.log, &slog.HandlerOptions{Level: level}))
	hub := backend.NewHub(0)
	if rs.rec, err = backend.NewRecorder(ctx, db, hub, rs.log, backend.RecorderOptions{}); err != nil {
		return rs, fmt.Errorf("%s: %w", s.cmd, err)
	}
	rs.closers = append(rs.closers, func() { rs.rec.Close() })
	// Nobody is there to answer a server's elicitation or sampling
	// request: each fails at once.
	inbox := backend.NewInbox(hub, 0)
	var opts []backend.PoolOption
	if s.revise {
		opts = append(opts, backend.WithRevisions(db))
	}
	if s.machine != nil {
		oauthService := oauth.New(db, db, rs.log, nil)
		rs.closers = append(rs.closers, func() { oauthService.Close() })
		opts = append(opts, backend.WithCredentials(oauthService))
	}
	rs.pool = backend.NewPool(db, db, rs.rec, hub, inbox, rs.log, mcpclient.Implementation{Name: s.client, Version: version}, opts...)
	rs.closers = append(rs.closers, rs.pool.Close)

	reg := backend.NewRegistry(db, db, rs.pool)
	serverID, err := reg.Create(ctx, s.server)
	if err != nil {
		return rs, usageError("%s: the server: %s", s.cmd, describeError(err))
	}
	if s.machine != nil {
		if err := db.SaveOAuthSettings(ctx, serverID, *s.machine); err != nil {
			return rs, fmt.Errorf("%s: the server's OAuth settings: %w", s.cmd, err)
		}
	}
	sess, err := rs.pool.Connect(ctx, serverID)
	if d, ok := backend.DiagnosisOf(err); ok && ctx.Err() == nil {
		sess, err = retryFixed(s.log, d, s.line, backend.NewRedactor(s.server).Text, s.fix, err, func(change backend.Fix) (backend.Session, error) {
			fixed, err := s.server.WithFix(change)
			if err != nil {
				return backend.Session{}, err
			}
			fixed.ID = serverID
			up, err := reg.Update(ctx, fixed)
			if err != nil {
				return backend.Session{}, err
			}
			// A fix that changes where the traffic goes drops the stored
			// OAuth secrets; the settings here are the caller's own, given
			// for this run, so they go along as asked.
			if up.Moved != "" && s.machine != nil {
				if err := db.SaveOAuthSettings(ctx, serverID, *s.machine); err != nil {
					return backend.Session{}, err
				}
			}
			return rs.pool.Connect(ctx, serverID)
		})
	}
	if err != nil && ctx.Err() != nil {
		return rs, fmt.Errorf("%s: stopped while connecting: %w", s.cmd, context.Cause(ctx))
	}
	if err != nil {
		return rs, usageError("%s: %s", s.cmd, describeError(err))
	}
	rs.sess = sess
	return rs, nil
}

// Close disconnects, stops the recorder and removes the temporary
// database.
func (rs *runSession) Close() {
	for i := len(rs.closers) - 1; i >= 0; i-- {
		rs.closers[i]()
	}
	rs.closers = nil
}
