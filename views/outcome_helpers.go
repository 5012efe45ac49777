package views

import (
	"encoding/base64"
	"strings"

	"github.com/a-h/templ"
)

// linkName is what a resource_link is called: its title, else its name,
// else its URI.
func linkName(c ContentView) string {
	switch {
	case c.Title != "":
		return c.Title
	case c.Name != "":
		return c.Name
	}
	return c.URI
}

func joinComma(s []string) string { return strings.Join(s, ", ") }

// downloadURL makes a data URL that downloads binary contents whose
// payload is valid base64, as an opaque file: the browser never renders
// it.
func downloadURL(data string) (templ.SafeURL, bool) {
	if _, err := base64.StdEncoding.DecodeString(data); err != nil {
		return "", false
	}
	return templ.SafeURL("data:application/octet-stream;base64," + data), true
}

// base64Size is the decoded length of a padded base64 payload.
func base64Size(data string) int {
	return len(data)/4*3 - (len(data) - len(strings.TrimRight(data, "=")))
}
