package web

import "github.com/labstack/echo/v4"

// returnPath returns the page a form asks to come back to (its "return"
// field) and whether it named one that may be used: only a path on this
// dashboard (localPath), such as / (the servers list), never another site.
func returnPath(c echo.Context) (string, bool) {
	p := localPath(c.FormValue("return"))
	return p, p != ""
}
