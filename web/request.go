package web

import (
	"errors"
	"fmt"
	"math"
	"mime"
	"net/http"
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

// formMemory is how much of a form body readForm keeps in memory: the
// file parts of a multipart form beyond it are written to temporary
// files, which the body limits (bodyLimits) bound and which are removed
// when the request ends.
const formMemory = 1 << 20

// readForm parses the form body of a request that may change state before
// anything reads a value from it. Echo's FormValue drops parse errors, so
// a form over the body limit would otherwise arrive without values, and
// fail validation instead of being a 413. The body of any other request
// is dropped unread: GET handlers take their input from the query, and
// FormValue would otherwise read a multipart body into memory. It runs
// after the CSRF check, so only allowed requests are read.
func readForm(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if !changesState(r.Method) {
			r.Body = http.NoBody
			return next(c)
		}
		var err error
		switch mediaTypeOf(r) {
		case echo.MIMEApplicationForm:
			err = r.ParseForm()
		case echo.MIMEMultipartForm:
			err = r.ParseMultipartForm(formMemory)
			if form := r.MultipartForm; form != nil {
				defer form.RemoveAll()
			}
		}
		if err != nil {
			return bodyError("form", err)
		}
		return next(c)
	}
}

// mediaTypeOf is the media type of r's Content-Type, lower case, without
// its parameters; "" when it has none or it cannot be parsed.
func mediaTypeOf(r *http.Request) string {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	return mediaType
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
