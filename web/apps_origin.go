package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/mcp-playground/playground/backend"
)

// appsRefusalPolicy is the Content-Security-Policy of every answer of the
// apps origin that is not an app's page.
const appsRefusalPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// AppsOrigin serves MCP Apps' HTML, and nothing else, on an origin of its
// own (another port than the dashboard's). An app's HTML is code from an
// MCP server: on the dashboard's origin it could read its pages and send
// its forms. Here it runs in a frame of the dashboard (sandboxed without
// allow-same-origin, so with an opaque origin), under a
// Content-Security-Policy built from the network its resource declares,
// and framable by the dashboard's origins only. It reaches the server only
// through the dashboard's bridge (see appsBridge), which the dashboard's
// page calls on its behalf.
type AppsOrigin struct {
	echo  *echo.Echo
	hosts hostPolicy
	apps  *appStore
	// ancestors are the dashboard's origins, the only pages that may frame
	// an app.
	ancestors string
}

// newAppsOrigin builds the apps origin listening on cfg.AppsAddr (and
// reached at cfg.AppsBaseURL, if set), for the dashboard of cfg that
// answers to dashboardHosts.
func newAppsOrigin(cfg Config, dashboardHosts hostPolicy, apps *appStore, s *Server) *AppsOrigin {
	o := &AppsOrigin{echo: echo.New(), hosts: newHostPolicy(cfg.AppsAddr, urlHosts(cfg.AppsBaseURL)), apps: apps}
	o.ancestors = strings.Join(cspSourceOrigins(dashboardOrigins(cfg, dashboardHosts)), " ")
	e := o.echo
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		code := http.StatusInternalServerError
		if he, ok := err.(*echo.HTTPError); ok {
			code = he.Code
		} else {
			s.deps.Log.Error("apps origin", "err", err)
		}
		_ = c.String(code, http.StatusText(code)+"\n")
	}
	e.Pre(appsHeaders)
	e.Use(middleware.Recover())
	e.Use(o.checkHost)
	e.GET("/apps/:token", o.serveApp)
	return o
}

// cspSourceOrigins keeps the origins that a Content-Security-Policy source
// list can name. Its host-source grammar has no IPv6 literal: browsers
// refuse "http://[::1]:8080" with a console error and ignore it, so such
// an origin is left out (appFrame says why no app shows there).
func cspSourceOrigins(origins []string) []string {
	var kept []string
	for _, o := range origins {
		if !strings.Contains(o, "://[") {
			kept = append(kept, o)
		}
	}
	return kept
}

// ServeHTTP implements http.Handler.
func (o *AppsOrigin) ServeHTTP(w http.ResponseWriter, r *http.Request) { o.echo.ServeHTTP(w, r) }

// appsHeaders sets the headers of every answer of the apps origin; an
// app's page replaces the Content-Security-Policy with its own.
func appsHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", appsRefusalPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		return next(c)
	}
}

// checkHost refuses requests whose Host is not the apps origin's own
// (DNS rebinding).
func (o *AppsOrigin) checkHost(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !o.hosts.allows(c.Request().Host) {
			return c.String(http.StatusMisdirectedRequest, "This apps origin does not answer to the host "+c.Request().Host+".\n")
		}
		return next(c)
	}
}

// serveApp answers an app's HTML under its Content-Security-Policy.
// Unknown and expired tokens are not found.
func (o *AppsOrigin) serveApp(c echo.Context) error {
	page, ok := o.apps.get(c.Param("token"))
	if !ok {
		return echo.NewHTTPError(http.StatusNotFound)
	}
	c.Response().Header().Set("Content-Security-Policy", appPolicy(page.app.CSP, o.ancestors))
	return c.HTMLBlob(http.StatusOK, []byte(page.app.HTML))
}

// appPolicy builds an app page's Content-Security-Policy: the spec's
// restrictive default (inline script and style, images and media from
// data:, no network) opened only to the origins the resource declared, no
// plugins, no form posts, framable by ancestors only, and sandboxed with
// scripts alone even when opened outside the dashboard's frame, so that
// its script never runs with the apps origin's own (same-site) identity.
func appPolicy(csp backend.AppCSP, ancestors string) string {
	list := func(base string, extra []string, none string) string {
		parts := []string{}
		if base != "" {
			parts = append(parts, base)
		}
		parts = append(parts, extra...)
		if len(parts) == 0 {
			return none
		}
		return strings.Join(parts, " ")
	}
	res := csp.ResourceDomains
	return strings.Join([]string{
		"default-src 'none'",
		"script-src " + list("'self' 'unsafe-inline'", res, ""),
		"style-src " + list("'self' 'unsafe-inline'", res, ""),
		"img-src " + list("'self' data:", res, ""),
		"media-src " + list("'self' data:", res, ""),
		"font-src " + list("'self'", res, ""),
		"connect-src " + list("", csp.ConnectDomains, "'none'"),
		"frame-src " + list("", csp.FrameDomains, "'none'"),
		"base-uri " + list("", csp.BaseURIDomains, "'self'"),
		"object-src 'none'",
		"form-action 'none'",
		"frame-ancestors " + ancestors,
		"sandbox allow-scripts",
	}, "; ")
}
