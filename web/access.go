package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
)

// The roles routes need, short for the route table in server.go.
const (
	viewerRole = backend.RoleViewer
	editorRole = backend.RoleEditor
	adminRole  = backend.RoleAdmin
)

// anyone is the access of routes that answer without sign-in: signing in,
// the first admin's setup, static files.
const anyone backend.Role = ""

// routeAccess says which role each route needs, keyed by "METHOD PATH" as
// registered. New refuses to build a dashboard with a route missing from it.
type routeAccess map[string]backend.Role

// add registers h for method and path, reachable with the role need.
func (s *Server) add(method, path string, need backend.Role, h echo.HandlerFunc) {
	s.access[method+" "+path] = need
	s.echo.Add(method, path, h)
}

func (s *Server) get(path string, need backend.Role, h echo.HandlerFunc) {
	s.add(http.MethodGet, path, need, h)
}

func (s *Server) post(path string, need backend.Role, h echo.HandlerFunc) {
	s.add(http.MethodPost, path, need, h)
}

// requireAccessForEveryRoute panics when a route was registered without
// saying who may use it, so that no such dashboard ever serves.
func (s *Server) requireAccessForEveryRoute() {
	for _, r := range s.echo.Routes() {
		if _, ok := s.access[r.Method+" "+r.Path]; !ok {
			panic(fmt.Sprintf("web: route %s %s has no access rule", r.Method, r.Path))
		}
	}
}

// authorize lets a request reach its route's handler only when the person
// it comes from has the role the route needs (routeAccess). Requests that
// match no route need someone signed in, then get their 404 or 405.
func (s *Server) authorize(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		need, known := s.access[c.Request().Method+" "+c.Path()]
		if known && need == anyone {
			return next(c)
		}
		p, ok := principalOf(c)
		if !ok {
			return s.refuseAnonymous(c)
		}
		if known && !p.Role.Allows(need) {
			return backend.Errorf(backend.EForbidden, "This needs the %s role; you are signed in as %s with the %s role.", need, p.User.Name, p.Role)
		}
		return next(c)
	}
}

// refuseAnonymous answers a request from nobody signed in: the JSON API
// asks for a token; a browser following a link is sent to sign in and
// brought back; anything else is refused with a link to sign in.
func (s *Server) refuseAnonymous(c echo.Context) error {
	r := c.Request()
	switch {
	case isAPIPath(c):
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="playground"`)
		return backend.Errorf(backend.EUnauthenticated, "Send a personal API token as `Authorization: Bearer TOKEN`; make one on your account page.")
	case isHTMX(c):
		c.Response().Header().Set("HX-Redirect", signInURL(htmxPage(r)))
		return c.NoContent(http.StatusUnauthorized)
	case r.Method == http.MethodGet && !isWebSocket(r):
		return c.Redirect(http.StatusSeeOther, signInURL(r.URL.RequestURI()))
	}
	return backend.Errorf(backend.EUnauthenticated, "Sign in first: your session has ended or you are not signed in. Nothing was done.")
}

// signInURL is the sign-in page that returns to next.
func signInURL(next string) string {
	if next == "" || next == "/" {
		return "/signin"
	}
	return "/signin?next=" + url.QueryEscape(next)
}

// htmxPage is the local path of the page that made an htmx request.
func htmxPage(r *http.Request) string {
	u, err := url.Parse(r.Header.Get("HX-Current-URL"))
	if err != nil {
		return ""
	}
	return localPath(u.RequestURI())
}

// localPath returns p when it is a path on this dashboard, "" otherwise,
// so that a link or form that names a page to go on to (sign-in's next, a
// form's return) cannot send someone to another site. Browsers drop tabs
// and newlines from a URL and read a backslash as a slash, so
// "/\t/evil.example" and "/\\evil.example" lead elsewhere: p may hold no
// control character nor backslash at all, and no scheme or host.
func localPath(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return ""
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f || r == '\\' {
			return ""
		}
	}
	if u, err := url.Parse(p); err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return ""
	}
	return p
}

func isWebSocket(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}
