package web

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"github.com/labstack/echo/v4"
)

// csrfScanLimit bounds how much of a multipart body formToken reads to
// find the token: the dashboard's forms send it first (views.CSRFField).
const csrfScanLimit = 64 << 10

// formToken returns the CSRF token in the _csrf field of r's form body, ""
// when it has none. It reads a URL-encoded form whole (its body limit
// bounds it; readForm then uses what was parsed). Of a multipart form it
// reads only the fields before the first file, at most csrfScanLimit
// bytes, and puts back what it read so that readForm parses the whole
// body once the token is found good: an upload without the right token
// is refused before its file is read, let alone kept. The error, if any,
// is a body over its limit (bodyError).
func formToken(r *http.Request) (string, error) {
	mediaType, params, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	switch mediaType {
	case echo.MIMEApplicationForm:
		if err := r.ParseForm(); err != nil {
			return "", bodyError("form", err)
		}
		return r.PostForm.Get(csrfField), nil
	case echo.MIMEMultipartForm:
		if params["boundary"] == "" {
			return "", nil
		}
		return multipartToken(r, params["boundary"])
	}
	return "", nil
}

// multipartToken reads the parts of r's multipart body up to its _csrf
// field (see formToken) and leaves r.Body to read again from the start.
func multipartToken(r *http.Request, boundary string) (string, error) {
	var read bytes.Buffer
	body := r.Body
	defer func() { r.Body = replayedBody{Reader: io.MultiReader(&read, body), Closer: body} }()
	parts := multipart.NewReader(io.TeeReader(io.LimitReader(body, csrfScanLimit), &read), boundary)
	for {
		part, err := parts.NextPart()
		if err != nil {
			return "", tooLargeBody(err)
		}
		if part.FileName() != "" {
			return "", nil
		}
		if part.FormName() == csrfField {
			token, err := io.ReadAll(io.LimitReader(part, 64))
			return string(token), tooLargeBody(err)
		}
	}
}

// tooLargeBody returns err as the error to answer with when it says the
// body is over its limit, nil for any other fault: a body that cannot be
// read carries no token, and is refused for that.
func tooLargeBody(err error) error {
	if errors.Is(err, echo.ErrStatusRequestEntityTooLarge) {
		return bodyError("form", err)
	}
	return nil
}

// replayedBody is a request body read again from its start: Reader gives
// what was read before, then the rest; Closer is the original body.
type replayedBody struct {
	io.Reader
	io.Closer
}
