package views

import (
	"strings"

	"github.com/mcp-playground/playground/backend"
)

// DestinationNotice is what a save that changed where a server's traffic
// goes removed of its OAuth secrets, told once on the page the save leads to.
type DestinationNotice struct {
	Change  backend.DestinationChange
	Dropped backend.DroppedOAuth
}

// removed lists what the change removed, in words: "the OAuth client
// secret and 2 sign-ins".
func (n DestinationNotice) removed() string {
	var parts []string
	if n.Dropped.ClientSecret {
		parts = append(parts, "the OAuth client secret")
	}
	if n.Dropped.PrivateKey {
		parts = append(parts, "the OAuth client's private key")
	}
	switch g := n.Dropped.Grants; {
	case g == 1:
		parts = append(parts, "1 sign-in")
	case g > 1:
		parts = append(parts, itoa(int64(g))+" sign-ins")
	}
	return strings.Join(parts, " and ")
}

// next says what people do now to connect again.
func (n DestinationNotice) next() string {
	var steps []string
	if n.Dropped.ClientSecret || n.Dropped.PrivateKey {
		steps = append(steps, "someone who knows the client's secret or key must enter it again in the OAuth settings of the Authorization card")
	}
	if n.Dropped.Grants > 0 {
		steps = append(steps, "each person signs in again")
	}
	return strings.Join(steps, ", and ")
}
