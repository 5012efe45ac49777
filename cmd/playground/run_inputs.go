package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/backend/oauth"
	"github.com/mcp-playground/playground/backend/store"
)

// readCollectionFile reads and decodes the collection file src, a path or
// a dashboard's export URL; what is wrong is a usage error that says so
// for people.
func readCollectionFile(ctx context.Context, src string, getenv func(string) string) (collections.File, error) {
	data, err := readCollectionSource(ctx, src, getenv)
	if err != nil {
		return collections.File{}, err
	}
	f, err := collections.DecodeFile(data)
	if err != nil {
		return collections.File{}, usageError("run: %s: %s", describeSource(src), backend.ErrorMessageOf(err))
	}
	return f, nil
}

// runVars returns the variables given on top of the environment named env
// (none when env is ""): every --var, and each secret of the environment
// from --var or else from PLAYGROUND_VAR_<NAME>. An unknown environment
// and a secret without a value are usage errors.
func runVars(f collections.File, env string, given map[string]string, getenv func(string) string) (map[string]string, error) {
	vars := maps.Clone(given)
	if vars == nil {
		vars = map[string]string{}
	}
	if env == "" {
		return vars, nil
	}
	i := slices.IndexFunc(f.Environments, func(e collections.FileEnvironment) bool { return e.Name == env })
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
		if value := getenv("PLAYGROUND_VAR_" + v.Name); value != "" {
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

// resolveServer returns the server to run on and a label that names it in
// the reports (see chooseServer).
func (cfg runConfig) resolveServer(ctx context.Context) (srv backend.Server, machine *oauth.Settings, label string, err error) {
	return chooseServer(ctx, "run", cfg.Server, cfg.DB, cfg.Key, cfg.target)
}

// dashboardServer is readDashboardServer for `playground run`.
func dashboardServer(ctx context.Context, path string, key store.KeySource, name string) (backend.Server, *oauth.Settings, error) {
	return readDashboardServer(ctx, "run", path, key, name)
}

// secretValues returns the values that vars gives the secrets of the
// file's environment env.
func secretValues(f collections.File, env string, vars map[string]string) []string {
	var out []string
	for _, e := range f.Environments {
		if e.Name != env {
			continue
		}
		for _, v := range e.Values {
			if v.Secret && vars[v.Name] != "" {
				out = append(out, vars[v.Name])
			}
		}
	}
	return out
}

// outputRedactor hides what a run prints and reports of the server's
// secrets (backend.NewRedactor) and of the secret values it runs with:
// a server may echo them in its answers, and the output of a run lands
// in CI logs.
func outputRedactor(srv backend.Server, secrets []string) backend.Redactor {
	env := maps.Clone(srv.Env)
	if env == nil {
		env = map[string]string{}
	}
	for i, v := range secrets {
		env[fmt.Sprintf("PLAYGROUND_RUN_SECRET_%d", i)] = v // a secret by name
	}
	srv.Env = env
	return backend.NewRedactor(srv)
}

// redactingWriter writes through to w with r's secrets hidden. Each
// Write is redacted whole: a secret split across two writes is not seen.
type redactingWriter struct {
	w io.Writer
	r backend.Redactor
}

func (rw redactingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(rw.w, rw.r.Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
