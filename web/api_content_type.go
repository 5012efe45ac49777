package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// requireJSON refuses, with 415 and before reading it, the body of a JSON
// API request that may change state unless its Content-Type is
// application/json: a body sent as text/plain, as a form or with no type
// is never acted on. A request without a body (Content-Length: 0), such
// as a connect, needs no type.
func requireJSON(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if !isAPIPath(c) || !changesState(r.Method) || r.ContentLength == 0 || mediaTypeOf(r) == echo.MIMEApplicationJSON {
			return next(c)
		}
		return echo.NewHTTPError(http.StatusUnsupportedMediaType,
			"The request body must be JSON, sent with Content-Type: application/json; it was not read.")
	}
}
