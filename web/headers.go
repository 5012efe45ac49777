package web

import "github.com/labstack/echo/v4"

// contentSecurityPolicy allows the dashboard's pages only what they load
// from the dashboard itself: no inline script or style, no eval, no plugins.
// Tool results show images and audio as data: URLs, so img-src and
// media-src allow those (an image or audio element runs no script).
// connect-src 'self' covers the live panel's WebSocket: CSP Level 3 lets
// 'self' match ws: on the page's host and port. frame-ancestors 'none'
// keeps every other page from framing the dashboard and tricking someone
// into clicking its buttons (clickjacking). The dashboard frames nothing
// but MCP Apps, which run on the apps origin (see AppsOrigin): frame-src
// names that origin, or nothing without one.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' data:; media-src 'self' data:; connect-src 'self'; " +
	"frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"

// dashboardPolicy is contentSecurityPolicy with frame-src for appsURL.
func dashboardPolicy(appsURL string) string {
	if appsURL == "" {
		return contentSecurityPolicy + "; frame-src 'none'"
	}
	return contentSecurityPolicy + "; frame-src " + appsURL
}

// securityHeaders sets, on every response, the headers that keep other
// sites from framing the dashboard or running script in it. It runs before
// routing and before every other middleware, so refusals (unknown host,
// foreign origin, missing CSRF token), errors, panics, static files, the
// JSON API and a refused WebSocket upgrade carry them too.
//
// Referrer-Policy is same-origin: the dashboard's addresses (server and
// session ids) are never sent to another site. no-referrer would be
// stricter still, but browsers then send "Origin: null" on the dashboard's
// own form posts, which checkHostAndOrigin must refuse.
func securityHeaders(appsURL string) echo.MiddlewareFunc {
	policy := dashboardPolicy(appsURL)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			h := c.Response().Header()
			h.Set("Content-Security-Policy", policy)
			h.Set("X-Frame-Options", "DENY") // for browsers without frame-ancestors
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "same-origin")
			return next(c)
		}
	}
}
