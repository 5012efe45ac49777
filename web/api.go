package web

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// The JSON API under /api/v1, for scripts and benchmarks. Errors are
// {"error": "...", "fields": {...}} with a matching status.

type apiError struct {
	Error   string            `json:"error"`
	Fields  map[string]string `json:"fields,omitempty"`
	Session *apiSession       `json:"session,omitempty"`
	// Diagnosis explains a failed connect (the connection doctor's).
	Diagnosis *backend.Diagnosis `json:"diagnosis,omitempty"`
	// SignInURL, when the server needs an OAuth sign-in, is the page of
	// the dashboard where a person signs in.
	SignInURL string `json:"signInUrl,omitempty"`
}

func isAPIPath(c echo.Context) bool { return strings.HasPrefix(c.Request().URL.Path, "/api/") }

// decodeJSON reads the request body, one JSON value and nothing after it
// but white space, into v, refusing unknown fields. A body over the limit is
// a 413 error; any other fault is invalid input.
func decodeJSON(c echo.Context, v any) error {
	dec := json.NewDecoder(c.Request().Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, echo.ErrStatusRequestEntityTooLarge) {
			return bodyError("request body", err)
		}
		return backend.Errorf(backend.EInvalid, "The request body is not valid JSON for this endpoint: %v", err)
	}
	switch _, err := dec.Token(); {
	case err == io.EOF:
		return nil
	case errors.Is(err, echo.ErrStatusRequestEntityTooLarge):
		return bodyError("request body", err)
	}
	return backend.Errorf(backend.EInvalid, "The request body must hold one JSON value and nothing after it but white space.")
}
