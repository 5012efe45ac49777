package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
	"github.com/mcp-playground/playground/backend/store"
)

// accountsFlags are the flags every `user` and `token` subcommand takes to
// find the database.
type accountsFlags struct {
	db, keyFile *string
}

func addAccountsFlags(fs *flag.FlagSet, getenv func(string) string) accountsFlags {
	return accountsFlags{
		db:      fs.String("db", envOr(getenv, "PLAYGROUND_DB", "./playground.db"), "SQLite database file (env PLAYGROUND_DB)"),
		keyFile: keyFileFlag(fs, getenv),
	}
}

// open opens the database (the dashboard may be running) and its accounts.
func (f accountsFlags) open(ctx context.Context, cmd string, getenv func(string) string) (*store.DB, *accounts.Service, error) {
	src, err := keySource(*f.keyFile, getenv)
	if err != nil {
		return nil, nil, usageError("%s: %w", cmd, err)
	}
	db, err := store.Open(ctx, *f.db, store.WithKey(src))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", cmd, err)
	}
	accts, err := accounts.New(db)
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return db, accts, nil
}

// parseCommand parses args with fs, whose usage is usage; help is not an
// error (done is then true).
func parseCommand(fs *flag.FlagSet, usage string, args []string, stderr io.Writer) (done bool, err error) {
	fs.SetOutput(stderr)
	fs.Usage = func() { io.WriteString(stderr, usage); fs.PrintDefaults() }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, nil
		}
		return false, usageError("%s: %w", fs.Name(), err)
	}
	return false, nil
}

// readNewPassword reads a password: the first line of stdin with
// --password-stdin, else typed twice at the terminal without echo.
func readNewPassword(fromStdin bool, stdin io.Reader, stderr io.Writer) (string, error) {
	if fromStdin {
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		return strings.TrimRight(line, "\r\n"), nil
	}
	f, ok := stdin.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return "", errors.New("stdin is not a terminal: give the password on stdin with --password-stdin")
	}
	ask := func(prompt string) (string, error) {
		fmt.Fprint(stderr, prompt)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stderr)
		return string(b), err
	}
	first, err := ask("Password: ")
	if err != nil {
		return "", err
	}
	second, err := ask("Password again: ")
	if err != nil {
		return "", err
	}
	if first != second {
		return "", errors.New("the two passwords differ")
	}
	return first, nil
}

// explain turns a backend error into the text a person at a terminal
// needs: the safe message with its field messages.
func explain(err error) error {
	var be *backend.Error
	if !errors.As(err, &be) {
		return err
	}
	msg := be.Message
	for _, m := range be.Fields {
		if m != msg {
			msg += " " + m
		}
	}
	return errors.New(msg)
}
