package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
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
	// TLS and proxy settings of URL and SSE, as backend.Server has them.
	CACertPEM string
	Insecure  bool
	Proxy     string
}

// targetFlags are the flags by which `playground call` and `playground
// run` name a server: --url, --sse, --stdio, --era and --header, and
// for --url and --sse --ca-cert, --insecure and --proxy.
type targetFlags struct {
	url, sse, stdio, era string
	headers              headerFlag
	caCert, proxy        string
	insecure             bool
}

// register adds the flags to fs.
func (tf *targetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&tf.url, "url", "", "Streamable HTTP endpoint of the server, such as http://127.0.0.1:3001/mcp")
	fs.StringVar(&tf.sse, "sse", "", "event-stream URL of a server on the deprecated HTTP+SSE transport")
	fs.StringVar(&tf.stdio, "stdio", "", "command line that starts a stdio server; split like a shell splits words (quotes, backslashes), but no shell runs it")
	fs.StringVar(&tf.era, "era", "", "protocol era: legacy, modern or auto (default legacy)")
	fs.Var(&tf.headers, "header", "`NAME:VALUE` header sent with every HTTP request; repeatable")
	fs.StringVar(&tf.caCert, "ca-cert", "", "PEM `FILE` of CA certificates trusted besides the system's, for --url or --sse")
	fs.BoolVar(&tf.insecure, "insecure", false, "skip TLS verification of --url or --sse (testing only: anyone on the network path can read and change the traffic)")
	fs.StringVar(&tf.proxy, "proxy", "", "http, https or socks5 `URL` of the proxy to reach --url or --sse through (default: HTTP_PROXY, HTTPS_PROXY, NO_PROXY)")
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

// target checks the flags, parsed, and returns what they name, with the
// file of --ca-cert read; cmd prefixes its errors. With --insecure it
// warns on stderr. It does not check how many of --url, --sse and --stdio
// were given (given does): with none, the target is empty.
func (tf *targetFlags) target(cmd string, stderr io.Writer) (target, error) {
	t := target{URL: tf.url, SSE: tf.sse, Header: tf.headers.h, Insecure: tf.insecure, Proxy: tf.proxy}
	if (tf.caCert != "" || tf.insecure || tf.proxy != "") && tf.url == "" && tf.sse == "" {
		return t, fmt.Errorf("%s: --ca-cert, --insecure and --proxy go with --url or --sse", cmd)
	}
	if tf.caCert != "" {
		pem, err := os.ReadFile(tf.caCert)
		if err != nil {
			return t, fmt.Errorf("%s: --ca-cert: %w", cmd, err)
		}
		if _, err := backend.ParseCACerts(string(pem)); err != nil {
			return t, fmt.Errorf("%s: --ca-cert %s: %s", cmd, tf.caCert, err)
		}
		t.CACertPEM = string(pem)
	}
	if tf.proxy != "" {
		if _, err := mcpclient.ParseProxyURL(tf.proxy); err != nil {
			return t, fmt.Errorf("%s: --proxy: %w", cmd, err)
		}
	}
	if tf.insecure {
		fmt.Fprintf(stderr, "%s: warning: --insecure: TLS verification is off: anyone on the network path can read and change this traffic\n", cmd)
	}
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
		srv.CACertPEM, srv.InsecureSkipVerify, srv.Proxy = t.CACertPEM, t.Insecure, t.Proxy
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
