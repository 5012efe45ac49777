package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/mcp-playground/playground/backend"
)

const userUsage = `Usage:
  playground user add [--admin | --role ROLE] [--password-stdin] NAME
  playground user passwd [--password-stdin] NAME
  playground user list

add creates an account (the first admin, before the dashboard serves a
team); passwd sets an account's password and signs it out everywhere (for
someone locked out); list shows the accounts. The password is typed twice
at the terminal, or read from the first line of stdin with --password-stdin.
They work while the dashboard runs.
`

// runUser runs `playground user SUBCOMMAND`.
func runUser(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		io.WriteString(stderr, userUsage)
		return usageError("user: want add, passwd or list")
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("user "+sub, flag.ContinueOnError)
	af := addAccountsFlags(fs, getenv)
	var isAdmin, fromStdin *bool
	var role *string
	switch sub {
	case "add":
		isAdmin = fs.Bool("admin", false, "make the account an admin (same as --role admin)")
		role = fs.String("role", string(backend.RoleEditor), "the account's role: admin, editor or viewer")
		fallthrough
	case "passwd":
		fromStdin = fs.Bool("password-stdin", false, "read the password from the first line of stdin")
	case "list":
	default:
		io.WriteString(stderr, userUsage)
		return usageError("user: unknown subcommand %q", sub)
	}
	if done, err := parseCommand(fs, userUsage, args, stderr); done || err != nil {
		return err
	}
	want := 1
	if sub == "list" {
		want = 0
	}
	if fs.NArg() != want {
		return usageError("user %s: want %d argument(s), got %d", sub, want, fs.NArg())
	}
	db, accounts, err := af.open(ctx, "user "+sub, getenv)
	if err != nil {
		return err
	}
	defer db.Close()
	switch sub {
	case "add":
		r := backend.Role(*role)
		if *isAdmin {
			r = backend.RoleAdmin
		}
		password, err := readNewPassword(*fromStdin, stdin, stderr)
		if err != nil {
			return fmt.Errorf("user add: %w", err)
		}
		u, err := accounts.AddUser(ctx, fs.Arg(0), password, r)
		auditCLI(ctx, db, "user.add", u, map[string]any{"name": fs.Arg(0), "role": r}, err, stderr)
		if err != nil {
			return fmt.Errorf("user add: %w", explain(err))
		}
		fmt.Fprintf(stderr, "user add: %s can sign in as %s\n", u.Name, u.Role)
	case "passwd":
		u, err := accounts.UserByName(ctx, fs.Arg(0))
		if err != nil {
			return fmt.Errorf("user passwd: %w", explain(err))
		}
		password, err := readNewPassword(*fromStdin, stdin, stderr)
		if err != nil {
			return fmt.Errorf("user passwd: %w", err)
		}
		err = accounts.ResetPassword(ctx, u.ID, password)
		auditCLI(ctx, db, "user.password", u, nil, err, stderr)
		if err != nil {
			return fmt.Errorf("user passwd: %w", explain(err))
		}
		fmt.Fprintf(stderr, "user passwd: %s has a new password and is signed out everywhere\n", u.Name)
	case "list":
		users, err := accounts.ListUsers(ctx)
		if err != nil {
			return fmt.Errorf("user list: %w", err)
		}
		w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "NAME\tROLE\tSTATE\tCREATED")
		for _, u := range users {
			state := "enabled"
			if u.Disabled {
				state = "disabled"
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", u.Name, u.Role, state, u.Created.Format("2006-01-02"))
		}
		return w.Flush()
	}
	return nil
}
