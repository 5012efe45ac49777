package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
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
request times out and when the connection fails.

Examples:
  playground call --stdio 'playground demo-server' tools/list
  playground call --url http://127.0.0.1:3001/mcp tools/call '{"name":"echo","arguments":{"message":"hi"}}'

Flags:
`

// callConfig is what `playground call` was asked to do.
type callConfig struct {
	URL     string   // Streamable HTTP endpoint
	SSE     string   // deprecated HTTP+SSE event-stream URL
	Command []string // stdio server command line, split
	Era     mcpclient.Era
	Header  http.Header
	Timeout time.Duration // 0: the method's default timeout
	Trace   bool
	Method  string
	Params  json.RawMessage // nil when none was given
}

// headerFlag collects repeated --header K:V flags.
type headerFlag struct{ h http.Header }

func (f *headerFlag) String() string { return "" }

func (f *headerFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, ":")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return fmt.Errorf("want NAME:VALUE, got %q", s)
	}
	if f.h == nil {
		f.h = make(http.Header)
	}
	f.h.Add(k, strings.TrimSpace(v))
	return nil
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
	var stdio, era string
	var headers headerFlag
	fs.StringVar(&cfg.URL, "url", "", "Streamable HTTP endpoint of the server, such as http://127.0.0.1:3001/mcp")
	fs.StringVar(&cfg.SSE, "sse", "", "event-stream URL of a server on the deprecated HTTP+SSE transport")
	fs.StringVar(&stdio, "stdio", "", "command line that starts a stdio server; split like a shell splits words (quotes, backslashes), but no shell runs it")
	fs.StringVar(&era, "era", "", "protocol era: legacy, modern or auto (default legacy)")
	fs.Var(&headers, "header", "`NAME:VALUE` header sent with every HTTP request; repeatable")
	fs.DurationVar(&cfg.Timeout, "timeout", 0, "give up after this long, connecting included (default: the method's own timeout)")
	fs.BoolVar(&cfg.Trace, "trace", false, "print every frame (time, direction, kind, HTTP details, body) to stderr")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	cfg.Header = headers.h
	targets := 0
	for _, s := range []string{cfg.URL, cfg.SSE, stdio} {
		if s != "" {
			targets++
		}
	}
	if targets != 1 {
		fs.Usage()
		return cfg, errors.New("call: give exactly one of --url, --sse and --stdio")
	}
	if stdio != "" {
		words, err := backend.SplitCommand(stdio)
		if err != nil {
			return cfg, fmt.Errorf("call: --stdio: %w", err)
		}
		cfg.Command = words
	}
	switch mcpclient.Era(era) {
	case "", mcpclient.EraLegacy, mcpclient.EraModern, mcpclient.EraAuto:
		cfg.Era = mcpclient.Era(era)
	default:
		return cfg, fmt.Errorf("call: --era %q: want legacy, modern or auto", era)
	}
	rest := fs.Args()
	if len(rest) < 1 || len(rest) > 2 || rest[0] == "" {
		fs.Usage()
		return cfg, errors.New("call: want METHOD and optional PARAMS-JSON after the flags")
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
	if cfg.Trace {
		// Trace output lands in CI logs: it hides the credentials of the
		// URL and the values of secret headers, as the dashboard does.
		target := backend.Server{URL: cfg.URL + cfg.SSE, Headers: map[string]string{}}
		for name, values := range cfg.Header {
			target.Headers[name] = strings.Join(values, ", ")
		}
		opts.Tap = backend.NewRedactor(target).Tap(traceTap(stderr))
	}
	var c *mcpclient.Client
	switch {
	case cfg.URL != "":
		c, err = mcpclient.ConnectHTTP(ctx, mcpclient.HTTPConfig{URL: cfg.URL, Header: cfg.Header}, opts)
	case cfg.SSE != "":
		c, err = mcpclient.ConnectSSE(ctx, mcpclient.HTTPConfig{URL: cfg.SSE, Header: cfg.Header}, opts)
	default:
		c, err = mcpclient.ConnectStdio(ctx, mcpclient.StdioConfig{Command: cfg.Command[0], Args: cfg.Command[1:]}, opts)
	}
	if err != nil {
		return fmt.Errorf("call: connect: %w", err)
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
