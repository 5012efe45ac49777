package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// revealSecrets shows an admin the secret values of a server's settings,
// which every page shows redacted. Each reveal is logged with who asked
// and which names, never the values; the answer is not cached.
func (s *Server) revealSecrets(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	srv, err := s.deps.Registry.Get(c.Request().Context(), id)
	if err != nil {
		return err
	}
	secrets := secretSettings(srv)
	names := revealedNames(secrets)
	p, _ := principalOf(c)
	s.deps.Log.Info("revealed a server's secret values", "by", p.User.Name, "server", id, "secrets", names)
	noteAudit(c, auditNote{Details: map[string]any{"revealed": names}})
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return render(c, http.StatusOK, views.RevealedSecrets(secrets, "This server's settings hold no secret value."))
}

// secretSettings lists the values of srv that Redacted hides.
func secretSettings(srv backend.Server) []views.SecretRow {
	shown := srv.Redacted()
	var out []views.SecretRow
	row := func(where, name, value string) views.SecretRow {
		return views.SecretRow{SecretPlace: backend.SecretPlace{Where: where, Name: name}, Value: value}
	}
	if shown.URL != srv.URL {
		out = append(out, row("URL", "url", srv.URL))
	}
	if shown.Proxy != srv.Proxy {
		out = append(out, row("proxy", "proxy", srv.Proxy))
	}
	add := func(where string, all, redacted map[string]string) {
		for _, k := range sortedKeys(all) {
			if redacted[k] != all[k] {
				out = append(out, row(where, k, all[k]))
			}
		}
	}
	add("env", srv.Env, shown.Env)
	add("header", srv.Headers, shown.Headers)
	return out
}

// secretPlaces names where the values of secrets are.
func secretPlaces(secrets []views.SecretRow) []backend.SecretPlace {
	places := make([]backend.SecretPlace, len(secrets))
	for i, x := range secrets {
		places[i] = x.SecretPlace
	}
	return places
}
