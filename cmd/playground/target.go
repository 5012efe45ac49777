package main

import (
	"flag"
	"fmt"
	"net/http"
	"strings"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/mcpclient"
)

// target is a server named on the command line: exactly one of URL, SSE
// and Command is set.
type target struct {
	URL     string   // Streamable HTTP endpoint
	SSE     string   // deprecated HTTP+SSE event-stream URL
	Command []string // stdio server command line, split
	Era     mcpclient.Era
	Header  http.Header
}

// targetFlags are the flags by which `playground call` and `playground
// run` name a server: --url, --sse, --stdio, --era and --header.
type targetFlags struct {
	url, sse, stdio, era string
	headers              headerFlag
}

// register adds the flags to fs.
func (tf *targetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&tf.url, "url", "", "Streamable HTTP endpoint of the server, such as http://127.0.0.1:3001/mcp")
	fs.StringVar(&tf.sse, "sse", "", "event-stream URL of a server on the deprecated HTTP+SSE transport")
	fs.StringVar(&tf.stdio, "stdio", "", "command line that starts a stdio server; split like a shell splits words (quotes, backslashes), but no shell runs it")
	fs.StringVar(&tf.era, "era", "", "protocol era: legacy, modern or auto (default legacy)")
	fs.Var(&tf.headers, "header", "`NAME:VALUE` header sent with every HTTP request; repeatable")
}

// given counts how many of --url, --sse and --stdio were given.
func (tf *targetFlags) given() int {
	n := 0
	for _, s := range []string{tf.url, tf.sse, tf.stdio} {
		if s != "" {
			n++
		}
	}
	return n
}

// target checks the flags, parsed, and returns what they name; cmd
// prefixes its errors. It does not check how many of --url, --sse and
// --stdio were given (given does): with none, the target is empty.
func (tf *targetFlags) target(cmd string) (target, error) {
	t := target{URL: tf.url, SSE: tf.sse, Header: tf.headers.h}
	if tf.stdio != "" {
		words, err := backend.SplitCommand(tf.stdio)
		if err != nil {
			return t, fmt.Errorf("%s: --stdio: %w", cmd, err)
		}
		t.Command = words
	}
	switch mcpclient.Era(tf.era) {
	case "", mcpclient.EraLegacy, mcpclient.EraModern, mcpclient.EraAuto:
		t.Era = mcpclient.Era(tf.era)
	default:
		return t, fmt.Errorf("%s: --era %q: want legacy, modern or auto", cmd, tf.era)
	}
	return t, nil
}

// server returns the target as a server registered under name, which
// dials it like the dashboard's pool, and a label that names it in
// reports (URLs without their credentials).
func (t target) server(name string) (srv backend.Server, label string) {
	srv = backend.Server{Name: name, Era: backend.Era(t.Era)}
	switch {
	case t.URL != "" || t.SSE != "":
		srv.Transport, srv.URL = backend.TransportHTTP, t.URL
		if t.SSE != "" {
			srv.Transport, srv.URL = backend.TransportSSE, t.SSE
		}
		srv.Headers = map[string]string{}
		for name, values := range t.Header {
			srv.Headers[name] = strings.Join(values, ", ")
		}
		return srv, backend.RedactURL(srv.URL)
	default:
		srv.Transport, srv.Command, srv.Args = backend.TransportStdio, t.Command[0], t.Command[1:]
		return srv, strings.Join(t.Command, " ")
	}
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
