package main

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend/audit"
	"github.com/mcp-playground/playground/backend/store"
)

// TestAccountCommandsAreAudited runs user add, token create and a refused
// user add, and finds them in the audit log as done via cli by the host's
// account, without the password.
func TestAccountCommandsAreAudited(t *testing.T) {
	db := filepath.Join(t.TempDir(), "playground.db")
	env := func(string) string { return "" }
	const password = "a password for the audit test"
	for _, c := range []struct {
		args    []string
		refused bool
	}{
		{[]string{"user", "add", "--db", db, "--password-stdin", "--role", "editor", "carol"}, false},
		{[]string{"token", "create", "--db", db, "--user", "carol", "--name", "ci"}, false},
		{[]string{"user", "add", "--db", db, "--password-stdin", "carol"}, true}, // the name is taken
	} {
		var stderr bytes.Buffer
		if err := runUserOrToken(t, c.args, env, password, &stderr); (err != nil) != c.refused {
			t.Fatalf("%v: %v, want refused %v\n%s", c.args, err, c.refused, stderr.String())
		}
	}
	d, err := store.Open(t.Context(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	events, err := d.ListAuditEvents(t.Context(), audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 3 {
		t.Fatalf("the audit log holds %d events, want 3: %+v", len(events), events)
	}
	refused, token, added := events[0], events[1], events[2]
	for _, e := range events {
		if e.Via != audit.ViaCLI || !strings.HasPrefix(e.ActorName, "host") || strings.Contains(string(e.Details), password) {
			t.Errorf("event %+v (%s): want via cli by the host's account, without the password", e, e.Details)
		}
	}
	if added.Action != "user.add" || added.Outcome != audit.OK || !strings.HasSuffix(added.Target, "(carol)") || !strings.Contains(string(added.Details), `"role":"editor"`) {
		t.Errorf("user add: %+v %s", added, added.Details)
	}
	if token.Action != "token.create" || token.Outcome != audit.OK || !strings.Contains(string(token.Details), `"name":"ci"`) {
		t.Errorf("token create: %+v %s", token, token.Details)
	}
	if refused.Action != "user.add" || refused.Outcome == audit.OK {
		t.Errorf("the refused user add: %+v", refused)
	}
}

func runUserOrToken(t *testing.T, args []string, env func(string) string, password string, stderr io.Writer) error {
	t.Helper()
	if args[0] == "user" {
		return runUser(t.Context(), args[1:], env, strings.NewReader(password+"\n"), io.Discard, stderr)
	}
	return runToken(t.Context(), args[1:], env, io.Discard, stderr)
}
