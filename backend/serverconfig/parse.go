package serverconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/mcp-playground/playground/backend"
)

// Server lists in the formats people already keep them in: the
// "mcpServers" object of Claude Desktop and Cursor, the "servers" object of
// VS Code's mcp.json, and the MCP registry's server.json. This file reads
// them into drafts of Server, with notes on what was guessed or left out,
// and writes servers back out in each of them (export.go).

// Format names a server list format.
type Format string

const (
	// FormatClaude is {"mcpServers": {NAME: {command, args, env} | {type, url, headers}}},
	// as Claude Desktop, Claude Code and Cursor read it.
	FormatClaude Format = "claude"
	// FormatVSCode is VS Code's mcp.json: {"servers": {NAME: {type, ...}}, "inputs": [...]}.
	FormatVSCode Format = "vscode"
	// FormatRegistry is the MCP registry's server.json (or a JSON array of them).
	FormatRegistry Format = "registry"
)

// Formats lists every format, in the order they are offered.
var Formats = []Format{FormatClaude, FormatVSCode, FormatRegistry}

// Label is how the format is named to people.
func (f Format) Label() string {
	switch f {
	case FormatClaude:
		return "Claude Desktop / Cursor (mcpServers)"
	case FormatVSCode:
		return "VS Code (.vscode/mcp.json)"
	case FormatRegistry:
		return "MCP registry server.json"
	}
	return string(f)
}

// ParseFormat returns the format named s ("claude", "cursor",
// "vscode", "registry"), or an EInvalid *backend.Error.
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "claude", "cursor", "mcpservers", "":
		return FormatClaude, nil
	case "vscode", "vs-code", "code":
		return FormatVSCode, nil
	case "registry", "server.json":
		return FormatRegistry, nil
	}
	return "", backend.Errorf(backend.EInvalid, "Unknown format %q: choose claude, vscode or registry.", s)
}

// Entry is one entry of an imported list: a draft to register and
// what the reader guessed, kept as typed or left out.
type Entry struct {
	backend.Server
	Notes []string
}

// List is what Parse read: the format it recognised and
// the entries in the order of the file (by name within an object).
type List struct {
	Format  Format
	Entries []Entry
}

// MaxBytes is the largest server list Parse reads.
const MaxBytes = 1 << 20

// Parse reads a server list in any Format, telling the
// format from its top-level keys: "mcpServers" (Claude), "servers" or
// "mcp.servers" as in VS Code's settings.json (VS Code), "packages" or
// "remotes", or an array of such objects (registry). Malformed input is an
// EInvalid *backend.Error whose message names the entry and field at fault.
func Parse(data []byte) (List, error) {
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0:
		return List{}, backend.Errorf(backend.EInvalid, "The server list is empty: paste a JSON file or choose one.")
	case len(data) > MaxBytes:
		return List{}, backend.Errorf(backend.EInvalid, "The server list is larger than %d bytes.", MaxBytes)
	case data[0] == '[':
		return parseRegistryArray(data)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return List{}, backend.Errorf(backend.EInvalid, "The server list is not a JSON object: %s.", jsonProblem(err))
	}
	if mcp, ok := top["mcp"]; ok && top["servers"] == nil {
		var inner map[string]json.RawMessage
		if json.Unmarshal(mcp, &inner) == nil && inner["servers"] != nil {
			top = inner
		}
	}
	switch {
	case top["mcpServers"] != nil:
		entries, err := parseClientEntries(top["mcpServers"], "mcpServers")
		return List{Format: FormatClaude, Entries: entries}, err
	case top["servers"] != nil:
		entries, err := parseClientEntries(top["servers"], "servers")
		return List{Format: FormatVSCode, Entries: entries}, err
	case top["packages"] != nil || top["remotes"] != nil:
		entries, err := parseRegistryServer(data, "")
		return List{Format: FormatRegistry, Entries: entries}, err
	}
	return List{}, backend.Errorf(backend.EInvalid, "Not a server list this playground knows: expected an \"mcpServers\" object (Claude Desktop, Cursor), a \"servers\" object (VS Code) or a server.json with \"packages\" or \"remotes\" (MCP registry).")
}

// FreeName is name with the lowest suffix " (2)", " (3)", ... that
// no name in taken has, for an imported server whose name is taken.
func FreeName(name string, taken map[string]bool) string {
	for n := 2; ; n++ {
		if candidate := fmt.Sprintf("%s (%d)", name, n); !taken[candidate] {
			return candidate
		}
	}
}

// clientEntry is one server of a Claude, Cursor or VS Code list.
type clientEntry struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	EnvFile string            `json:"envFile,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// clientEntryFields are the fields of clientEntry, each with what a wrong
// type is told.
var clientEntryFields = map[string]string{
	"type": "a string", "command": "a string", "args": "a list of strings", "env": "an object of strings",
	"envFile": "a string", "cwd": "a string", "url": "a string", "headers": "an object of strings",
}

// parseClientEntries reads the object at key of a Claude or VS Code list.
func parseClientEntries(raw json.RawMessage, key string) ([]Entry, error) {
	var byName map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byName); err != nil || byName == nil {
		return nil, backend.Errorf(backend.EInvalid, "%q must be an object of servers by name.", key)
	}
	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]Entry, 0, len(names))
	for _, name := range names {
		entry, err := parseClientEntry(name, byName[name])
		if err != nil {
			return nil, err
		}
		out = append(out, entry)
	}
	return out, nil
}

func parseClientEntry(name string, raw json.RawMessage) (Entry, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return Entry{}, backend.Errorf(backend.EInvalid, "Server %q must be an object.", name)
	}
	var e clientEntry
	var ignored []string
	for key, value := range fields {
		want, known := clientEntryFields[key]
		if !known {
			ignored = append(ignored, key)
			continue
		}
		one, _ := json.Marshal(map[string]json.RawMessage{key: value})
		if err := json.Unmarshal(one, &e); err != nil {
			return Entry{}, backend.Errorf(backend.EInvalid, "Server %q, field %q: must be %s.", name, key, want)
		}
	}
	imp := Entry{Server: backend.Server{Name: name, Command: e.Command, Args: e.Args, Env: e.Env, Dir: e.Cwd, URL: e.URL, Headers: e.Headers}}
	note := func(format string, a ...any) { imp.Notes = append(imp.Notes, fmt.Sprintf(format, a...)) }
	switch strings.ToLower(e.Type) {
	case "stdio":
		imp.Server.Transport = backend.TransportStdio
	case "http", "streamable-http", "streamablehttp":
		imp.Server.Transport = backend.TransportHTTP
	case "sse":
		imp.Server.Transport = backend.TransportSSE
	case "":
		switch {
		case e.Command != "":
			imp.Server.Transport = backend.TransportStdio
		case e.URL != "" && strings.HasSuffix(strings.TrimRight(strings.SplitN(e.URL, "?", 2)[0], "/"), "/sse"):
			imp.Server.Transport = backend.TransportSSE
			note("No \"type\": guessed HTTP+SSE from the URL ending in /sse.")
		case e.URL != "":
			imp.Server.Transport = backend.TransportHTTP
			note("No \"type\": guessed Streamable HTTP from the URL.")
		}
	default:
		return Entry{}, backend.Errorf(backend.EInvalid, "Server %q, field \"type\": %q is not stdio, http or sse.", name, e.Type)
	}
	switch imp.Server.Transport {
	case backend.TransportStdio:
		if e.Command == "" {
			return Entry{}, backend.Errorf(backend.EInvalid, "Server %q, field \"command\": a stdio server needs a command.", name)
		}
		if e.URL != "" || len(e.Headers) > 0 {
			note("Left out \"url\" and \"headers\": they do not apply to a stdio server.")
		}
	case backend.TransportHTTP, backend.TransportSSE:
		if e.URL == "" {
			return Entry{}, backend.Errorf(backend.EInvalid, "Server %q, field \"url\": an %s server needs a URL.", name, imp.Server.Transport)
		}
		if e.Command != "" || len(e.Args) > 0 || len(e.Env) > 0 {
			note("Left out \"command\", \"args\" and \"env\": they do not apply to a remote server.")
		}
	default:
		return Entry{}, backend.Errorf(backend.EInvalid, "Server %q: needs a \"command\" (stdio) or a \"url\" (http, sse).", name)
	}
	if e.EnvFile != "" {
		note("Left out \"envFile\" (%s): the playground does not read env files; add the variables to Environment.", e.EnvFile)
	}
	if len(ignored) > 0 {
		sort.Strings(ignored)
		note("Left out fields the playground does not use: %s.", strings.Join(ignored, ", "))
	}
	if vars := placeholdersIn(imp.Server); len(vars) > 0 {
		note("Kept as typed: %s. The playground does not fill in client variables; replace them with values before connecting.", strings.Join(vars, ", "))
	}
	return imp, nil
}

// placeholdersIn lists the client variables (${input:x}, ${env:X},
// ${workspaceFolder}) in s's settings.
func placeholdersIn(s backend.Server) []string {
	seen := map[string]bool{}
	var out []string
	scan := func(text string) {
		for {
			start := strings.Index(text, "${")
			if start < 0 {
				return
			}
			end := strings.IndexByte(text[start:], '}')
			if end < 0 {
				return
			}
			v := text[start : start+end+1]
			if !seen[v] {
				seen[v] = true
				out = append(out, v)
			}
			text = text[start+end+1:]
		}
	}
	scan(s.Command)
	scan(s.URL)
	scan(s.Dir)
	for _, a := range s.Args {
		scan(a)
	}
	for _, m := range []map[string]string{s.Env, s.Headers} {
		for _, k := range sortedKeys(m) {
			scan(m[k])
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// jsonProblem says where JSON failed to parse.
func jsonProblem(err error) string {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Sprintf("%s (at byte %d)", syntax.Error(), syntax.Offset)
	}
	return err.Error()
}
