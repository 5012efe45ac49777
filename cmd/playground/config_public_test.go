package main

import (
	"net/netip"
	"strings"
	"testing"
)

// TestParseServeConfigServing covers the flags that serve a team: TLS,
// trusted proxies and public URLs, from flags and from the environment.
func TestParseServeConfigServing(t *testing.T) {
	base := Config{Addr: "127.0.0.1:8080", AppsAddr: "127.0.0.1:0", DB: "./playground.db"}
	with := func(change func(*Config)) Config {
		c := base
		change(&c)
		return c
	}
	checkServeConfig(t, []serveConfigCase{
		{name: "tls flags", args: []string{"--tls-cert", "c.pem", "--tls-key", "k.pem"},
			want: with(func(c *Config) { c.TLSCert, c.TLSKey = "c.pem", "k.pem" })},
		{name: "tls env", env: map[string]string{"PLAYGROUND_TLS_CERT": "c.pem", "PLAYGROUND_TLS_KEY": "k.pem"},
			want: with(func(c *Config) { c.TLSCert, c.TLSKey = "c.pem", "k.pem" })},
		{name: "cert without key", args: []string{"--tls-cert", "c.pem"}, wantErr: "--tls-cert and --tls-key go together"},
		{name: "key without cert", env: map[string]string{"PLAYGROUND_TLS_KEY": "k.pem"}, wantErr: "--tls-cert and --tls-key go together"},
		{name: "trusted proxies", args: []string{"--trusted-proxy", "10.1.2.3/8, 192.168.1.7,fd00::/8"},
			want: with(func(c *Config) {
				c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.168.1.7/32"), netip.MustParsePrefix("fd00::/8")}
			})},
		{name: "trusted proxies env", env: map[string]string{"PLAYGROUND_TRUSTED_PROXIES": "172.16.0.0/12"},
			want: with(func(c *Config) { c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("172.16.0.0/12")} })},
		{name: "bad CIDR", args: []string{"--trusted-proxy", "10.0.0.0/33"}, wantErr: `--trusted-proxy "10.0.0.0/33"`},
		{name: "proxy name", env: map[string]string{"PLAYGROUND_TRUSTED_PROXIES": "proxy.internal"}, wantErr: "want a CIDR"},
		{name: "base URLs", args: []string{"--base-url", "https://Playground.Example.com/", "--apps-base-url", "https://apps.example.com:8443"},
			want: with(func(c *Config) {
				c.BaseURL, c.AppsBaseURL = "https://playground.example.com", "https://apps.example.com:8443"
			})},
		{name: "base URLs env", env: map[string]string{"PLAYGROUND_BASE_URL": "http://localhost:8080", "PLAYGROUND_APPS_BASE_URL": "http://localhost:8081"},
			want: with(func(c *Config) { c.BaseURL, c.AppsBaseURL = "http://localhost:8080", "http://localhost:8081" })},
		{name: "base URL flag beats env", args: []string{"--base-url", "https://a.example"}, env: map[string]string{"PLAYGROUND_BASE_URL": "https://b.example"},
			want: with(func(c *Config) { c.BaseURL = "https://a.example" })},
		{name: "default ports left out", args: []string{"--base-url", "https://playground.example.com:443", "--apps-base-url", "http://[::1]:80"},
			want: with(func(c *Config) { c.BaseURL, c.AppsBaseURL = "https://playground.example.com", "http://[::1]" })},
		{name: "base URL without scheme", args: []string{"--base-url", "playground.example.com"}, wantErr: "--base-url"},
		{name: "base URL other scheme", args: []string{"--base-url", "ftp://playground.example.com"}, wantErr: "want an http or https URL"},
		{name: "base URL with path", args: []string{"--base-url", "https://example.com/playground"}, wantErr: "want an http or https URL"},
		{name: "base URL with query", env: map[string]string{"PLAYGROUND_BASE_URL": "https://example.com/?a=b"}, wantErr: "--base-url"},
		{name: "apps base URL without host", args: []string{"--apps-base-url", "https:///x"}, wantErr: "--apps-base-url"},
	})
}

// TestServeHelpNamesServingFlags checks that `serve -h` documents every
// flag with its environment variable.
func TestServeHelpNamesServingFlags(t *testing.T) {
	var help strings.Builder
	parseServeConfig([]string{"-h"}, func(string) string { return "" }, &help)
	for _, want := range []string{"-tls-cert", "PLAYGROUND_TLS_CERT", "-tls-key", "PLAYGROUND_TLS_KEY", "-trusted-proxy", "PLAYGROUND_TRUSTED_PROXIES",
		"-base-url", "PLAYGROUND_BASE_URL", "-apps-base-url", "PLAYGROUND_APPS_BASE_URL"} {
		if !strings.Contains(help.String(), want) {
			t.Errorf("serve -h lacks %q:\n%s", want, help.String())
		}
	}
}
