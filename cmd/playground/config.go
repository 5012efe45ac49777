package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/mcp-playground/playground/backend/store"
)

// Config is everything `playground serve` is told by flags and environment.
type Config struct {
	Addr         string          // listen address
	AppsAddr     string          // listen address of the apps origin (MCP Apps' pages)
	DB           string          // SQLite file
	AllowedHosts []string        // extra Host header values to accept
	Key          store.KeySource // where the secret key comes from (keySource)
}

// parseServeConfig reads flags, falling back to PLAYGROUND_* environment
// variables, then to defaults.
func parseServeConfig(args []string, getenv func(string) string, stderr io.Writer) (Config, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := Config{}
	fs.StringVar(&cfg.Addr, "addr", envOr(getenv, "PLAYGROUND_ADDR", "127.0.0.1:8080"), "listen address (env PLAYGROUND_ADDR)")
	fs.StringVar(&cfg.AppsAddr, "apps-addr", envOr(getenv, "PLAYGROUND_APPS_ADDR", "127.0.0.1:0"),
		"listen address of the apps origin, which serves MCP Apps' HTML apart from the dashboard; port 0 picks a free port (env PLAYGROUND_APPS_ADDR)")
	fs.StringVar(&cfg.DB, "db", envOr(getenv, "PLAYGROUND_DB", "./playground.db"), "SQLite database file (env PLAYGROUND_DB)")
	hosts := fs.String("allow-host", getenv("PLAYGROUND_ALLOW_HOSTS"), "comma-separated extra Host names to answer to, e.g. playground.internal:8080 (env PLAYGROUND_ALLOW_HOSTS)")
	keyFile := keyFileFlag(fs, getenv)
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	var err error
	if cfg.Key, err = keySource(*keyFile, getenv); err != nil {
		return cfg, fmt.Errorf("serve: %w", err)
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("serve: unexpected argument %q", fs.Arg(0))
	}
	for _, h := range strings.Split(*hosts, ",") {
		if h = strings.TrimSpace(h); h != "" {
			cfg.AllowedHosts = append(cfg.AllowedHosts, h)
		}
	}
	return cfg, cfg.validate()
}

// validate checks what the flags say on their own. Whether the dashboard
// may listen beyond loopback depends on the database
// (requireAccountsToServeOthers). The apps origin stays on loopback: the
// dashboard frames it at the address it listens on.
func (c Config) validate() error {
	if c.DB == "" {
		return errors.New("serve: --db is required")
	}
	if _, err := isLoopback("--addr", c.Addr); err != nil {
		return err
	}
	return loopbackOnly("--apps-addr", c.AppsAddr)
}

// requireAccountsToServeOthers refuses a listen address that is not on
// loopback while no account exists: whoever reaches the dashboard could
// then set it up and start processes on this host.
func (c Config) requireAccountsToServeOthers(noAccountYet bool) error {
	if !noAccountYet {
		return nil
	}
	return loopbackOnly("--addr", c.Addr)
}

// loopbackOnly refuses a listen address, named by flag, that is not on a
// loopback interface.
func loopbackOnly(flag, addr string) error {
	if ok, err := isLoopback(flag, addr); err != nil || ok {
		return err
	}
	return errors.New("serve: refusing to listen on " + addr + " while no account exists: whoever reaches the dashboard could start processes on this host. " +
		"Create the first admin with `playground user add --admin NAME` (or start on 127.0.0.1 and open the setup link it prints), then start again")
}

// isLoopback reports whether a listen address, named by flag, is on a
// loopback interface; it fails when addr is not host:port.
func isLoopback(flag, addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("serve: %s %q: %w", flag, addr, err)
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}
