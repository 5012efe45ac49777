package backend

import (
	"fmt"
	"net/url"
	"strings"
)

// Root is a directory the playground offers a server on roots/list: a
// file:// URI and an optional display name.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// MaxRoots is the most roots a server may be given.
const MaxRoots = 100

// rootsProblem says what is wrong with a server's roots, or "". Each URI
// must be a file:// URI with an absolute path (the specification's rule for
// roots up to 2025-11-25), given once; a name, when given, is printable
// text of at most MaxServerNameLen characters.
func rootsProblem(roots []Root) string {
	if len(roots) > MaxRoots {
		return fmt.Sprintf("At most %d roots; these are %d.", MaxRoots, len(roots))
	}
	seen := make(map[string]bool, len(roots))
	for i, r := range roots {
		n := i + 1
		u, err := url.Parse(r.URI)
		switch {
		case r.URI == "":
			return fmt.Sprintf("Root %d has a name but no URI.", n)
		case err != nil || u.Scheme != "file" || !strings.HasPrefix(u.Path, "/") || u.Opaque != "":
			return fmt.Sprintf("Root %d, %q, is not a file:// URI with an absolute path, such as file:///home/me/project.", n, r.URI)
		case seen[r.URI]:
			return fmt.Sprintf("Root %d, %q, is listed twice.", n, r.URI)
		}
		seen[r.URI] = true
		if r.Name != "" {
			if msg := nameProblem(r.Name); msg != "" {
				return fmt.Sprintf("Root %d: %s", n, msg)
			}
		}
	}
	return ""
}

// normalizedRoots trims each root's URI and name and drops the rows left
// wholly empty.
func normalizedRoots(roots []Root) []Root {
	var out []Root
	for _, r := range roots {
		r.URI, r.Name = strings.TrimSpace(r.URI), strings.TrimSpace(r.Name)
		if r.URI != "" || r.Name != "" {
			out = append(out, r)
		}
	}
	return out
}
