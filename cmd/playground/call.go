package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

const callUsage = `Usage: playground call (--url URL | --sse URL | --stdio 'CMD ARGS') [flags] METHOD [PARAMS-JSON]

Connects to one MCP server, sends one request and prints its result as
indented JSON on stdout. A METHOD starting with "notifications/" is sent as
a notification and prints nothing. The exit status is non-zero when the
server answers with a JSON-RPC error (printed as JSON on stderr), when the
request times out and when the connection fails. --lint judges every frame
of the connection as the dashboard does (JSON-RPC 2.0 and the MCP version
negotiated), prints the findings on stderr and fails the call (exit status
1) when one is an error. A failed connect is
diagnosed on stderr (DNS, TCP, TLS, HTTP, transport, era, the stdio
command), with the command line that tries each suggestion; --fix tries the
first one.

Examples:
  playground call --stdio 'playground demo-server' tools/list
  playground call --url http://127.0.0.1:3001/mcp tools/call '{"name":"echo","arguments":{"message":"hi"}}'

Flags:
`

// callConfig is what `playground call` was asked to do.
type callConfig struct {
	target
	Timeout time.Duration // 0: the method's default timeout
	Trace   bool
	// OAuth signs in through the browser when the server asks, as
	// OAuthClientID (with PLAYGROUND_OAUTH_CLIENT_SECRET) or a client
	// registered dynamically.
	OAuth         bool
	OAuthClientID string
	Fix           bool // on a failed connect, retry once with the diagnosis's first suggestion
	Lint          bool // judge the connection's frames; an error finding fails the call
	Line          commandLine
	Method        string
	Params        json.RawMessage // nil when none was given
}

// parseCallConfig reads the flags and arguments of `playground call`.
func parseCallConfig(args []string, stderr io.Writer) (callConfig, error) {
	fs := flag.NewFlagSet("call", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		io.WriteString(stderr, callUsage)
		fs.PrintDefaults()
	}
	var cfg callConfig
	var tf targetFlags
	tf.register(fs)
	fs.DurationVar(&cfg.Timeout, "timeout", 0, "give up after this long, connecting included (default: the method's own timeout)")
	fs.BoolVar(&cfg.Trace, "trace", false, "print every frame (time, direction, kind, HTTP details, body) to stderr")
	fs.BoolVar(&cfg.OAuth, "oauth", false, "sign in through your browser when the server asks for OAuth authorization (HTTP servers)")
	fs.StringVar(&cfg.OAuthClientID, "oauth-client-id", "", "with --oauth: a client ID registered with the authorization server (its secret, if any, in PLAYGROUND_OAUTH_CLIENT_SECRET); default: register dynamically")
	fs.BoolVar(&cfg.Fix, "fix", false, "when the connect fails, retry once with the first change the diagnosis suggests (transport, URL path or era) and say what changed")
	fs.BoolVar(&cfg.Lint, "lint", false, "judge every frame against JSON-RPC 2.0 and the MCP version in use, print the findings on stderr, and fail when one is an error")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.Line = commandLine{command: "call", args: args, fs: fs}
	if tf.given() != 1 {
		fs.Usage()
		return cfg, errors.New("call: give exactly one of --url, --sse and --stdio")
	}
	var err error
	if cfg.target, err = tf.target("call", stderr); err != nil {
		return cfg, err
	}
	rest := fs.Args()
	if len(rest) < 1 || len(rest) > 2 || rest[0] == "" {
		fs.Usage()
		return cfg, errors.New("call: want METHOD and optional PARAMS-JSON after the flags")
	}
	if cfg.OAuthClientID != "" && !cfg.OAuth {
		return cfg, errors.New("call: --oauth-client-id needs --oauth")
	}
	if cfg.OAuth && len(cfg.Command) > 0 {
		return cfg, errors.New("call: --oauth is for HTTP servers (--url or --sse); a stdio server gets its credentials from its environment")
	}
	cfg.Method = rest[0]
	if len(rest) == 2 {
		if !json.Valid([]byte(rest[1])) {
			return cfg, fmt.Errorf("call: PARAMS-JSON is not valid JSON: %s", rest[1])
		}
		cfg.Params = json.RawMessage(rest[1])
	}
	return cfg, nil
}

// runCall is `playground call`: it connects, sends one request or
// notification, prints the result and closes the connection.
func runCall(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseCallConfig(args, stderr)
	if err != nil {
		return err
	}
	if cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Timeout)
		defer cancel()
	}
	opts := mcpclient.Options{
		ClientInfo: mcpclient.Implementation{Name: "mcp-playground-call", Version: version},
		Era:        cfg.Era,
	}
	srv, _ := cfg.target.server("call")
	if cfg.Trace {
		// Trace output lands in CI logs: it hides the credentials of the
		// URL and the values of secret headers, as the dashboard does.
		opts.Tap = backend.NewRedactor(srv).Tap(traceTap(stderr))
	}
	if !cfg.Lint {
		return callOnce(ctx, cfg, srv, opts, nil, stdout, stderr)
	}
	linter := newTapLinter()
	opts.Tap = linter.tap(opts.Tap)
	err = callOnce(ctx, cfg, srv, opts, linter, stdout, stderr)
	frames, found := linter.result()
	printLint(stderr, frames, found)
	if n := lintErrors(found); err == nil && n > 0 {
		err = fmt.Errorf("call: protocol lint: %s", plural(n, "error finding"))
	}
	return err
}

// callOnce connects with opts, sends the request or notification of cfg,
// prints the result and closes the connection before it returns. A
// connect retried with a fix restarts linter (when not nil).
func callOnce(ctx context.Context, cfg callConfig, srv backend.Server, opts mcpclient.Options, linter *tapLinter, stdout, stderr io.Writer) error {
	dialTarget := srv.Target()
	if cfg.OAuth {
		signIn, err := startLoopbackSignIn(stderr)
		if err != nil {
			return fmt.Errorf("call: %w", err)
		}
		defer signIn.Close()
		// The sign-in happens within the handshake's first request.
		opts.InitializeTimeout = signInWait + time.Minute
		if dialTarget.HTTP.Credentials, err = signIn.credentials(cfg.OAuthClientID, os.Getenv("PLAYGROUND_OAUTH_CLIENT_SECRET")); err != nil {
			return fmt.Errorf("call: %w", err)
		}
	}
	c, err := mcpclient.Dial(ctx, dialTarget, opts)
	if err != nil {
		if linter != nil {
			linter.restart()
		}
		if c, err = diagnoseAndFix(ctx, srv, dialTarget.HTTP.Credentials, opts, err, cfg.Line, cfg.Fix, stderr); err != nil {
			return fmt.Errorf("call: connect: %w", err)
		}
	}
	defer c.Close()

	if strings.HasPrefix(cfg.Method, "notifications/") {
		if err := c.Notify(ctx, cfg.Method, cfg.Params); err != nil {
			return fmt.Errorf("call: %w", err)
		}
		return nil
	}
	res, err := c.Call(ctx, cfg.Method, cfg.Params)
	var rpcErr *mcpclient.RPCError
	if errors.As(err, &rpcErr) {
		b, _ := json.MarshalIndent(rpcErr, "", "  ")
		fmt.Fprintf(stderr, "%s\n", b)
		return fmt.Errorf("call: %s: protocol error %d: %s", cfg.Method, rpcErr.Code, rpcErr.Message)
	}
	if err != nil {
		return fmt.Errorf("call: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, res, "", "  "); err != nil {
		return fmt.Errorf("call: %s: result is not JSON: %w", cfg.Method, err)
	}
	out.WriteByte('\n')
	_, err = stdout.Write(out.Bytes())
	return err
}

// traceTap prints each frame as one line (or more, when the body has
// newlines): time, direction, kind, HTTP details when there are any (the
// URL redacted by backend.RedactURL), and the body. The client calls a Tap
// one frame at a time.
func traceTap(w io.Writer) mcpclient.Tap {
	return func(f mcpclient.Frame) {
		var b strings.Builder
		fmt.Fprintf(&b, "%s %-6s %-11s", f.Time.Format("15:04:05.000000"), f.Direction, f.Kind)
		if h := f.HTTP; h != nil {
			fmt.Fprintf(&b, " [%s %s", h.Method, backend.RedactURL(h.URL))
			if h.Status != 0 {
				fmt.Fprintf(&b, " %d", h.Status)
			}
			if h.EventID != "" {
				fmt.Fprintf(&b, " event %s", h.EventID)
			}
			b.WriteString("]")
		}
		b.WriteString(" ")
		b.Write(f.Body)
		b.WriteString("\n")
		io.WriteString(w, b.String())
	}
}
