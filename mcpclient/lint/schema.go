package lint

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// schemaFiles are the specification's schema/<version>/schema.json files
// (modelcontextprotocol/modelcontextprotocol), named <version>.json.
//
//go:embed schema/*.json
var schemaFiles embed.FS

// spec is what one protocol version's schema says: which side sends
// which method, and the definitions to validate messages against. It is
// read from its file the first time a Linter needs that version, and its
// definitions are compiled when first used.
type spec struct {
	version string
	base    string // the URL the schema file is added to the compiler under
	defsKey string // "definitions" (draft-07) or "$defs" (2020-12)
	defs    map[string]json.RawMessage
	// requests and notifications map, for each sender, a method to the
	// definition of its message.
	requests      [2]map[string]string
	notifications [2]map[string]string
	// capabilities are the capabilities the version defines, by side.
	capabilities [2]map[string]bool
	// contentTypes are the type values of a tool result's content items.
	contentTypes map[string]bool

	mu       sync.Mutex
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema
	// shapes tells the shapes of values that matched a definition (see
	// shape.go), nil when the schema uses a keyword shapes do not keep;
	// valid holds those shapes.
	shapes *shapeRules
	valid  map[uint64]bool
}

var (
	specsMu sync.Mutex
	specs   = map[string]*spec{}
)

// specOf returns the spec of version, nil when no schema file has it.
// Only the embedded versions are remembered: a peer that names a new
// version in every session costs nothing that stays.
func specOf(version string) *spec {
	if !embeddedVersion(version) {
		return nil
	}
	specsMu.Lock()
	defer specsMu.Unlock()
	if s, ok := specs[version]; ok {
		return s
	}
	s := loadSpec(version)
	specs[version] = s
	return s
}

// embeddedVersions are the versions schemaFiles holds a schema of.
var embeddedVersions = func() map[string]bool {
	entries, _ := fs.ReadDir(schemaFiles, "schema")
	out := map[string]bool{}
	for _, e := range entries {
		out[strings.TrimSuffix(e.Name(), ".json")] = true
	}
	return out
}()

// embeddedVersion reports whether schemaFiles holds version's schema.
func embeddedVersion(version string) bool { return embeddedVersions[version] }

func loadSpec(version string) *spec {
	if strings.ContainsAny(version, "/.") {
		return nil
	}
	raw, err := schemaFiles.ReadFile("schema/" + version + ".json")
	if err != nil {
		return nil
	}
	var file map[string]json.RawMessage
	if json.Unmarshal(raw, &file) != nil {
		return nil
	}
	s := &spec{version: version, base: "https://modelcontextprotocol.io/schema/" + version + "/schema.json", defsKey: "$defs", compiled: map[string]*jsonschema.Schema{}}
	if _, ok := file["definitions"]; ok {
		s.defsKey = "definitions"
	}
	if json.Unmarshal(file[s.defsKey], &s.defs) != nil {
		return nil
	}
	s.requests = [2]map[string]string{s.methods("ClientRequest"), s.methods("ServerRequest")}
	s.notifications = [2]map[string]string{s.methods("ClientNotification"), s.methods("ServerNotification")}
	s.capabilities = [2]map[string]bool{s.capabilityNames("ClientCapabilities"), s.capabilityNames("ServerCapabilities")}
	s.contentTypes = s.typeConsts(s.resolve(s.memberDef("CallToolResult", "content", "items")))
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil
	}
	s.compiler = jsonschema.NewCompiler()
	// Formats are annotations in every version, as 2020-12 has them (in
	// draft-07 asserting them is optional): a uri-template or a base64
	// payload is not judged by its text.
	for _, name := range []string{"uri", "uri-reference", "uri-template", "byte", "date-time", "email"} {
		s.compiler.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(any) error { return nil }})
	}
	if s.compiler.AddResource(s.base, doc) != nil {
		return nil
	}
	if r, ok := newShapeRules(doc); ok {
		s.shapes, s.valid = r, map[uint64]bool{}
	}
	return s
}

// def is the definition named name, parsed into its members.
func (s *spec) def(name string) map[string]json.RawMessage {
	var d map[string]json.RawMessage
	_ = json.Unmarshal(s.defs[name], &d)
	return d
}

// refName is the definition a {"$ref": "#/<defs>/Name"} names, "" for
// anything else.
func refName(v json.RawMessage) string {
	var r struct {
		Ref string `json:"$ref"`
	}
	if json.Unmarshal(v, &r) != nil {
		return ""
	}
	return r.Ref[strings.LastIndex(r.Ref, "/")+1:]
}

// resolve lists the definitions a union names: the definitions of its
// anyOf (or oneOf) alternatives, the one a $ref names, or name itself.
func (s *spec) resolve(name string) []string {
	d := s.def(name)
	for _, key := range []string{"anyOf", "oneOf"} {
		var alts []json.RawMessage
		if json.Unmarshal(d[key], &alts) == nil && len(alts) > 0 {
			var names []string
			for _, a := range alts {
				if n := refName(a); n != "" {
					names = append(names, s.resolve(n)...)
				}
			}
			return names
		}
	}
	if ref := refName(s.defs[name]); ref != "" && ref != name {
		return s.resolve(ref)
	}
	if d == nil {
		return nil
	}
	return []string{name}
}

// memberDef is the definition that def's property path (through
// "items" for arrays) refers to, "" when it refers to none.
func (s *spec) memberDef(def string, path ...string) string {
	cur := s.defs[def]
	for _, p := range path {
		var d map[string]json.RawMessage
		if json.Unmarshal(cur, &d) != nil {
			return ""
		}
		if p == "items" {
			cur = d["items"]
			continue
		}
		var props map[string]json.RawMessage
		_ = json.Unmarshal(d["properties"], &props)
		cur = props[p]
	}
	return refName(cur)
}

// constOf is the const of property prop of definition name, "" when none.
func (s *spec) constOf(name, prop string) string {
	var d struct {
		Properties map[string]struct {
			Const string `json:"const"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(s.defs[name], &d)
	return d.Properties[prop].Const
}

// methods maps the method of each message in union to its definition.
func (s *spec) methods(union string) map[string]string {
	out := map[string]string{}
	for _, name := range s.resolve(union) {
		if m := s.constOf(name, "method"); m != "" {
			out[m] = name
		}
	}
	return out
}

func (s *spec) typeConsts(names []string) map[string]bool {
	out := map[string]bool{}
	for _, n := range names {
		if t := s.constOf(n, "type"); t != "" {
			out[t] = true
		}
	}
	return out
}

// sends reports which sides send method as a request or notification
// in this version.
func (s *spec) sends(method string, notification bool) (byClient, byServer bool) {
	table := s.requests
	if notification {
		table = s.notifications
	}
	_, byClient = table[client][method]
	_, byServer = table[server][method]
	return byClient, byServer
}

// resultDef is the definition of the result of a request whose message
// definition is reqDef: FooRequest's FooResult, or the plain Result.
func (s *spec) resultDef(reqDef string) string {
	if name := strings.TrimSuffix(reqDef, "Request") + "Result"; strings.HasSuffix(reqDef, "Request") && s.defs[name] != nil {
		return name
	}
	return "Result"
}

// violation is where and how a value breaks a definition.
type violation struct {
	pointer string // relative to the value validated
	message string
}

// validate checks v (decoded by jsonschema.UnmarshalJSON) against the
// definition name and returns its deepest violation, ok false when v
// matches (or the definition does not compile).
func (s *spec) validate(name string, v any) (violation, bool) {
	var shape uint64
	shaped := s.shapes != nil
	if shaped {
		shape = s.shapes.shapeOf(name, v)
	}
	s.mu.Lock()
	sch, ok := s.compiled[name]
	if !ok {
		sch, _ = s.compiler.Compile(s.base + "#/" + s.defsKey + "/" + name)
		s.compiled[name] = sch
	}
	known := shaped && s.valid[shape]
	s.mu.Unlock()
	if sch == nil || known {
		return violation{}, false
	}
	var ve *jsonschema.ValidationError
	if err := sch.Validate(v); !errors.As(err, &ve) {
		if shaped {
			s.mu.Lock()
			if len(s.valid) >= maxShapes {
				clear(s.valid)
			}
			s.valid[shape] = true
			s.mu.Unlock()
		}
		return violation{}, false
	}
	leaf := deepest(ve)
	return violation{pointer: pointerOf(leaf.InstanceLocation...), message: leaf.ErrorKind.LocalizedString(message.NewPrinter(language.English))}, true
}

// deepest is the cause of e that lies deepest in the instance; among
// equals the first.
func deepest(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return e
	}
	best := deepest(e.Causes[0])
	for _, c := range e.Causes[1:] {
		if d := deepest(c); len(d.InstanceLocation) > len(best.InstanceLocation) {
			best = d
		}
	}
	return best
}
