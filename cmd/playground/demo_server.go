package main

import (
	"context"
	"flag"
	"io"

	"github.com/mcp-playground/playground/cmd/playground/demoserver"
)

// runDemoServer serves the bundled demo MCP server over stdio, or over
// Streamable HTTP with --http.
func runDemoServer(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	httpAddr := fs.String("http", "", "serve Streamable HTTP on this address (path /mcp) instead of stdio, e.g. 127.0.0.1:3001")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return demoserver.Run(ctx, *httpAddr, stdin, stdout, stderr)
}
