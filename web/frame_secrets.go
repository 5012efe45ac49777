package web

import (
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// revealFrameHTTP shows an admin the secret values of a frame's recorded
// HTTP exchange (its URL's credentials and secret headers), which every
// page shows redacted (backend.RedactHTTP), and names the headers whose
// values were never recorded, as revealSecrets does for a server's
// settings: each reveal is logged with who asked and which names, never
// the values; the answer is not cached.
func (s *Server) revealFrameHTTP(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	info, err := s.deps.Frames.RevealFrameHTTP(c.Request().Context(), id)
	if err != nil {
		return err
	}
	secrets := backend.SecretsOfHTTP(info)
	revealed := recordedSecrets(info, secrets.Sealed)
	p, _ := principalOf(c)
	names := revealedNames(revealed)
	s.deps.Log.Info("revealed a frame's recorded secret values", "by", p.User.Name, "frame", id, "secrets", names)
	noteAudit(c, auditNote{Details: map[string]any{"revealed": names}})
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	rows := slices.Concat(revealed, views.NotRecordedRows(secrets.NotRecorded))
	return render(c, http.StatusOK, views.RevealedSecrets(rows, "This frame's HTTP exchange holds no secret value."))
}

// recordedSecrets lists the values of info, a frame's HTTP exchange as
// recorded, at its sealed places: one row a value, leaving out what the
// server's Redactor left of a configured secret.
func recordedSecrets(info *backend.HTTPInfo, sealed []backend.SecretPlace) []views.SecretRow {
	var out []views.SecretRow
	for _, place := range sealed {
		if place.Where == "URL" {
			out = append(out, views.SecretRow{SecretPlace: place, Value: info.URL})
			continue
		}
		for _, v := range info.Header[place.Name] {
			if !backend.HoldsRedactedValue(v) {
				out = append(out, views.SecretRow{SecretPlace: place, Value: v})
			}
		}
	}
	return out
}

// revealedNames names the places of the values revealed, for the log and
// the audit: "URL url", "header Authorization", each once.
func revealedNames(revealed []views.SecretRow) []string {
	names := make([]string, len(revealed))
	for i, x := range revealed {
		names[i] = x.Where + " " + x.Name
	}
	return slices.Compact(names) // a header sent twice is named once
}
