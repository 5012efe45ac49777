package main

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

// serveConfigCase is flags and environment, and the Config they make or
// the error they give.
type serveConfigCase struct {
	name    string
	args    []string
	env     map[string]string
	want    Config
	wantErr string
}

// checkServeConfig runs parseServeConfig on each case.
func checkServeConfig(t *testing.T, tests []serveConfigCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseServeConfig(tt.args, func(k string) string { return tt.env[k] }, io.Discard)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("config = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseServeConfig(t *testing.T) {
	checkServeConfig(t, []serveConfigCase{
		{name: "defaults", want: Config{Addr: "127.0.0.1:8080", AppsAddr: "127.0.0.1:0", DB: "./playground.db"}},
		{name: "flags", args: []string{"--addr", "127.0.0.1:9000", "--apps-addr", "127.0.0.1:9001", "--db", "/tmp/x.db", "--allow-host", "a.test:9000, b.test"},
			want: Config{Addr: "127.0.0.1:9000", AppsAddr: "127.0.0.1:9001", DB: "/tmp/x.db", AllowedHosts: []string{"a.test:9000", "b.test"}}},
		{name: "env fallbacks", env: map[string]string{"PLAYGROUND_ADDR": "localhost:7000", "PLAYGROUND_APPS_ADDR": "localhost:7002", "PLAYGROUND_DB": "env.db", "PLAYGROUND_ALLOW_HOSTS": "c.test"},
			want: Config{Addr: "localhost:7000", AppsAddr: "localhost:7002", DB: "env.db", AllowedHosts: []string{"c.test"}}},
		{name: "flags beat env", args: []string{"--addr", "[::1]:7001"}, env: map[string]string{"PLAYGROUND_ADDR": "localhost:7000"},
			want: Config{Addr: "[::1]:7001", AppsAddr: "127.0.0.1:0", DB: "./playground.db"}},
		{name: "all interfaces, decided at start", args: []string{"--addr", "0.0.0.0:8080", "--apps-addr", "0.0.0.0:8081"},
			want: Config{Addr: "0.0.0.0:8080", AppsAddr: "0.0.0.0:8081", DB: "./playground.db"}},
		{name: "apps origin without port", args: []string{"--apps-addr", "0.0.0.0"}, wantErr: "missing port"},
		{name: "no port", args: []string{"--addr", "127.0.0.1"}, wantErr: "missing port"},
		{name: "stray argument", args: []string{"extra"}, wantErr: "unexpected argument"},
		{name: "unknown flag", args: []string{"--nope"}, wantErr: "flag provided but not defined"},
	})
}

// TestListeningBeyondLoopbackNeedsAnAccount checks that the dashboard and
// its apps origin listen beyond loopback only once an account exists.
func TestListeningBeyondLoopbackNeedsAnAccount(t *testing.T) {
	tests := []struct {
		name, addr, appsAddr string
		refused              string // the address refused while no account exists, or ""
	}{
		{"loopback", "127.0.0.1:8080", "localhost:0", ""},
		{"all interfaces", "0.0.0.0:8080", "127.0.0.1:0", "0.0.0.0:8080"},
		{"empty host", ":8080", "127.0.0.1:0", ":8080"},
		{"public name", "example.com:80", "127.0.0.1:0", "example.com:80"},
		{"apps origin on all interfaces", "127.0.0.1:8080", "0.0.0.0:8081", "0.0.0.0:8081"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Addr: tt.addr, AppsAddr: tt.appsAddr, DB: "x.db"}
			if err := cfg.requireAccountsToServeOthers(false); err != nil {
				t.Errorf("with an account: %v", err)
			}
			err := cfg.requireAccountsToServeOthers(true)
			if tt.refused == "" && err != nil {
				t.Errorf("without an account: %v", err)
			}
			if tt.refused != "" && (err == nil || !strings.Contains(err.Error(), "refusing to listen on "+tt.refused+" ")) {
				t.Errorf("without an account: %v, want %s refused", err, tt.refused)
			}
		})
	}
}

func TestRunUnknownCommand(t *testing.T) {
	var stderr strings.Builder
	err := run(t.Context(), []string{"frobnicate"}, strings.NewReader(""), io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error(), `unknown command "frobnicate"`) {
		t.Fatalf("error = %v", err)
	}
	if !strings.Contains(stderr.String(), "Usage: playground") {
		t.Errorf("stderr lacks the usage text: %q", stderr.String())
	}
}
