package serverconfig_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/serverconfig"
)

// claudeThree is a Claude Desktop config with a stdio server with env, an
// HTTP server with headers and an SSE server.
const claudeThree = `{
  "mcpServers": {
    "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"], "env": {"API_KEY": "sk-123", "LOG_LEVEL": "debug"}},
    "remote": {"type": "http", "url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer abc", "X-Team": "blue"}},
    "legacy": {"type": "sse", "url": "https://old.example.com/sse"}
  }
}`

// TestClaudeRoundTrip imports a Claude Desktop config with three servers
// and exports them again: the same JSON, but for the secrets, which come
// out as placeholders that the notes explain.
func TestClaudeRoundTrip(t *testing.T) {
	list, err := serverconfig.Parse([]byte(claudeThree))
	if err != nil {
		t.Fatal(err)
	}
	if list.Format != serverconfig.FormatClaude || len(list.Entries) != 3 {
		t.Fatalf("format %s, %d entries", list.Format, len(list.Entries))
	}
	servers := make([]backend.Server, len(list.Entries))
	for i, e := range list.Entries {
		servers[i] = e.Server
	}
	out, err := serverconfig.Export(servers, serverconfig.FormatClaude)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(`"sk-123"`, `"<API_KEY>"`, `"Bearer abc"`, `"<Authorization>"`).Replace(claudeThree)
	assertSameJSON(t, out.JSON, want)
	notes := strings.Join(out.Notes, "\n")
	for _, s := range []string{"API_KEY is written as <API_KEY>", "Authorization is written as <Authorization>"} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes do not say %q:\n%s", s, notes)
		}
	}
	if strings.Contains(string(out.JSON), "sk-123") || strings.Contains(string(out.JSON), "Bearer abc") {
		t.Errorf("export leaked a secret:\n%s", out.JSON)
	}
}

func TestVSCodeExportUsesInputs(t *testing.T) {
	s := backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "https://h.example/mcp?api_key=k1", Headers: map[string]string{"Authorization": "Bearer abc"}}
	out, err := serverconfig.Export([]backend.Server{s}, serverconfig.FormatVSCode)
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, out.JSON, `{"servers": {"remote": {"type": "http", "url": "https://h.example/mcp?api_key=REDACTED",
		"headers": {"Authorization": "${input:remote-authorization}"}}},
		"inputs": [{"type": "promptString", "id": "remote-authorization", "description": "Authorization of remote", "password": true}]}`)
	back, err := serverconfig.Parse(out.JSON)
	if err != nil {
		t.Fatal(err)
	}
	if back.Format != serverconfig.FormatVSCode || !strings.Contains(strings.Join(back.Entries[0].Notes, " "), "${input:remote-authorization}") {
		t.Errorf("re-import did not warn of the input: %+v", back)
	}
}

func TestParseVSCode(t *testing.T) {
	list, err := serverconfig.Parse([]byte(`{"inputs": [], "servers": {
		"py": {"type": "stdio", "command": "uvx", "args": ["mcp-server-fetch"], "envFile": "${workspaceFolder}/.env", "disabled": true},
		"gh": {"url": "https://api.githubcopilot.com/mcp/"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if list.Format != serverconfig.FormatVSCode || len(list.Entries) != 2 {
		t.Fatalf("%+v", list)
	}
	gh, py := list.Entries[0], list.Entries[1]
	if gh.Server.Transport != backend.TransportHTTP || !strings.Contains(gh.Notes[0], "guessed Streamable HTTP") {
		t.Errorf("gh: %+v", gh)
	}
	notes := strings.Join(py.Notes, " ")
	if py.Server.Transport != backend.TransportStdio || !strings.Contains(notes, "envFile") || !strings.Contains(notes, "disabled") {
		t.Errorf("py: %+v", py)
	}
}

func TestParseRegistry(t *testing.T) {
	list, err := serverconfig.Parse([]byte(`{"$schema": "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json",
		"name": "io.github.me/weather", "version": "1.2.0",
		"packages": [
			{"registryType": "npm", "identifier": "@me/weather", "version": "1.2.0", "runtimeHint": "npx", "transport": {"type": "stdio"},
			 "packageArguments": [{"type": "named", "name": "--units", "value": "metric"}],
			 "environmentVariables": [{"name": "WEATHER_API_KEY", "isSecret": true, "isRequired": true}]},
			{"registryType": "pypi", "identifier": "weather-mcp", "version": "1.2.0"},
			{"registryType": "oci", "identifier": "ghcr.io/me/weather", "version": "1.2.0"}],
		"remotes": [{"type": "streamable-http", "url": "https://weather.example/mcp", "headers": [{"name": "X-Key", "isSecret": true}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if list.Format != serverconfig.FormatRegistry || len(list.Entries) != 4 {
		t.Fatalf("%+v", list)
	}
	got := func(i int) backend.Server { return list.Entries[i].Server }
	want := []backend.Server{
		{Name: "weather", Transport: backend.TransportStdio, Command: "npx", Args: []string{"-y", "@me/weather@1.2.0", "--units", "metric"}, Env: map[string]string{"WEATHER_API_KEY": "<WEATHER_API_KEY>"}},
		{Name: "weather-pypi-2", Transport: backend.TransportStdio, Command: "uvx", Args: []string{"weather-mcp==1.2.0"}},
		{Name: "weather-oci-3", Transport: backend.TransportStdio, Command: "docker", Args: []string{"run", "-i", "--rm", "ghcr.io/me/weather:1.2.0"}},
		{Name: "weather-http-4", Transport: backend.TransportHTTP, URL: "https://weather.example/mcp", Headers: map[string]string{"X-Key": "<X-Key>"}},
	}
	for i, w := range want {
		if !reflect.DeepEqual(got(i), w) {
			t.Errorf("entry %d = %+v, want %+v", i, got(i), w)
		}
	}
	if !strings.Contains(strings.Join(list.Entries[0].Notes, " "), "placeholder <WEATHER_API_KEY>") {
		t.Errorf("notes: %q", list.Entries[0].Notes)
	}
	out, err := serverconfig.Export([]backend.Server{got(0)}, serverconfig.FormatRegistry)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out.JSON), `"identifier": "@me/weather"`) || !strings.Contains(string(out.JSON), `"isSecret": true`) {
		t.Errorf("registry export:\n%s", out.JSON)
	}
}

func TestParseServerListRefusals(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{``, "empty"},
		{`{"mcpServers": `, "not a JSON object"},
		{`{"other": 1}`, "Not a server list"},
		{`{"mcpServers": {"a": {"command": "x", "args": "oops"}}}`, `Server "a", field "args": must be a list of strings`},
		{`{"mcpServers": {"a": {"env": {"K": 1}, "command": "x"}}}`, `Server "a", field "env"`},
		{`{"servers": {"b": {"type": "ws", "url": "x"}}}`, `Server "b", field "type"`},
		{`{"servers": {"c": {"type": "http"}}}`, `Server "c", field "url"`},
		{`{"mcpServers": {"d": {}}}`, `Server "d": needs a "command"`},
		{`{"name": "x/y", "packages": [{"registryType": "nuget", "identifier": "Y"}]}`, `packages[0], field "registryType"`},
		{`{"name": "x/y", "remotes": [{"type": "ws", "url": "u"}]}`, `remotes[0], field "type"`},
	} {
		_, err := serverconfig.Parse([]byte(c.in))
		if err == nil || backend.ErrorCodeOf(err) != backend.EInvalid || !strings.Contains(backend.ErrorMessageOf(err), c.want) {
			t.Errorf("%s: err %v, want backend.EInvalid containing %q", c.in, err, c.want)
		}
	}
}

func assertSameJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
