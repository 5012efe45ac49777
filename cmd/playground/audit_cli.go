package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	osuser "os/user"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/audit"
	"github.com/mcp-playground/playground/backend/store"
)

// auditCLI records in the audit log a change that a subcommand made on
// the host, or failed to make (err): the actor is the operating-system
// account that ran it, via cli. A failure to record is reported on stderr
// and changes nothing else.
func auditCLI(ctx context.Context, db *store.DB, action string, u backend.User, details map[string]any, err error, stderr io.Writer) {
	e := audit.Event{ActorName: hostAccount(), Via: audit.ViaCLI, Client: "localhost", Action: action}
	if u.ID != 0 {
		e.Target = fmt.Sprintf("user %d (%s)", u.ID, u.Name)
	}
	if err != nil {
		e.Outcome = err.Error()
	}
	if details != nil {
		e.Details, _ = json.Marshal(details)
	}
	if rerr := audit.NewLog(db).Record(ctx, e); rerr != nil {
		fmt.Fprintf(stderr, "%s: could not record it in the audit log: %v\n", action, rerr)
	}
}

// hostAccount names the operating-system account running the command.
func hostAccount() string {
	if u, err := osuser.Current(); err == nil {
		return "host:" + u.Username
	}
	return "host"
}
