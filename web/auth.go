package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
	"github.com/mcp-playground/playground/views"
)

const (
	// sessionCookie holds a browser's session token.
	sessionCookie = "playground_session"
	// principalKey holds, in the echo context, who the request comes from.
	principalKey = "principal"
)

// authenticate notes who a request comes from. JSON API requests (under
// /api/) are authenticated only by a personal API token in
// `Authorization: Bearer`, and refused when the token is not valid; every
// other request only by the browser's session cookie, which is dropped
// when its session has ended. Whether the request may go on is
// authorize's decision.
func (s *Server) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		var p accounts.Principal
		var err error
		if isAPIPath(c) {
			token, ok := bearerToken(r)
			if !ok {
				return next(c)
			}
			if p, err = s.deps.Accounts.AuthenticateToken(r.Context(), token); err != nil {
				return err
			}
		} else {
			ck, cerr := c.Cookie(sessionCookie)
			if cerr != nil {
				return next(c)
			}
			p, err = s.deps.Accounts.Authenticate(r.Context(), ck.Value)
			if backend.ErrorCodeOf(err) == backend.EUnauthenticated {
				s.clearSessionCookie(c)
				return next(c)
			} else if err != nil {
				return err
			}
		}
		c.Set(principalKey, p)
		c.SetRequest(r.WithContext(views.WithViewer(r.Context(), p)))
		return next(c)
	}
}

// bearerToken returns the token of an `Authorization: Bearer` header.
func bearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get(echo.HeaderAuthorization), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// principalOf returns who the request comes from, if anyone signed in.
func principalOf(c echo.Context) (accounts.Principal, bool) {
	p, ok := c.Get(principalKey).(accounts.Principal)
	return p, ok
}

// setSessionCookie gives the browser the session token: HttpOnly, Secure
// when the browser came over TLS, SameSite=Lax so that a link to a page
// of the dashboard from elsewhere (a chat, a ticket) opens it signed in,
// while no other site's form post or subresource carries it.
func (s *Server) setSessionCookie(c echo.Context, token string) {
	c.SetCookie(&http.Cookie{
		Name: sessionCookie, Value: token, Path: "/", MaxAge: int(accounts.SessionMaxAge / time.Second),
		HttpOnly: true, Secure: s.isHTTPS(c.Request()), SameSite: http.SameSiteLaxMode,
	})
}

// clearSessionCookie tells the browser to forget its session cookie.
func (s *Server) clearSessionCookie(c echo.Context) {
	c.SetCookie(&http.Cookie{
		Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: s.isHTTPS(c.Request()), SameSite: http.SameSiteLaxMode,
	})
}
