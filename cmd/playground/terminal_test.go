package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTerminalWriter(t *testing.T) {
	tests := []struct {
		name   string
		writes []string
		want   string
	}{
		{"text, line feeds and tabs pass", []string{"✓ ping\t12ms\n"}, "✓ ping\t12ms\n"},
		{"a title change", []string{"\x1b]0;owned\x07name\n"}, `\x1b]0;owned\x07name` + "\n"},
		{"a screen clear and a carriage return", []string{"\x1b[2J\rx"}, `\x1b[2J\x0dx`},
		{"DEL and C1 CSI", []string{"a\x7fb\u009b2J"}, `a\x7fb\u009b2J`},
		{"a bidirectional override", []string{"abc\u202etxt.exe"}, `abc\u202etxt.exe`},
		{"a byte that is not UTF-8", []string{"a\x9bb"}, `a\x9bb`},
		{"a character split between writes", []string{"a\xe2\x9c", "\x93b"}, "a✓b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			w := newTerminalWriter(&out)
			for _, s := range tt.writes {
				if n, err := io.WriteString(w, s); n != len(s) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", s, n, err)
				}
			}
			if out.String() != tt.want {
				t.Errorf("wrote %q, want %q", out.String(), tt.want)
			}
		})
	}
}

// hostileMCP is a Streamable HTTP MCP server whose name and every error
// message carry terminal control sequences.
func hostileMCP(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.NewDecoder(r.Body).Decode(&m); err != nil || len(m.ID) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": m.ID,
			"error": map[string]any{"code": -32601, "message": "no \x1b]0;owned\x07\x1b[2J way"}}
		if m.Method == "initialize" {
			reply = map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"protocolVersion": "2025-11-25",
				"capabilities": map[string]any{"tools": map[string]any{}}, "serverInfo": map[string]any{"name": "evil\x1b[2J", "version": "1"}}}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(reply)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// TestRunAndCallEscapeWhatServersSay runs a collection, and calls, on a
// server whose answers carry ESC and BEL sequences: the terminal is shown
// them as escapes, never as the bytes, and the JUnit report stays XML.
func TestRunAndCallEscapeWhatServersSay(t *testing.T) {
	url := hostileMCP(t)
	dir := t.TempDir()
	file, junit := filepath.Join(dir, "c.json"), filepath.Join(dir, "report.xml")
	collection := `{"format":"mcp-playground-collection","version":1,"name":"c","examples":[` +
		`{"name":"list","method":"tools/list","expect":{"result":{"tools":[]}}}]}`
	if err := os.WriteFile(file, []byte(collection), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run", file, "--url", url, "--junit", junit},
		{"call", "--url", url, "--trace", "tools/list"},
	} {
		var stdout, stderr bytes.Buffer
		if err := run(t.Context(), args, strings.NewReader(""), &stdout, &stderr); err != nil {
			printError(&stderr, err) // as main does
		}
		out := stdout.String() + stderr.String()
		t.Logf("%s:\n%s", args[0], out)
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%s printed a raw ESC or BEL:\n%q", args[0], out)
		}
		if !strings.Contains(out, `no \x1b]0;owned\x07\x1b[2J way`) {
			t.Errorf("%s did not show the server's message escaped:\n%q", args[0], out)
		}
	}
	body, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	decodeJUnit(t, body)
	if bytes.ContainsAny(body, "\x1b\x07") {
		t.Errorf("the JUnit report holds a raw ESC or BEL:\n%q", body)
	}
}

// TestRunKeepsSecretsToTheirOrigins runs a file whose environment lets its
// secrets go only to another origin: the run is refused, saying where they
// may go.
func TestRunKeepsSecretsToTheirOrigins(t *testing.T) {
	url := hostileMCP(t)
	file := filepath.Join(t.TempDir(), "c.json")
	collection := `{"format":"mcp-playground-collection","version":1,"name":"c","examples":[` +
		`{"name":"list","method":"tools/list","params":{"cursor":"{{TOKEN}}"},"expect":{"result":{"tools":[]}}}],` +
		`"environments":[{"name":"prod","values":[{"name":"TOKEN","secret":true}],"origins":["https://prod.example"]}]}`
	if err := os.WriteFile(file, []byte(collection), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), []string{"run", file, "--url", url, "--env", "prod", "--var", "TOKEN=ci-s3cret"}, strings.NewReader(""), &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "sends its secret values only to https://prod.example") {
		t.Fatalf("run = %v, want the origin refusal\n%s%s", err, stdout.String(), stderr.String())
	}
}

// TestRunPrintsOnlyItsResults runs --fail-on-drift on a server whose
// interface cannot be listed: the drift line says so, and no internal log
// record shows among the results unless --verbose asks for them.
func TestRunPrintsOnlyItsResults(t *testing.T) {
	url := hostileMCP(t)
	file := filepath.Join(t.TempDir(), "c.json")
	collection := `{"format":"mcp-playground-collection","version":1,"name":"c","examples":[` +
		`{"name":"ping","method":"ping","expect":{"result":{}}}],` +
		`"interface":{"tools":[],"resources":[],"resourceTemplates":[],"prompts":[]}}`
	if err := os.WriteFile(file, []byte(collection), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, verbose := range []bool{false, true} {
		args := []string{"run", file, "--url", url, "--fail-on-drift"}
		if verbose {
			args = append(args, "--verbose")
		}
		var stdout, stderr bytes.Buffer
		err := run(t.Context(), args, strings.NewReader(""), &stdout, &stderr)
		out := stdout.String() + stderr.String()
		if err == nil || !strings.Contains(stdout.String(), "! interface: The server's interface could not be listed") {
			t.Errorf("verbose %t: run = %v, want the drift line's error\n%s", verbose, err, out)
		}
		if logged := strings.Contains(out, `level=WARN msg="interface revision not taken"`); logged != verbose {
			t.Errorf("verbose %t: the internal warning shows: %t\n%s", verbose, logged, out)
		}
		if !verbose && strings.Contains(out, "level=") {
			t.Errorf("an internal log record shows among the results:\n%s", out)
		}
	}
}
