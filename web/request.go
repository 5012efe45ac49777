package web

import (
	"errors"
	"fmt"
	"mime"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// maxBody bounds every request body (middleware.BodyLimit). A body over it
// is a 413, however it is read (see bodyError).
const maxBody = 8 << 20

// bodyTooLargeMessage is what a person sees for a body over maxBody.
var bodyTooLargeMessage = fmt.Sprintf("The request body is larger than the %d MiB limit.", maxBody>>20)

// bodyError returns err, from reading a request body, as the error to
// answer with: the reader's 413 (middleware.BodyLimit's, as the reader
// returns it), wrapped, or else a 422 saying what was read.
func bodyError(what string, err error) error {
	if errors.Is(err, echo.ErrStatusRequestEntityTooLarge) {
		return fmt.Errorf("web: reading %s: %w", what, err)
	}
	return backend.Errorf(backend.EInvalid, "The %s could not be read: %v", what, err)
}

// readForm parses a form body before anything reads a value from it.
// Echo's FormValue drops parse errors, so a form over the body limit would
// otherwise arrive without values, and fail the CSRF check or validation
// instead of being a 413.
func readForm(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		var err error
		switch mediaType {
		case "application/x-www-form-urlencoded":
			err = r.ParseForm()
		case "multipart/form-data":
			err = r.ParseMultipartForm(32 << 20) // as Echo parses it
		}
		if err != nil {
			return bodyError("form", err)
		}
		return next(c)
	}
}
