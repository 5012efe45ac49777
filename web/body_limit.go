package web

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// bodyLimits bounds every request body to maxBody, but the body of a
// collection file's import (isImportRoute) to importBodyLimit and that of
// a session's import (POST importPath) to maxImportBody. A session import
// over its limit is shown on the import form, like any other refused
// import; it changes nothing.
func bodyLimits() echo.MiddlewareFunc {
	normal := middleware.BodyLimit(strconv.Itoa(maxBody))
	imports := middleware.BodyLimit(strconv.Itoa(importBodyLimit))
	sessions := middleware.BodyLimit(strconv.Itoa(maxImportBody))
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		n, i, s := normal(next), imports(next), sessions(next)
		return func(c echo.Context) error {
			switch {
			case isImportRoute(c):
				return i(c)
			case c.Request().Method == http.MethodPost && c.Path() == importPath:
				err := s(c)
				if errors.Is(err, echo.ErrStatusRequestEntityTooLarge) && !c.Response().Committed {
					return importFailed(c, importTooLarge)
				}
				return err
			}
			return n(c)
		}
	}
}
