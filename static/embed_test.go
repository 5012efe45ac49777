package static

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// conflictMarker matches a line that a merge left unresolved.
var conflictMarker = regexp.MustCompile(`(?m)^(<{7} |={7}$|>{7} )`)

// TestNoConflictMarkers checks that no file of our own holds a line that a
// merge left unresolved: a browser drops the rule that follows such a
// line, so the page silently loses its style.
func TestNoConflictMarkers(t *testing.T) {
	err := fs.WalkDir(FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(path, "vendor/") {
			return err
		}
		b, err := fs.ReadFile(FS, path)
		if err != nil {
			return err
		}
		if loc := conflictMarker.FindIndex(b); loc != nil {
			t.Errorf("%s: line %d is a merge conflict marker", path, strings.Count(string(b[:loc[0]]), "\n")+1)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
