package collections

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcp-playground/playground/backend"
)

// An environment's secret values go only where the environment allows:
// Environment.Origins lists origins ("https://mcp.example.com") and, for
// the stdio servers (which only admins register), the word "stdio". A run
// with an environment that has secret variables is refused before any
// request when the session's server is reached anywhere not listed. With
// no origin listed, an environment's stored secret values go nowhere: it
// runs only once someone lists where they may go. Widening the list of an
// environment with stored secrets takes an admin, or the secret values
// typed again (see SaveEnvironment).

// maxOrigins bounds an environment's Origins.
const maxOrigins = 50

// checkOrigins returns origins trimmed, normalised, without repeats, in
// order, or an EInvalid *backend.Error for the field "origins".
func checkOrigins(origins []string) ([]string, error) {
	out := []string{}
	for _, o := range origins {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if o != backend.StdioDestination {
			n, err := backend.NormalOrigin(o)
			if err != nil {
				return nil, backend.InvalidField("origins", err.Error()+`, or "stdio".`)
			}
			o = n
		}
		if !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	if len(out) > maxOrigins {
		return nil, backend.InvalidField("origins", fmt.Sprintf("List at most %d origins.", maxOrigins))
	}
	return out, nil
}

// widens reports whether next allows a destination that prev did not.
func widens(prev, next []string) bool {
	for _, o := range next {
		if !slices.Contains(prev, o) {
			return true
		}
	}
	return false
}

// hasSecrets reports whether env has a secret variable.
func (env Environment) hasSecrets() bool {
	return slices.ContainsFunc(env.Values, func(v EnvValue) bool { return v.Secret })
}

// mayGo says, as an EForbidden *backend.Error, why env's secret variables may not
// be sent to dest (a session's Destinations), or returns nil. stored says
// the environment holds secret values of its own (not only values given
// with the run).
func (env Environment) mayGo(dest []string, stored bool) error {
	if len(env.Origins) == 0 {
		if !stored {
			return nil
		}
		return backend.Errorf(backend.EForbidden, "The environment %q holds secret values and lists no origin they may be sent to: list this server's (%s) under the environment's \"Secrets go only to\" to run with it.",
			env.Name, strings.Join(dest, ", "))
	}
	for _, d := range dest {
		if !slices.Contains(env.Origins, d) {
			return backend.Errorf(backend.EForbidden, "The environment %q sends its secret values only to %s; this session's server is reached at %s. Nothing was sent.",
				env.Name, strings.Join(env.Origins, ", "), strings.Join(dest, ", "))
		}
	}
	return nil
}
