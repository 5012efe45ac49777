package web

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// maxPublicBody bounds the body of a request to a route that answers
// anyone (signing in, the first admin's setup): their forms are a few
// fields, and nobody signed in may make the dashboard read more.
const maxPublicBody = 64 << 10

// bodyLimits bounds every request body to maxBody, but the body of a
// collection file's import (isImportRoute) to importBodyLimit, that of a
// session's import (POST importPath) to maxImportBody, and that of a
// route that answers anyone to maxPublicBody. A session import over its
// limit is shown on the import form, like any other refused import; it
// changes nothing. It runs after authorize: only the bodies of allowed
// requests are ever read.
func (s *Server) bodyLimits() echo.MiddlewareFunc {
	normal := middleware.BodyLimit(strconv.Itoa(maxBody))
	imports := middleware.BodyLimit(strconv.Itoa(importBodyLimit))
	sessions := middleware.BodyLimit(strconv.Itoa(maxImportBody))
	public := middleware.BodyLimit(strconv.Itoa(maxPublicBody))
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		n, i, ses, p := normal(next), imports(next), sessions(next), public(next)
		return func(c echo.Context) error {
			need, known := s.access[c.Request().Method+" "+c.Path()]
			switch {
			case known && need == anyone:
				return p(c)
			case isImportRoute(c):
				return i(c)
			case c.Request().Method == http.MethodPost && c.Path() == importPath:
				err := ses(c)
				if errors.Is(err, echo.ErrStatusRequestEntityTooLarge) && !c.Response().Committed {
					return importFailed(c, importTooLarge)
				}
				return err
			}
			return n(c)
		}
	}
}
