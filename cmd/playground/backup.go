package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/mcp-playground/playground/backend/store"
)

const backupUsage = `Usage: playground backup [--db PATH] [--key-file PATH] FILE

Copies the database to FILE, a new file, while the dashboard may keep
running (SQLite's VACUUM INTO: one consistent snapshot). The copy's secrets
stay sealed with the database's key, which is not in the copy: back up the
key file (or the value of PLAYGROUND_KEY) separately, and keep it apart
from the copies.
`

// runBackup runs `playground backup FILE`.
func runBackup(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	flags := flag.NewFlagSet("backup", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() { io.WriteString(stderr, backupUsage); flags.PrintDefaults() }
	db := flags.String("db", envOr(getenv, "PLAYGROUND_DB", "./playground.db"), "SQLite database file (env PLAYGROUND_DB)")
	keyFile := keyFileFlag(flags, getenv)
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError("backup: %w", err)
	}
	if flags.NArg() != 1 {
		flags.Usage()
		return usageError("backup: want one argument, the file to write")
	}
	dest := flags.Arg(0)
	src, err := keySource(*keyFile, getenv)
	if err != nil {
		return usageError("backup: %w", err)
	}
	if err := store.Backup(ctx, *db, dest); err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	fmt.Fprintf(stderr, "backup: copied %s to %s\n", *db, dest)
	fmt.Fprintf(stderr, "backup: the copy's secrets are sealed with a key that is not in it: back up %s separately, and keep it apart from the copy\n",
		keyWhere(src, *db))
	return nil
}

// keyWhere names where the key of the database at db is, for a person.
func keyWhere(src store.KeySource, db string) string {
	file := src.KeyFile(db)
	if file == "" {
		return "the value of PLAYGROUND_KEY"
	}
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		return "the key file " + file + " (not found there: give --key-file or PLAYGROUND_KEY_FILE if it is elsewhere)"
	}
	return "the key file " + file
}
