package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
)

const tokenUsage = `Usage: playground token create --user NAME --name TOKEN_NAME [--role ROLE] [--expires-days N]

Creates a personal API token for an account, as its account page does,
and prints it (once) to stdout: for setting up CI or scripts from the
dashboard's host. The token's role is at most the account's.
`

// runToken runs `playground token create`.
func runToken(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		io.WriteString(stderr, tokenUsage)
		return usageError("token: want the subcommand create")
	}
	fs := flag.NewFlagSet("token create", flag.ContinueOnError)
	af := addAccountsFlags(fs, getenv)
	user := fs.String("user", "", "the account that owns the token")
	name := fs.String("name", "", "what the token is for, e.g. \"CI nightly\"")
	role := fs.String("role", "", "the token's role (default: the account's)")
	days := fs.Int("expires-days", 90, "days until the token expires; 0 never")
	if done, err := parseCommand(fs, tokenUsage, args[1:], stderr); done || err != nil {
		return err
	}
	if fs.NArg() > 0 || *user == "" || *days < 0 {
		return usageError("token create: want --user NAME --name TOKEN_NAME and no arguments")
	}
	db, accts, err := af.open(ctx, "token create", getenv)
	if err != nil {
		return err
	}
	defer db.Close()
	u, err := accts.UserByName(ctx, *user)
	if err != nil {
		return fmt.Errorf("token create: %w", explain(err))
	}
	r := backend.Role(*role)
	if r == "" {
		r = u.Role
	}
	t, token, err := accts.CreateToken(ctx, accounts.Principal{User: u, Role: u.Role}, *name, r, time.Duration(*days)*24*time.Hour)
	auditCLI(ctx, db, "token.create", u, map[string]any{"name": *name, "role": r, "expires-days": *days}, err, stderr)
	if err != nil {
		return fmt.Errorf("token create: %w", explain(err))
	}
	fmt.Fprintln(stdout, token)
	fmt.Fprintf(stderr, "token create: %q for %s, role %s\n", t.Name, u.Name, t.Role)
	return nil
}
