package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/serverconfig"
)

const serversUsage = `Usage:
  playground servers import [--db FILE] [--key-file FILE] [--rename | --skip] FILE
  playground servers export [--db FILE] [--key-file FILE] [--format claude|vscode|registry] [NAME...]

import registers the servers of FILE: a Claude Desktop or Cursor config
(mcpServers), a VS Code mcp.json (servers) or an MCP registry server.json;
"-" reads stdin. A server whose name is taken is skipped (--skip, the
default) or registered under a free name (--rename). What was guessed or
left out is printed for each.
export prints the named servers (all without names) as the chosen
client's file. Secret values are placeholders; the notes go to stderr.
Both work while the dashboard runs.
`

// runServers runs `playground servers SUBCOMMAND`.
func runServers(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		io.WriteString(stderr, serversUsage)
		return usageError("servers: want import or export")
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("servers "+sub, flag.ContinueOnError)
	af := addAccountsFlags(fs, getenv)
	var format *string
	var renameFlag, skip *bool
	switch sub {
	case "import":
		renameFlag = fs.Bool("rename", false, "register a server whose name is taken under a free name")
		skip = fs.Bool("skip", false, "skip a server whose name is taken (the default)")
	case "export":
		format = fs.String("format", "claude", "claude (Claude Desktop, Cursor), vscode or registry")
	default:
		io.WriteString(stderr, serversUsage)
		return usageError("servers: unknown subcommand %q", sub)
	}
	if done, err := parseCommand(fs, serversUsage, args, stderr); done || err != nil {
		return err
	}
	if sub == "import" && (fs.NArg() != 1 || *renameFlag && *skip) {
		return usageError("servers import: want one FILE and at most one of --rename and --skip")
	}
	db, _, err := af.open(ctx, "servers "+sub, getenv)
	if err != nil {
		return err
	}
	defer db.Close()
	registry := backend.NewRegistry(db, db, nil) // Create and List need no pool
	if sub == "import" {
		record := func(srv backend.Server, err error) {
			auditCLI(ctx, db, "server.create", backend.User{}, map[string]any{"name": srv.Name, "transport": srv.Transport, "import": fs.Arg(0)}, err, stderr)
		}
		return importServerList(ctx, registry, fs.Arg(0), *renameFlag, record, stdin, stderr)
	}
	f, err := serverconfig.ParseFormat(*format)
	if err != nil {
		return usageError("servers export: %w", err)
	}
	return exportServerList(ctx, registry, f, fs.Args(), stdout, stderr)
}

// importServerList registers the servers of the file at path (stdin for
// "-"), telling record of each attempt.
func importServerList(ctx context.Context, registry *backend.Registry, path string, rename bool, record func(backend.Server, error), stdin io.Reader, stderr io.Writer) error {
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(io.LimitReader(stdin, serverconfig.MaxBytes+1))
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return fmt.Errorf("servers import: %w", err)
	}
	list, err := serverconfig.Parse(data)
	if err != nil {
		return fmt.Errorf("servers import: %s: %w", path, explain(err))
	}
	registered, err := registry.List(ctx)
	if err != nil {
		return fmt.Errorf("servers import: %w", err)
	}
	taken := map[string]bool{}
	for _, s := range registered {
		taken[s.Name] = true
	}
	fmt.Fprintf(stderr, "servers import: %s read as %s\n", path, list.Format.Label())
	failed := 0
	for _, e := range list.Entries {
		srv := e.Server
		if taken[srv.Name] {
			if !rename {
				fmt.Fprintf(stderr, "  %s: skipped, a server has this name (--rename to import it under another)\n", srv.Name)
				continue
			}
			srv.Name = serverconfig.FreeName(srv.Name, taken)
		}
		id, err := registry.Create(ctx, srv)
		record(srv, err)
		if err != nil {
			failed++
			fmt.Fprintf(stderr, "  %s: not imported: %v\n", srv.Name, explain(err))
			continue
		}
		taken[srv.Name] = true
		fmt.Fprintf(stderr, "  %s: imported (%s, id %d)\n", srv.Name, srv.Transport, id)
		for _, n := range e.Notes {
			fmt.Fprintf(stderr, "    note: %s\n", n)
		}
	}
	if failed > 0 {
		return fmt.Errorf("servers import: %d of %d servers not imported", failed, len(list.Entries))
	}
	return nil
}

// exportServerList writes the servers named (all when none is) in format.
func exportServerList(ctx context.Context, registry *backend.Registry, format serverconfig.Format, names []string, stdout, stderr io.Writer) error {
	all, err := registry.List(ctx)
	if err != nil {
		return fmt.Errorf("servers export: %w", err)
	}
	chosen := all
	if len(names) > 0 {
		byName := map[string]backend.Server{}
		for _, s := range all {
			byName[s.Name] = s
		}
		chosen = nil
		for _, n := range names {
			s, ok := byName[n]
			if !ok {
				return fmt.Errorf("servers export: no server is named %q", n)
			}
			chosen = append(chosen, s)
		}
	}
	out, err := serverconfig.Export(chosen, format)
	if err != nil {
		return fmt.Errorf("servers export: %w", explain(err))
	}
	for _, n := range out.Notes {
		fmt.Fprintf(stderr, "note: %s\n", n)
	}
	_, err = stdout.Write(out.JSON)
	return err
}
