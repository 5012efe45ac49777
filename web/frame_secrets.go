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
// page shows redacted (backend.RedactHTTP), as revealSecrets does for a
// server's settings: each reveal is logged with who asked and which names,
// never the values; the answer is not cached.
func (s *Server) revealFrameHTTP(c echo.Context) error {
	id, err := idParam(c)
	if err != nil {
		return err
	}
	info, err := s.deps.Frames.RevealFrameHTTP(c.Request().Context(), id)
	if err != nil {
		return err
	}
	secrets := recordedSecrets(info)
	names := make([]string, len(secrets))
	for i, x := range secrets {
		names[i] = x.Where + " " + x.Name
	}
	names = slices.Compact(names) // a header sent twice is named once
	p, _ := principalOf(c)
	s.deps.Log.Info("revealed a frame's recorded secret values", "by", p.User.Name, "frame", id, "secrets", names)
	noteAudit(c, auditNote{Details: map[string]any{"revealed": names}})
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	return render(c, http.StatusOK, views.RevealedSecrets(secrets, "This frame's HTTP exchange holds no secret value."))
}

// recordedSecrets lists the values of info, a frame's HTTP exchange as
// recorded (nil when it had none), that backend.RedactHTTP hides: one
// row a value.
func recordedSecrets(info *backend.HTTPInfo) []views.RevealedSecret {
	if info == nil {
		return nil
	}
	shown := backend.RedactHTTP(info)
	var out []views.RevealedSecret
	if shown.URL != info.URL {
		out = append(out, views.RevealedSecret{Where: "URL", Name: "url", Value: info.URL})
	}
	for _, name := range sortedKeys(info.Header) {
		if slices.Equal(shown.Header[name], info.Header[name]) {
			continue
		}
		for _, v := range info.Header[name] {
			out = append(out, views.RevealedSecret{Where: "header", Name: name, Value: v})
		}
	}
	return out
}
