package web

import (
	"errors"
	"fmt"
	"math"
	"mime"
	"strconv"

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

// pathID parses the path parameter name as a positive id; anything else is
// not found.
func pathID(c echo.Context, name string) (int64, error) {
	id, err := strconv.ParseInt(c.Param(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, backend.Errorf(backend.ENotFound, "There is nothing at this address.")
	}
	return id, nil
}

// queryInt parses the query parameter name as a whole number from 0 to the
// largest T; absent or empty, it is def. Anything else (not a number,
// negative, too large) is an invalid-input error naming the parameter.
func queryInt[T int | int64](c echo.Context, name string, def T) (T, error) {
	text := c.QueryParam(name)
	if text == "" {
		return def, nil
	}
	largest := int64(math.MaxInt64)
	if _, isInt := any(def).(int); isInt && strconv.IntSize == 32 {
		largest = math.MaxInt32
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n < 0 || n > largest {
		msg := fmt.Sprintf("must be a whole number from 0 to %d", largest)
		return 0, &backend.Error{Code: backend.EInvalid, Message: fmt.Sprintf("The %s parameter %s.", name, msg),
			Fields: map[string]string{name: msg}}
	}
	return T(n), nil
}
