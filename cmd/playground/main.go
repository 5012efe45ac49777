// Command playground is MCP Playground: a self-hosted dashboard for
// exploring, debugging and recording MCP servers, and the bundled demo
// server. Run `playground help` for the subcommands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		printError(os.Stderr, err)
		os.Exit(exitStatus(err))
	}
}

// printError writes the error a command ended with to w, escaped as the
// commands' own output is (see terminalWriter): it often quotes a server.
func printError(w io.Writer, err error) {
	fmt.Fprintln(newTerminalWriter(w), "playground:", err)
}

const usage = `Usage: playground [command] [flags]

Commands:
  serve         start the dashboard (the default)
  demo-server   run the bundled demo MCP server (stdio, or --http ADDR)
  conformance-client URL
                the client the official MCP conformance suite runs
  call          send one request to an MCP server and print the result
  run FILE      run a collection file's examples on an MCP server (for CI)
  check         check an MCP server against the protocol, as the official
                conformance suite's server scenarios do (a verdict per check)
  lint FILE     judge a session or history export against JSON-RPC 2.0 and
                MCP (exit 1 on an error finding)
  key rotate    give the database's secrets a new key (dashboard stopped)
  backup FILE   copy the database to FILE while the dashboard runs (the key
                file is backed up separately)
  user          add accounts (the first admin), set passwords, list them
  token create  make a personal API token for an account
  servers import FILE | export [NAME...]
                register servers from a Claude Desktop, Cursor, VS Code or
                registry server.json file; print servers as such a file
  help          show this text

Run "playground COMMAND -h" for a command's flags.
`

// run dispatches to a subcommand; it returns when the command is done or
// ctx is cancelled. The commands that print for people print through a
// terminalWriter, so that names and answers with control characters
// cannot drive the terminal; serve logs with slog, which quotes them, and
// demo-server speaks MCP on stdout.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "call", "run", "check", "lint", "key", "backup", "user", "servers", "token":
		stdout, stderr = newTerminalWriter(stdout), newTerminalWriter(stderr)
	}
	switch cmd {
	case "serve":
		return runServe(ctx, args, stderr)
	case "demo-server":
		return runDemoServer(ctx, args, stdin, stdout, stderr)
	case "conformance-client":
		return runConformanceClient(ctx, args, os.Getenv, stderr)
	case "call":
		return runCall(ctx, args, stdout, stderr)
	case "run":
		return runRun(ctx, args, os.Getenv, stdout, stderr)
	case "check":
		return runCheck(ctx, args, os.Getenv, stdout, stderr)
	case "lint":
		return runLint(ctx, args, stdin, stdout, stderr)
	case "key":
		return runKey(ctx, args, os.Getenv, stdout, stderr)
	case "backup":
		return runBackup(ctx, args, os.Getenv, stderr)
	case "user":
		return runUser(ctx, args, os.Getenv, stdin, stdout, stderr)
	case "servers":
		return runServers(ctx, args, os.Getenv, stdin, stdout, stderr)
	case "token":
		return runToken(ctx, args, os.Getenv, stdout, stderr)
	case "help":
		_, err := io.WriteString(stdout, usage)
		return err
	}
	io.WriteString(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}
