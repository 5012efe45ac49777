package web_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLayersImportOneWay holds web and views to DESIGN.md's rule
// cmd → web → views → backend → mcpclient: neither reaches past backend
// into the wire layer, and views never imports web. Test files count too.
func TestLayersImportOneWay(t *testing.T) {
	const module = "github.com/mcp-playground/playground/"
	forbidden := map[string][]string{
		".":        {"mcpclient", "cmd"},
		"../views": {"mcpclient", "cmd", "web"},
	}
	for dir, banned := range forbidden {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, name := range files {
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				for _, b := range banned {
					if path == module+b || strings.HasPrefix(path, module+b+"/") {
						t.Errorf("%s imports %s; only the layers below may be imported", name, path)
					}
				}
			}
		}
	}
}
