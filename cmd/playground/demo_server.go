package main

import (
	"context"
	"flag"
	"io"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/mcp-playground/playground/cmd/playground/demoserver"
)

// demoGCPercent is the demo-server process's garbage collection target
// when GOGC does not set one. The SDK's JSON decoder allocates a 32 KiB
// buffer for each message it decodes, about 230 KiB of garbage for an echo
// call, while the process keeps about 2 MiB live: at the default of 100 it
// collects every 8 to 10 calls, and the collections are a third of the
// CPU an echo costs. At 400 the heap may grow to 16 MiB before a
// collection, about 60 calls: with 100 demo servers on 2 cores an echo
// costs them about a sixth less CPU than at 200, for about 8 MiB more
// resident memory each (40 MiB instead of 32 after a burst of calls).
const demoGCPercent = 400

// runDemoServer serves the bundled demo MCP server over stdio, or over
// Streamable HTTP with --http.
func runDemoServer(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo-server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	httpAddr := fs.String("http", "", "serve Streamable HTTP on this address (path /mcp) instead of stdio, e.g. 127.0.0.1:3001")
	if err := fs.Parse(args); err != nil {
		return err
	}
	setDemoGCPercent()
	// Over HTTP every wait is in the runtime's poller; over stdio, only
	// once stdin is.
	polled := *httpAddr != ""
	if !polled {
		stdin, polled = polledStdin(stdin)
	}
	if polled {
		setDemoMaxProcs()
	}
	return demoserver.Run(ctx, *httpAddr, stdin, stdout, stderr)
}

// setDemoGCPercent sets this process's GC target to demoGCPercent unless
// the GOGC environment variable chose one. It is for the demo-server
// process only: the dashboard keeps the runtime's default.
func setDemoGCPercent() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(demoGCPercent)
	}
}

// setDemoMaxProcs runs this process's Go code on one thread at a time
// unless the GOMAXPROCS environment variable chose otherwise. A demo server
// answers one client, and the SDK passes each call through several
// goroutines (its reader, its request queue, a handler): with a second
// processor each hand-over wakes another thread, which costs more CPU than
// the call's own work. With 100
// demo servers on 2 cores, one processor each cuts the CPU an echo costs
// them by about a fifth over HTTP and, together with polledStdin, by about
// two fifths over stdio.
//
// It is only for a process whose every wait is in the runtime's poller (a
// network listener, or stdin as polledStdin opens it): a blocking read
// would hold the only processor until the runtime's monitor takes it back,
// up to 10 ms later.
func setDemoMaxProcs() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}
