package web

import (
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
)

// returnPath returns the page a form asks to come back to (its "return"
// field) and whether it named one that may be used: only a path on this
// dashboard, such as / (the servers list), never another site. A value with a scheme or
// host, one starting with // or holding a backslash (which browsers read
// as a slash), or a control character is refused, so that a form cannot
// be made into an open redirect.
func returnPath(c echo.Context) (string, bool) {
	v := c.FormValue("return")
	if v == "" || !strings.HasPrefix(v, "/") || strings.HasPrefix(v, "//") || strings.ContainsRune(v, '\\') {
		return "", false
	}
	for _, r := range v {
		if r < 0x20 || r == 0x7f {
			return "", false
		}
	}
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil {
		return "", false
	}
	return v, true
}
