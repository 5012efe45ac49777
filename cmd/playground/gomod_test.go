package main

import (
	"os"
	"strings"
	"testing"
)

// TestGoModUsesPublishedModules checks that go.mod replaces no module:
// every library is built as its authors published it, so that its fixes
// arrive with a version bump and vulnerability scanners see what is used.
func TestGoModUsesPublishedModules(t *testing.T) {
	text, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(text), "\n") {
		if fields := strings.Fields(line); len(fields) > 0 && fields[0] == "replace" {
			t.Errorf("go.mod:%d: %s", i+1, strings.TrimSpace(line))
		}
	}
}
