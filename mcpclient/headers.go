package mcpclient

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Modern-era HTTP request headers (SEP-2243).
const (
	headerProtocolVersion = "MCP-Protocol-Version"
	headerMethod          = "Mcp-Method"
	headerName            = "Mcp-Name"
	headerParamPrefix     = "Mcp-Param-"
	base64Prefix          = "=?base64?"
	base64Suffix          = "?="
	maxSafeInteger        = 1<<53 - 1
)

// paramHeader binds a tool argument, found by its path of property names,
// to the header Mcp-Param-<name>.
type paramHeader struct {
	path []string
	name string
}

// headerCache remembers, per tool name, the x-mcp-header bindings of the
// tools the server listed, so that tools/call can mirror arguments into
// headers.
type headerCache struct {
	mu    sync.Mutex
	tools map[string][]paramHeader
}

func (h *headerCache) set(tool string, bindings []paramHeader) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tools == nil {
		h.tools = make(map[string][]paramHeader)
	}
	h.tools[tool] = bindings
}

func (h *headerCache) get(tool string) []paramHeader {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.tools[tool]
}

// screenTools applies the x-mcp-header rules to a tools/list result: each
// valid tool's bindings are remembered for tools/call; a tool whose
// annotations break the rules is left out of the result (as the
// specification requires of HTTP clients) and the reason is recorded. The
// result is returned unchanged when every tool is valid.
func (c *Client) screenTools(raw json.RawMessage) (json.RawMessage, error) {
	toolsRaw, ok, err := getMember(raw, "tools")
	if err != nil || !ok {
		return raw, nil
	}
	var tools []json.RawMessage
	if json.Unmarshal(toolsRaw, &tools) != nil {
		return raw, nil
	}
	kept := tools[:0:0]
	for _, t := range tools {
		var tool struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		}
		if json.Unmarshal(t, &tool) != nil {
			kept = append(kept, t)
			continue
		}
		bindings, err := headerBindings(tool.InputSchema)
		if err != nil {
			c.note(nil, "tools/list: tool %q left out: its inputSchema has an invalid x-mcp-header: %v", tool.Name, err)
			continue
		}
		c.headers.set(tool.Name, bindings)
		kept = append(kept, t)
	}
	if len(kept) == len(tools) {
		return raw, nil
	}
	list, err := marshal(kept)
	if err != nil {
		return nil, err
	}
	return setMember(raw, "tools", list, true)
}

// headerBindings finds the x-mcp-header annotations of an inputSchema and
// checks them: each must be a non-empty HTTP token, unique regardless of
// case, on a property of type string, integer or boolean that is reachable
// from the root through "properties" alone.
func headerBindings(schema json.RawMessage) ([]paramHeader, error) {
	if len(schema) == 0 {
		return nil, nil
	}
	var root any
	dec := json.NewDecoder(bytes.NewReader(schema))
	dec.UseNumber()
	if err := dec.Decode(&root); err != nil {
		return nil, nil // not our business: the schema is shown as it is
	}
	var out []paramHeader
	seen := map[string]bool{}
	var walk func(node any, path []string, reachable bool) error
	walkAny := func(v any) error {
		switch v := v.(type) {
		case map[string]any:
			return walk(v, nil, false)
		case []any:
			for _, e := range v {
				if m, ok := e.(map[string]any); ok {
					if err := walk(m, nil, false); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	walk = func(node any, path []string, reachable bool) error {
		obj, ok := node.(map[string]any)
		if !ok {
			return nil
		}
		if v, ok := obj["x-mcp-header"]; ok {
			if !reachable || len(path) == 0 {
				return fmt.Errorf("x-mcp-header %v is not on a property reachable through properties alone", v)
			}
			name, ok := v.(string)
			if !ok {
				return fmt.Errorf("x-mcp-header of %q is not a string", strings.Join(path, "."))
			}
			if err := checkHeaderToken(name); err != nil {
				return fmt.Errorf("x-mcp-header %q of %q: %w", name, strings.Join(path, "."), err)
			}
			if !primitiveType(obj["type"]) {
				return fmt.Errorf("x-mcp-header %q is on %q, whose type %v is not string, integer or boolean", name, strings.Join(path, "."), obj["type"])
			}
			if seen[strings.ToLower(name)] {
				return fmt.Errorf("x-mcp-header %q is used twice (names are compared regardless of case)", name)
			}
			seen[strings.ToLower(name)] = true
			out = append(out, paramHeader{path: path, name: name})
		}
		for k, v := range obj {
			switch k {
			case "x-mcp-header", "const", "enum", "default", "examples":
				continue // annotation or data, not subschemas
			case "properties":
				props, ok := v.(map[string]any)
				if !ok {
					continue
				}
				for name, sub := range props {
					if err := walk(sub, append(path[:len(path):len(path)], name), reachable); err != nil {
						return err
					}
				}
			default:
				if err := walkAny(v); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(root, nil, true); err != nil {
		return nil, err
	}
	return out, nil
}

// primitiveType reports whether a schema "type" allows only string, integer
// or boolean (and null).
func primitiveType(t any) bool {
	ok := func(s any) bool {
		switch s {
		case "string", "integer", "boolean":
			return true
		}
		return false
	}
	switch t := t.(type) {
	case string:
		return ok(t)
	case []any:
		n := 0
		for _, e := range t {
			if e == "null" {
				continue
			}
			if !ok(e) {
				return false
			}
			n++
		}
		return n > 0
	}
	return false
}

// checkHeaderToken checks an x-mcp-header value: a non-empty RFC 9110
// token (1*tchar).
func checkHeaderToken(name string) error {
	if name == "" {
		return errors.New("empty")
	}
	for i := 0; i < len(name); i++ {
		if !isTChar(name[i]) {
			return fmt.Errorf("character %q is not allowed in a header name", name[i])
		}
	}
	return nil
}

func isTChar(b byte) bool {
	switch {
	case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", b) >= 0
}

// headerValue encodes a header value as the specification says: as it is
// when it is plain visible ASCII (inner spaces allowed), else (non-ASCII,
// control characters, leading or trailing space or tab, or a value that
// looks like the Base64 form itself) as =?base64?<Base64 of UTF-8>?=.
func headerValue(s string) string {
	if needsBase64(s) {
		return base64Prefix + base64.StdEncoding.EncodeToString([]byte(s)) + base64Suffix
	}
	return s
}

func needsBase64(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return true
		}
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return true
	}
	return strings.HasPrefix(s, base64Prefix) && strings.HasSuffix(s, base64Suffix)
}

// modernHeaders sets the modern-era request headers of a POST carrying
// body: MCP-Protocol-Version (from the body's _meta, else version),
// Mcp-Method, Mcp-Name for tools/call, resources/read and prompts/get, and
// Mcp-Param-* for the arguments of a tools/call whose tool was listed with
// x-mcp-header annotations. A value that is absent or null gets no header.
func (c *Client) modernHeaders(h http.Header, body []byte, version string) {
	var m struct {
		Method string `json:"method"`
		Params struct {
			Meta      map[string]json.RawMessage `json:"_meta"`
			Name      *string                    `json:"name"`
			URI       *string                    `json:"uri"`
			Arguments json.RawMessage            `json:"arguments"`
		} `json:"params"`
	}
	_ = json.Unmarshal(body, &m)
	if v, ok := m.Params.Meta[metaProtocolVersion]; ok {
		var s string
		if json.Unmarshal(v, &s) == nil && s != "" {
			version = s
		}
	}
	if version != "" {
		h.Set(headerProtocolVersion, version)
	}
	if m.Method == "" {
		return
	}
	h.Set(headerMethod, m.Method)
	switch {
	case (m.Method == "tools/call" || m.Method == "prompts/get") && m.Params.Name != nil:
		h.Set(headerName, headerValue(*m.Params.Name))
	case m.Method == "resources/read" && m.Params.URI != nil:
		h.Set(headerName, headerValue(*m.Params.URI))
	}
	if m.Method != "tools/call" || m.Params.Name == nil {
		return
	}
	bindings := c.headers.get(*m.Params.Name)
	if len(bindings) == 0 {
		return
	}
	var args any
	dec := json.NewDecoder(bytes.NewReader(m.Params.Arguments))
	dec.UseNumber()
	if dec.Decode(&args) != nil {
		return
	}
	for _, b := range bindings {
		v := args
		for _, key := range b.path {
			obj, ok := v.(map[string]any)
			if !ok {
				v = nil
				break
			}
			v = obj[key]
		}
		if s, ok := primitiveString(v); ok {
			h[http.CanonicalHeaderKey(headerParamPrefix+b.name)] = []string{headerValue(s)}
		}
	}
}

// primitiveString converts an argument value for a header: strings as they
// are, integers in decimal, booleans as true or false. Anything else
// (absent, null, a fraction, an object) has no header form.
func primitiveString(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case bool:
		return strconv.FormatBool(v), true
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return strconv.FormatInt(i, 10), true
		}
		f, err := v.Float64()
		if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
			return "", false
		}
		return strconv.FormatInt(int64(f), 10), true
	}
	return "", false
}
