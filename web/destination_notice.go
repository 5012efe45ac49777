package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/views"
)

// destinationNoticeCookie carries, from a save that changed where a
// server's traffic goes to the page it leads to, what the change removed
// of the server's OAuth secrets.
const destinationNoticeCookie = "destination_notice"

// leaveDestinationNotice has the server's next page tell what up removed,
// when it removed anything, and the audit event of the save record it.
// The cookie's value is the change and three numbers: "origin.1.0.2"
// (client secret, private key, sign-ins).
func leaveDestinationNotice(c echo.Context, serverID int64, up backend.ServerUpdate) {
	if up.Moved == "" || !up.Dropped.Any() {
		return
	}
	d := up.Dropped
	noteAudit(c, auditNote{Details: map[string]any{"destination_changed": string(up.Moved),
		"removed": map[string]any{"client_secret": d.ClientSecret, "private_key": d.PrivateKey, "sign_ins": d.Grants}}})
	value := fmt.Sprintf("%s.%d.%d.%d", up.Moved, boolDigit(d.ClientSecret), boolDigit(d.PrivateKey), d.Grants)
	c.SetCookie(&http.Cookie{Name: destinationNoticeCookie, Value: value, Path: "/servers/" + itoa(serverID), MaxAge: 300,
		HttpOnly: true, SameSite: http.SameSiteStrictMode})
}

func boolDigit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// takeDestinationNotice returns the notice a save of the server left, if
// any, and forgets it.
func takeDestinationNotice(c echo.Context, serverID int64) *views.DestinationNotice {
	ck, err := c.Cookie(destinationNoticeCookie)
	if err != nil {
		return nil
	}
	c.SetCookie(&http.Cookie{Name: destinationNoticeCookie, Path: "/servers/" + itoa(serverID), MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	parts := strings.Split(ck.Value, ".")
	if len(parts) != 4 {
		return nil
	}
	var n views.DestinationNotice
	var ok bool
	if n.Change, ok = backend.ParseDestinationChange(parts[0]); !ok {
		return nil
	}
	secret, err1 := strconv.Atoi(parts[1])
	key, err2 := strconv.Atoi(parts[2])
	grants, err3 := strconv.Atoi(parts[3])
	n.Dropped = backend.DroppedOAuth{ClientSecret: secret == 1, PrivateKey: key == 1, Grants: grants}
	if err1 != nil || err2 != nil || err3 != nil || grants < 0 || !n.Dropped.Any() {
		return nil
	}
	return &n
}
