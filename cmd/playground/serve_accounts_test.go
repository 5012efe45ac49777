package main

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// allInterfacesRE matches the log line of a dashboard listening on every
// interface (Go names 0.0.0.0 [::] when the host has IPv6).
var allInterfacesRE = regexp.MustCompile(`msg="dashboard listening" url=http://(0\.0\.0\.0|\[::\]):`)

// TestServeOnAllInterfacesOnceAnAdminExists runs the binary: on a fresh
// database `serve --addr 0.0.0.0:0` exits with the refusal; after
// `playground user add --admin` it serves.
func TestServeOnAllInterfacesOnceAnAdminExists(t *testing.T) {
	bin := e2eBuildPlayground(t)
	db := filepath.Join(t.TempDir(), "playground.db")
	refused := exec.Command(bin, "serve", "--addr", "0.0.0.0:0", "--db", db)
	refused.Env = e2eEnvWithout(e2eEnviron(), "PLAYGROUND_ADDR", "PLAYGROUND_DB")
	out, err := refused.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "while no account exists") {
		t.Fatalf("serve on 0.0.0.0 without an account: %v\n%s", err, out)
	}
	e2eAdminToken(t, bin, db)
	cmd := exec.Command(bin, "serve", "--addr", "0.0.0.0:0", "--db", db)
	cmd.Env = refused.Env
	log := &e2eLog{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e2eStopProcess(cmd) })
	for deadline := time.Now().Add(e2eStartTimeout); !allInterfacesRE.MatchString(log.String()); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("serve on 0.0.0.0 with an admin did not listen within %v:\n%s", e2eStartTimeout, log)
		}
	}
	if strings.Contains(log.String(), "no account exists yet") {
		t.Errorf("a database with an admin still printed a setup link:\n%s", log)
	}
}
