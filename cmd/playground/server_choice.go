package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/oauth"
	"github.com/mcp-playground/playground/backend/store"
)

// chooseServer returns the server a command (cmd, which prefixes errors)
// talks to and a label that names it in the reports: the server called
// name read from the dashboard database at db for --server, with t's era
// and headers over its own; else the one t names, registered as
// "playground CMD". machine holds the dashboard server's OAuth
// client-credentials settings, when it has them.
func chooseServer(ctx context.Context, cmd, name, db string, key store.KeySource, t target) (srv backend.Server, machine *oauth.Settings, label string, err error) {
	if name == "" {
		srv, label := t.server("playground " + cmd)
		return srv, nil, label, nil
	}
	srv, machine, err = readDashboardServer(ctx, cmd, db, key, name)
	if err != nil {
		return srv, nil, "", err
	}
	if t.Era != "" {
		srv.Era = backend.Era(t.Era)
	}
	for name, values := range t.Header {
		if srv.Headers == nil {
			srv.Headers = map[string]string{}
		}
		srv.Headers[name] = strings.Join(values, ", ")
	}
	return srv, machine, srv.Name, nil
}

// readDashboardServer reads, for the command cmd, the server called name, with its secrets, from
// the dashboard database at path, which must exist, opened with key; and
// its OAuth settings when they obtain tokens with client credentials,
// which a run uses as the dashboard does (a person's browser sign-in is
// the dashboard's only).
func readDashboardServer(ctx context.Context, cmd, path string, key store.KeySource, name string) (backend.Server, *oauth.Settings, error) {
	if _, err := os.Stat(path); err != nil {
		return backend.Server{}, nil, usageError("%s: --server %q: the dashboard database: %w (give --db or set PLAYGROUND_DB)", cmd, name, err)
	}
	db, err := store.Open(ctx, path, store.WithKey(key))
	if err != nil {
		return backend.Server{}, nil, usageError("%s: --server %q: %w", cmd, name, err)
	}
	defer db.Close()
	servers, err := db.ListServers(ctx)
	if err != nil {
		return backend.Server{}, nil, usageError("%s: --server %q: %w", cmd, name, err)
	}
	names := make([]string, 0, len(servers))
	for _, s := range servers {
		if s.Name != name {
			names = append(names, fmt.Sprintf("%q", s.Name))
			continue
		}
		settings, err := db.OAuthSettings(ctx, s.ID)
		if err != nil {
			return backend.Server{}, nil, usageError("%s: --server %q: its OAuth settings: %w", cmd, name, err)
		}
		s.ID = 0
		if settings.Machine() {
			return s, &settings, nil
		}
		return s, nil, nil
	}
	if len(names) == 0 {
		return backend.Server{}, nil, usageError("%s: --server %q: %s registers no servers", cmd, name, path)
	}
	return backend.Server{}, nil, usageError("%s: --server %q: %s registers no server of that name; it has %s", cmd, name, path, strings.Join(names, ", "))
}
