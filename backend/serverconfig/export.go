package serverconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcp-playground/playground/backend"
)

// Exported is servers written in one Format, ready to paste into
// that client's file, and notes on what the export changed or left out.
//
// No stored secret leaves: each env or header value that looks secret
// (its name, or a URL with credentials in it) becomes a placeholder —
// "<NAME>" for Claude and the registry (isSecret there), "${input:ID}"
// with a matching password input for VS Code — and secret URL parts become
// RedactedURLPart. Every other value is written as stored.
type Exported struct {
	Format Format
	JSON   []byte
	Notes  []string
}

// vscodeInput is an entry of the "inputs" of VS Code's mcp.json.
type vscodeInput struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	Description string `json:"description"`
	Password    bool   `json:"password"`
}

// Export writes servers in format.
func Export(servers []backend.Server, format Format) (Exported, error) {
	out := Exported{Format: format}
	note := func(format string, a ...any) { out.Notes = append(out.Notes, fmt.Sprintf(format, a...)) }
	var doc any
	switch format {
	case FormatClaude, FormatVSCode:
		entries := map[string]clientEntry{}
		var inputs []vscodeInput
		for _, s := range servers {
			placeholder := func(key string) string { return "<" + key + ">" }
			if format == FormatVSCode {
				placeholder = func(key string) string {
					id := inputID(s.Name + "-" + key)
					inputs = append(inputs, vscodeInput{Type: "promptString", ID: id, Description: key + " of " + s.Name, Password: true})
					return "${input:" + id + "}"
				}
			}
			entries[s.Name] = clientEntryOf(s, format, placeholder, note)
		}
		if format == FormatClaude {
			doc = map[string]any{"mcpServers": entries}
		} else {
			doc = struct {
				Servers map[string]clientEntry `json:"servers"`
				Inputs  []vscodeInput          `json:"inputs,omitempty"`
			}{entries, inputs}
		}
	case FormatRegistry:
		var docs []registryServer
		for _, s := range servers {
			rs, ok := registryServerOf(s, note)
			if ok {
				docs = append(docs, rs)
			}
		}
		switch len(docs) {
		case 0:
			return out, backend.Errorf(backend.EInvalid, "None of these servers can be written as a server.json: %s", strings.Join(out.Notes, " "))
		case 1:
			doc = docs[0]
		default:
			doc = docs
		}
	default:
		return out, backend.Errorf(backend.EInvalid, "Unknown format %q: choose claude, vscode or registry.", format)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return out, fmt.Errorf("serverconfig: export servers: %w", err)
	}
	out.JSON = buf.Bytes()
	return out, nil
}

// clientEntryOf is s as a Claude or VS Code entry; secret values become
// placeholder(name).
func clientEntryOf(s backend.Server, format Format, placeholder func(string) string, note func(string, ...any)) clientEntry {
	e := clientEntry{}
	switch s.Transport {
	case backend.TransportStdio:
		e.Command, e.Args, e.Cwd = s.Command, s.Args, s.Dir
		e.Env = withPlaceholders(s.Name, "environment variable", s.Env, placeholder, note)
		if format == FormatVSCode {
			e.Type = "stdio"
		}
	default:
		e.Type, e.URL = string(s.Transport), exportURL(s, note)
		e.Headers = withPlaceholders(s.Name, "header", s.Headers, placeholder, note)
		noteTLSSettings(s, note)
	}
	return e
}

// withPlaceholders is m with each secret value replaced by placeholder(key).
func withPlaceholders(server, what string, m map[string]string, placeholder func(string) string, note func(string, ...any)) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		v := m[k]
		if v != "" && backend.IsSecretPair(k, v) {
			v = placeholder(k)
			note("%s: the secret %s %s is written as %s; fill in its value where you paste it.", server, what, k, v)
		}
		out[k] = v
	}
	return out
}

// exportURL is s's URL with its secret parts redacted (noted).
func exportURL(s backend.Server, note func(string, ...any)) string {
	u := backend.RedactURL(s.URL)
	if u != s.URL {
		note("%s: the secret parts of the URL are written as %s; fill them in where you paste it.", s.Name, backend.RedactedURLPart)
	}
	return u
}

// noteTLSSettings notes the TLS and proxy settings s has, which no export
// format can hold.
func noteTLSSettings(s backend.Server, note func(string, ...any)) {
	var left []string
	if s.CACertPEM != "" {
		left = append(left, "its CA certificates")
	}
	if s.InsecureSkipVerify {
		left = append(left, "skipping TLS verification")
	}
	if s.Proxy != "" {
		left = append(left, "its proxy "+backend.RedactURL(s.Proxy))
	}
	if len(left) > 0 {
		note("%s: this format has no place for %s; set that up in the client itself.", s.Name, strings.Join(left, ", "))
	}
}

// inputID makes a VS Code input id of text: letters, digits and '-'.
func inputID(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// registryServerOf is s as a server.json: a remote for an HTTP or SSE
// server, a package for a stdio server started as npx -y PKG@VERSION,
// uvx PKG==VERSION or docker run -i --rm IMAGE. Any other command cannot
// be expressed (noted, ok false).
func registryServerOf(s backend.Server, note func(string, ...any)) (registryServer, bool) {
	rs := registryServer{Schema: registrySchemaURL, Name: "local/" + inputID(s.Name), Description: s.Name, Version: "0.0.0"}
	kvs := func(what string, m map[string]string) []registryKeyValue {
		var out []registryKeyValue
		for _, k := range sortedKeys(m) {
			v := m[k]
			if v != "" && backend.IsSecretPair(k, v) {
				note("%s: the secret %s %s is marked isSecret and left without a value.", s.Name, what, k)
				out = append(out, registryKeyValue{Name: k, IsSecret: true, IsRequired: true})
				continue
			}
			out = append(out, registryKeyValue{Name: k, Value: v})
		}
		return out
	}
	if s.Transport != backend.TransportStdio {
		kind := "streamable-http"
		if s.Transport == backend.TransportSSE {
			kind = "sse"
		}
		rs.Remotes = []registryRemote{{Type: kind, URL: exportURL(s, note), Headers: kvs("header", s.Headers)}}
		noteTLSSettings(s, note)
		note("%s: the server.json name %q and version are placeholders: set your namespace before publishing.", s.Name, rs.Name)
		return rs, true
	}
	p, ok := registryPackageOf(s)
	if !ok {
		note("%s: the command %q is not npx -y, uvx or docker run -i --rm of a package, so server.json cannot express it; left out.", s.Name, s.Command)
		return rs, false
	}
	p.EnvironmentVariables = kvs("environment variable", s.Env)
	rs.Packages = []registryPackage{p}
	note("%s: the server.json name %q and version are placeholders: set your namespace before publishing.", s.Name, rs.Name)
	return rs, true
}

// registryPackageOf reads a package out of a stdio command line, the
// reverse of registryPackageServer.
func registryPackageOf(s backend.Server) (registryPackage, bool) {
	positional := func(words []string) []registryArgument {
		var out []registryArgument
		for _, w := range words {
			out = append(out, registryArgument{Type: "positional", Value: w})
		}
		return out
	}
	args := s.Args
	switch s.Command {
	case "npx":
		if len(args) >= 2 && args[0] == "-y" {
			id, version := splitVersion(args[1], "@")
			return registryPackage{RegistryType: "npm", Identifier: id, Version: version, RuntimeHint: "npx", Transport: &registryTransport{Type: "stdio"}, PackageArguments: positional(args[2:])}, true
		}
	case "uvx":
		if len(args) >= 1 {
			id, version := splitVersion(args[0], "==")
			return registryPackage{RegistryType: "pypi", Identifier: id, Version: version, RuntimeHint: "uvx", Transport: &registryTransport{Type: "stdio"}, PackageArguments: positional(args[1:])}, true
		}
	case "docker":
		if len(args) >= 4 && args[0] == "run" && args[1] == "-i" && args[2] == "--rm" {
			rest := args[3:]
			for len(rest) >= 2 && rest[0] == "-e" {
				rest = rest[2:]
			}
			if len(rest) >= 1 && !strings.HasPrefix(rest[0], "-") {
				return registryPackage{RegistryType: "oci", Identifier: rest[0], RuntimeHint: "docker", Transport: &registryTransport{Type: "stdio"}, PackageArguments: positional(rest[1:])}, true
			}
		}
	}
	return registryPackage{}, false
}

// splitVersion splits "pkg@1.2" (sep "@", a leading @ of a scope kept) or
// "pkg==1.2" into the package and its version.
func splitVersion(word, sep string) (string, string) {
	i := strings.LastIndex(word, sep)
	if i <= 0 {
		return word, ""
	}
	return word[:i], word[i+len(sep):]
}
