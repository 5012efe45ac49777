package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/mcp-playground/playground/backend/store"
)

const keyUsage = `Usage: playground key rotate [--db PATH] [--key-file PATH]

Gives the database's secrets a new key: every sealed value is re-sealed in
one transaction, then the key file is replaced. With the key in
PLAYGROUND_KEY, the new key is printed to stdout instead (base64, once):
put it in PLAYGROUND_KEY before the next start. Stop the dashboard first.
`

// keyFileFlag adds --key-file to fs, falling back to PLAYGROUND_KEY_FILE.
func keyFileFlag(fs *flag.FlagSet, getenv func(string) string) *string {
	return fs.String("key-file", getenv("PLAYGROUND_KEY_FILE"),
		"file holding the key that seals the database's secrets, created if absent (default: the database path + \".key\"; env PLAYGROUND_KEY_FILE); "+
			"or give the key itself, base64, in env PLAYGROUND_KEY")
}

// keySource is where the secret key comes from: PLAYGROUND_KEY (never a
// flag, so that it does not show in the process list), else the key file
// (file; "" for the default beside the database). Both at once, or a
// malformed PLAYGROUND_KEY, is an error.
func keySource(file string, getenv func(string) string) (store.KeySource, error) {
	text := getenv("PLAYGROUND_KEY")
	if text == "" {
		return store.KeySource{File: file}, nil
	}
	if file != "" {
		return store.KeySource{}, errors.New("both PLAYGROUND_KEY and a key file (--key-file or PLAYGROUND_KEY_FILE) are given; give one")
	}
	key, err := store.ParseKey(text)
	if err != nil {
		return store.KeySource{}, fmt.Errorf("PLAYGROUND_KEY: %w", err)
	}
	return store.KeySource{Key: key}, nil
}

// runKey runs `playground key SUBCOMMAND`.
func runKey(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "rotate" {
		io.WriteString(stderr, keyUsage)
		return usageError("key: want the subcommand rotate")
	}
	fs := flag.NewFlagSet("key rotate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { io.WriteString(stderr, keyUsage); fs.PrintDefaults() }
	db := fs.String("db", envOr(getenv, "PLAYGROUND_DB", "./playground.db"), "SQLite database file (env PLAYGROUND_DB)")
	keyFile := keyFileFlag(fs, getenv)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError("key rotate: %w", err)
	}
	if fs.NArg() > 0 {
		return usageError("key rotate: unexpected argument %q", fs.Arg(0))
	}
	src, err := keySource(*keyFile, getenv)
	if err != nil {
		return usageError("key rotate: %w", err)
	}
	var publish func([]byte) error
	published := false
	if src.Key != nil {
		publish = func(key []byte) error {
			published = true
			_, err := fmt.Fprintln(stdout, store.EncodeKey(key))
			return err
		}
	}
	rot, err := store.RotateKey(ctx, *db, src, publish)
	if err != nil && published {
		return fmt.Errorf("key rotate: %w; the database still uses the old key: discard the printed one", err)
	}
	if err != nil {
		return fmt.Errorf("key rotate: %w", err)
	}
	where := "the key file " + *keyFile
	if src.Key != nil {
		where = "the key printed above: set PLAYGROUND_KEY to it"
	} else if *keyFile == "" {
		where = "the key file " + *db + ".key"
	}
	fmt.Fprintf(stderr, "key rotate: %d sealed values of %s now use %s\n", rot.Resealed, *db, where)
	if rot.Foreign > 0 {
		fmt.Fprintf(stderr, "key rotate: %d texts that look sealed but were not sealed with the old key were left as they were\n", rot.Foreign)
	}
	return nil
}
