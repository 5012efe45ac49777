package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// ownInitBudget bounds what the playground's own packages may allocate
// while Go initialises them, before main: every run of the binary pays
// it, `playground call` included. One compiled regexp takes a few KiB,
// so this holds only tables; a regexp, schema or template at package level
// belongs behind sync.OnceValue.
const ownInitBudget = 32 << 10

// TestStartupOwnPackagesInitCheaply runs the binary with
// GODEBUG=inittrace=1 and checks that the initialisation of the
// playground's own packages stays within ownInitBudget bytes.
func TestStartupOwnPackagesInitCheaply(t *testing.T) {
	bin := e2eBuildPlayground(t)
	cmd := exec.Command(bin, "help")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s help: %v\n%s", bin, err, out)
	}
	const module = "github.com/mcp-playground/playground"
	total, seen := 0, 0
	var each []string
	for _, line := range strings.Split(string(out), "\n") {
		// init PACKAGE @T ms, T ms clock, BYTES bytes, N allocs
		f := strings.Fields(line)
		if len(f) < 10 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		seen++
		if f[1] != module && !strings.HasPrefix(f[1], module+"/") {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", line, err)
		}
		total += n
		each = append(each, fmt.Sprintf("%s %d bytes", f[1], n))
	}
	if seen == 0 {
		t.Fatalf("no inittrace lines in the output:\n%s", out)
	}
	if total > ownInitBudget {
		t.Errorf("the playground's packages allocate %d bytes at initialisation, want at most %d:\n%s", total, ownInitBudget, strings.Join(each, "\n"))
	}
}
