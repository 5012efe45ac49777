package web

import (
	"crypto/rand"
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

const (
	// csrfCookie holds a browser's CSRF token.
	csrfCookie = "playground_csrf"
	// csrfMaxAge is how long a token lives after the browser's last request.
	csrfMaxAge = 24 * time.Hour
	// csrfHeader carries the token on htmx requests (the layout's
	// hx-headers); forms carry it in the _csrf field (views.CSRFField).
	csrfHeader = "X-CSRF-Token"
	csrfField  = "_csrf"
)

// giveCSRFToken makes a CSRF token when the browser has none, keeps it in
// an HttpOnly, SameSite=Strict cookie that each request renews, and puts it
// in the request context under csrfKey for the page's forms. It runs
// before authorize, so that the page of a refusal has it too (its sign-out
// button), and reads nothing of the body.
func (s *Server) giveCSRFToken(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if isAPIPath(c) {
			return next(c)
		}
		token := cookieCSRFToken(c)
		if token == "" {
			token = rand.Text()
		}
		s.setCSRFToken(c, token)
		c.Response().Header().Add(echo.HeaderVary, echo.HeaderCookie)
		return next(c)
	}
}

// checkCSRF requires on every request that may change state (any method but
// GET, HEAD and OPTIONS) the browser's CSRF token, in the X-CSRF-Token
// header or the _csrf form field, equal to the one in its cookie; it
// refuses the request with 403 otherwise, having read no more of a
// multipart body than the fields before its first file (formToken).
//
// Fetch-metadata headers never stand in for the token. A page of another
// site that frames the dashboard and tricks someone into clicking one of its
// buttons makes a request with Sec-Fetch-Site: same-origin and the
// dashboard's own Origin; only the token, which that page cannot read, shows
// that the dashboard's page sent the form. (The framing itself is refused by
// securityHeaders.) The JSON API needs no token: it is authenticated only
// by API tokens in the Authorization header (authenticate), which no other
// site's page can make a browser send.
func (s *Server) checkCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if isAPIPath(c) || !changesState(r.Method) {
			return next(c)
		}
		sent := r.Header.Get(csrfHeader)
		if sent == "" {
			var err error
			if sent, err = formToken(r); err != nil {
				return err
			}
		}
		token := cookieCSRFToken(c)
		if token == "" || subtle.ConstantTimeCompare([]byte(sent), []byte(token)) != 1 {
			s.deps.Log.Warn("refused a request without the CSRF token", "method", r.Method, "path", r.URL.Path)
			return echo.NewHTTPError(http.StatusForbidden,
				"This request did not come from a page of this dashboard, or the page is too old: reload it and try again.")
		}
		return next(c)
	}
}

// cookieCSRFToken is the CSRF token of the browser's cookie, "" when it
// has none.
func cookieCSRFToken(c echo.Context) string {
	if ck, err := c.Cookie(csrfCookie); err == nil && isCSRFToken(ck.Value) {
		return ck.Value
	}
	return ""
}

// setCSRFToken gives the browser token in an HttpOnly, SameSite=Strict
// cookie (Secure over TLS) and notes it for the page's forms.
func (s *Server) setCSRFToken(c echo.Context, token string) {
	c.SetCookie(&http.Cookie{
		Name: csrfCookie, Value: token, Path: "/", MaxAge: int(csrfMaxAge / time.Second),
		HttpOnly: true, Secure: s.isHTTPS(c.Request()), SameSite: http.SameSiteStrictMode,
	})
	c.Set(csrfKey, token)
}

// newCSRFToken replaces the browser's CSRF token, as when who is signed in
// changes; the page the answer renders carries the new one.
func (s *Server) newCSRFToken(c echo.Context) { s.setCSRFToken(c, rand.Text()) }

// isCSRFToken reports whether v has the form of a token that rand.Text made.
func isCSRFToken(v string) bool { return isRandText(v) }

// isRandText reports whether v has the form of what rand.Text makes: 26
// characters of the base32 alphabet.
func isRandText(v string) bool {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	if len(v) != 26 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if !strings.ContainsRune(alphabet, rune(v[i])) {
			return false
		}
	}
	return true
}
