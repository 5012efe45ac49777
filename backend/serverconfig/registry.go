package serverconfig

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcp-playground/playground/backend"
)

// The MCP registry's server.json describes one server by how to get it:
// packages (npm, pypi, oci, ...) to start as stdio servers, and remotes
// (streamable-http, sse) to reach by URL. Each package and each remote
// becomes one draft.

// registryServer is the part of server.json the playground reads.
type registryServer struct {
	Schema      string            `json:"$schema,omitempty"`
	Name        string            `json:"name"`
	Description string            `json:"description,omitempty"`
	Version     string            `json:"version,omitempty"`
	Packages    []registryPackage `json:"packages,omitempty"`
	Remotes     []registryRemote  `json:"remotes,omitempty"`
}

type registryPackage struct {
	RegistryType         string             `json:"registryType"`
	Identifier           string             `json:"identifier"`
	Version              string             `json:"version,omitempty"`
	RuntimeHint          string             `json:"runtimeHint,omitempty"`
	Transport            *registryTransport `json:"transport,omitempty"`
	RuntimeArguments     []registryArgument `json:"runtimeArguments,omitempty"`
	PackageArguments     []registryArgument `json:"packageArguments,omitempty"`
	EnvironmentVariables []registryKeyValue `json:"environmentVariables,omitempty"`
}

type registryTransport struct {
	Type    string             `json:"type"`
	URL     string             `json:"url,omitempty"`
	Headers []registryKeyValue `json:"headers,omitempty"`
}

type registryRemote = registryTransport

type registryArgument struct {
	Type      string `json:"type"` // positional | named
	Name      string `json:"name,omitempty"`
	Value     string `json:"value,omitempty"`
	ValueHint string `json:"valueHint,omitempty"`
	Default   string `json:"default,omitempty"`
}

type registryKeyValue struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Value       string `json:"value,omitempty"`
	Default     string `json:"default,omitempty"`
	IsRequired  bool   `json:"isRequired,omitempty"`
	IsSecret    bool   `json:"isSecret,omitempty"`
}

// registrySchemaURL is the server.json schema the export names.
const registrySchemaURL = "https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json"

func parseRegistryArray(data []byte) (List, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return List{}, backend.Errorf(backend.EInvalid, "The server list is not a JSON array of server.json objects: %s.", jsonProblem(err))
	}
	list := List{Format: FormatRegistry}
	for i, item := range items {
		entries, err := parseRegistryServer(item, fmt.Sprintf("item %d: ", i+1))
		if err != nil {
			return List{}, err
		}
		list.Entries = append(list.Entries, entries...)
	}
	return list, nil
}

// parseRegistryServer reads one server.json; where prefixes its errors.
func parseRegistryServer(data []byte, where string) ([]Entry, error) {
	var rs registryServer
	if err := json.Unmarshal(data, &rs); err != nil {
		return nil, backend.Errorf(backend.EInvalid, "%sserver.json does not parse: %s.", where, jsonProblem(err))
	}
	if len(rs.Packages)+len(rs.Remotes) == 0 {
		return nil, backend.Errorf(backend.EInvalid, "%sserver.json %q has neither \"packages\" nor \"remotes\".", where, rs.Name)
	}
	base := rs.Name
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	if base == "" {
		return nil, backend.Errorf(backend.EInvalid, "%sserver.json, field \"name\": required.", where)
	}
	var out []Entry
	nameOf := func(kind string) string {
		if len(out) == 0 {
			return base
		}
		return fmt.Sprintf("%s-%s-%d", base, kind, len(out)+1)
	}
	for i, p := range rs.Packages {
		imp, err := registryPackageServer(p, fmt.Sprintf("%sserver.json %q, packages[%d]", where, rs.Name, i))
		if err != nil {
			return nil, err
		}
		imp.Server.Name = nameOf(p.RegistryType)
		out = append(out, imp)
	}
	for i, r := range rs.Remotes {
		imp, err := registryRemoteServer(r, fmt.Sprintf("%sserver.json %q, remotes[%d]", where, rs.Name, i))
		if err != nil {
			return nil, err
		}
		imp.Server.Name = nameOf(string(imp.Server.Transport))
		out = append(out, imp)
	}
	return out, nil
}

// registryPackageServer turns a package into a stdio server started the
// way its registry's usual runner starts it.
func registryPackageServer(p registryPackage, where string) (Entry, error) {
	if p.Identifier == "" {
		return Entry{}, backend.Errorf(backend.EInvalid, "%s, field \"identifier\": required.", where)
	}
	var imp Entry
	note := func(format string, a ...any) { imp.Notes = append(imp.Notes, fmt.Sprintf(format, a...)) }
	runtimeArgs := registryArgs(p.RuntimeArguments, note)
	var command string
	var args []string
	switch p.RegistryType {
	case "npm":
		command, args = "npx", append(append([]string{"-y"}, runtimeArgs...), versioned(p.Identifier, "@", p.Version))
		note("Runs the npm package with npx -y %s.", versioned(p.Identifier, "@", p.Version))
	case "pypi":
		command, args = "uvx", append(runtimeArgs, versioned(p.Identifier, "==", p.Version))
		note("Runs the PyPI package with uvx %s.", versioned(p.Identifier, "==", p.Version))
	case "oci":
		image := p.Identifier
		if p.Version != "" && !strings.Contains(image[strings.LastIndexByte(image, '/')+1:], ":") {
			image += ":" + p.Version
		}
		command, args = "docker", append([]string{"run", "-i", "--rm"}, runtimeArgs...)
		for _, ev := range p.EnvironmentVariables {
			args = append(args, "-e", ev.Name)
		}
		args = append(args, image)
		note("Runs the container image with docker run -i --rm %s; its environment variables are passed with -e.", image)
	default:
		return Entry{}, backend.Errorf(backend.EInvalid, "%s, field \"registryType\": %q packages are not supported (npm, pypi and oci are).", where, p.RegistryType)
	}
	if p.RuntimeHint != "" && p.RuntimeHint != command {
		note("The package asks for the runner %q; the playground uses %s.", p.RuntimeHint, command)
	}
	args = append(args, registryArgs(p.PackageArguments, note)...)
	env := map[string]string{}
	for _, ev := range p.EnvironmentVariables {
		env[ev.Name] = registryValue(ev, "environment variable", note)
	}
	if len(env) == 0 {
		env = nil
	}
	imp.Server = backend.Server{Transport: backend.TransportStdio, Command: command, Args: args, Env: env}
	if p.Transport != nil && p.Transport.Type != "" && p.Transport.Type != "stdio" {
		note("The package serves %s at %s once started; the playground registers it as a stdio command: start it yourself and register its URL instead if it does not speak stdio.", p.Transport.Type, p.Transport.URL)
	}
	return imp, nil
}

func versioned(id, sep, version string) string {
	if version == "" || version == "latest" {
		return id
	}
	return id + sep + version
}

// registryArgs turns server.json arguments into command-line words.
func registryArgs(in []registryArgument, note func(string, ...any)) []string {
	var out []string
	for _, a := range in {
		value := a.Value
		if value == "" {
			value = a.Default
		}
		if value == "" && a.ValueHint != "" {
			value = "<" + a.ValueHint + ">"
			note("Argument %s is a placeholder: fill it in.", value)
		}
		switch a.Type {
		case "named":
			out = append(out, a.Name)
			if value != "" {
				out = append(out, value)
			}
		default:
			if value != "" {
				out = append(out, value)
			}
		}
	}
	return out
}

// registryValue is the value of an env variable or header: its value,
// else its default, else a placeholder "<NAME>" (noted).
func registryValue(kv registryKeyValue, what string, note func(string, ...any)) string {
	switch {
	case kv.Value != "":
		return kv.Value
	case kv.Default != "":
		return kv.Default
	}
	kind := "value"
	if kv.IsSecret {
		kind = "secret"
	}
	note("The %s %s is a placeholder <%s>: fill in its %s.", what, kv.Name, kv.Name, kind)
	return "<" + kv.Name + ">"
}

func registryRemoteServer(r registryRemote, where string) (Entry, error) {
	var imp Entry
	note := func(format string, a ...any) { imp.Notes = append(imp.Notes, fmt.Sprintf(format, a...)) }
	switch r.Type {
	case "streamable-http", "http":
		imp.Server.Transport = backend.TransportHTTP
	case "sse":
		imp.Server.Transport = backend.TransportSSE
	default:
		return Entry{}, backend.Errorf(backend.EInvalid, "%s, field \"type\": %q is not streamable-http or sse.", where, r.Type)
	}
	if r.URL == "" {
		return Entry{}, backend.Errorf(backend.EInvalid, "%s, field \"url\": required.", where)
	}
	imp.Server.URL = r.URL
	if strings.Contains(r.URL, "{") {
		note("The URL holds {variables}: replace them before connecting.")
	}
	for _, h := range r.Headers {
		if imp.Server.Headers == nil {
			imp.Server.Headers = map[string]string{}
		}
		imp.Server.Headers[h.Name] = registryValue(h, "header", note)
	}
	return imp, nil
}
