package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
	"github.com/mcp-playground/playground/backend/audit"
	"github.com/mcp-playground/playground/backend/check"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/oauth"
	"github.com/mcp-playground/playground/backend/store"
	"github.com/mcp-playground/playground/mcpclient"
	"github.com/mcp-playground/playground/web"
)

// version is the playground's version, reported to MCP servers.
var version = "dev"

const (
	shutdownGrace = 10 * time.Second
	// inputTimeout is how long a server's elicitation or sampling request
	// waits for a person before it fails.
	inputTimeout = 10 * time.Minute
)

// runServe starts the dashboard and serves until ctx is cancelled, then
// shuts down in order: stop taking requests, end live streams, close every
// MCP session, flush the recorder, close the database.
func runServe(ctx context.Context, args []string, stderr io.Writer) error {
	cfg, err := parseServeConfig(args, os.Getenv, stderr)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))

	db, err := store.Open(ctx, cfg.DB, store.WithKey(cfg.Key))
	if err != nil {
		return err
	}
	defer db.Close()
	if err := endInterrupted(ctx, db, log); err != nil {
		return err
	}

	accts, err := accounts.New(db)
	if err != nil {
		return err
	}
	needsSetup, err := accts.NeedsSetup(ctx)
	if err != nil {
		return err
	}
	if err := cfg.requireAccountsToServeOthers(needsSetup); err != nil {
		return err
	}

	auditLog := audit.NewWriter(db, log)
	defer auditLog.Close() // after the handler's last request, before the database closes

	hub := backend.NewHub(0)
	rec, err := backend.NewRecorder(ctx, db, hub, log, backend.RecorderOptions{})
	if err != nil {
		return err
	}
	defer rec.Close()
	inbox := backend.NewInbox(hub, inputTimeout)
	oauthService := oauth.New(db, db, log, nil)
	defer oauthService.Close() // after the pool: its sessions' token refreshes use it
	pool := backend.NewPool(db, db, rec, hub, inbox, log, mcpclient.Implementation{Name: "mcp-playground", Version: version},
		backend.WithRevisions(db), backend.WithCredentials(oauthService))
	defer pool.Close()
	registry := backend.NewRegistry(db, db, pool)
	cols := collections.New(db, db, db, pool, log)
	defer cols.Close()
	if err := seedDemo(ctx, registry); err != nil {
		log.Warn("the demo server was not registered", "err", err)
	}

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	appsLn, err := net.Listen("tcp", cfg.AppsAddr)
	if err != nil {
		ln.Close()
		return fmt.Errorf("serve: apps origin: %w", err)
	}
	lns, err := serveTLS(cfg, ln, appsLn)
	if err != nil {
		ln.Close()
		appsLn.Close()
		return err
	}
	ln, appsLn = lns[0], lns[1]
	handler := web.New(web.Config{Addr: ln.Addr().String(), AllowedHosts: cfg.AllowedHosts, AppsAddr: appsLn.Addr().String(),
		TLS: cfg.TLSCert != "", BaseURL: cfg.BaseURL, AppsBaseURL: cfg.AppsBaseURL, TrustedProxies: cfg.TrustedProxies},
		web.Deps{Registry: registry, Pool: pool, Sessions: db, Frames: db, Hub: hub, Inbox: inbox, Log: log, Recording: rec, LastCalls: backend.NewLastCalls(db, db), Collections: cols, Revisions: db, History: db, Imports: backend.NewSessionImporter(db, rec), Accounts: accts, Audit: auditLog, Health: db, OAuth: oauthService,
			Checks: check.NewChecker(pool, rec, db, check.Options{})})
	defer handler.Close()
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	appsSrv := &http.Server{Handler: handler.AppsOrigin(), ReadHeaderTimeout: 10 * time.Second}
	dashboardURL := cfg.urlScheme() + "://" + ln.Addr().String()
	log.Info("apps origin listening", listeningAttrs(cfg.urlScheme()+"://"+appsLn.Addr().String(), cfg.AppsBaseURL)...)
	log.Info("dashboard listening", append(listeningAttrs(dashboardURL, cfg.BaseURL), "db", cfg.DB)...)
	if token, err := accts.SetupToken(ctx); err != nil {
		return err
	} else if token != "" {
		log.Warn("no account exists yet: set up the first admin by opening this link once", "url", handler.PublicURL("/setup?token="+token))
	}

	served := make(chan error, 2)
	go func() { served <- srv.Serve(ln) }()
	go func() { served <- appsSrv.Serve(appsLn) }()
	select {
	case err := <-served:
		shutdownAll(log, srv, appsSrv)
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down")
	handler.Close()
	shutdownAll(log, srv, appsSrv)
	pool.Close()
	if err := rec.Close(); err != nil {
		log.Error("recorder", "err", err)
	}
	return nil
}

// listeningAttrs are the log attributes of a listener: url, the address
// it listens on (tests read it), and public_url, where people reach it,
// when a base URL says so.
func listeningAttrs(url, publicURL string) []any {
	if publicURL == "" {
		return []any{"url", url}
	}
	return []any{"url", url, "public_url", publicURL}
}

// shutdownAll stops the servers' listeners and waits, up to shutdownGrace,
// for their requests to finish.
func shutdownAll(log *slog.Logger, servers ...*http.Server) {
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	for _, srv := range servers {
		if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Warn("shutdown", "err", err)
		}
	}
}

// seedDemo registers the bundled demo server, run by this very binary, the
// first time a database is used.
func seedDemo(ctx context.Context, registry *backend.Registry) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	return registry.SeedDemo(ctx, backend.Server{
		Name: "Demo server", Transport: backend.TransportStdio, Command: exe, Args: []string{"demo-server"},
	})
}
