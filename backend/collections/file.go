package collections

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// A collection file is a collection exported as JSON, to keep in git, to
// share, to import into another dashboard and to run with `playground
// run`. The README's "Collection files" section describes it for people.

const (
	// FileFormat is the "format" member of every collection file.
	FileFormat = "mcp-playground-collection"
	// FileVersion is the version this build writes and the
	// newest it reads.
	FileVersion = 1
	// MaxFileBytes bounds a collection file to read.
	MaxFileBytes = 16 << 20
)

// File is the content of a collection file. Its members come in
// a fixed order and the file is indented, so that changes diff well.
type File struct {
	Format       string            `json:"format"`
	Version      int               `json:"version"`
	Name         string            `json:"name"`
	Description  string            `json:"description,omitempty"`
	Examples     []FileExample     `json:"examples"`
	Environments []FileEnvironment `json:"environments,omitempty"`
	// Interface is what the server offered when the file was exported,
	// the baseline `playground run --fail-on-drift` compares with.
	Interface *backend.InterfaceListing `json:"interface,omitempty"`
}

// FileExample is one example of a collection file.
type FileExample struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Method      string          `json:"method"`
	Params      json.RawMessage `json:"params,omitempty"`
	// Expect holds the snapshot: the result (with isError as expected) or
	// the JSON-RPC error.
	Expect         FileExpect  `json:"expect"`
	Volatile       []string    `json:"volatile,omitempty"`
	Assertions     []Assertion `json:"assertions,omitempty"`
	AssertionsOnly bool        `json:"assertionsOnly,omitempty"`
	Captures       []Capture   `json:"captures,omitempty"`
}

// FileExpect is an example's snapshot: exactly one of Result and Error.
type FileExpect struct {
	Result  json.RawMessage `json:"result,omitempty"`
	IsError bool            `json:"isError,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

// FileEnvironment is an environment of a collection file. Secret values
// are never written: a secret is named, with no value.
type FileEnvironment struct {
	Name   string         `json:"name"`
	Values []FileEnvValue `json:"values"`
	// Origins are where its secret values may be sent (Environment.Origins).
	Origins []string `json:"origins,omitempty"`
}

// FileEnvValue is one variable of a FileEnvironment.
type FileEnvValue struct {
	Name   string `json:"name"`
	Value  string `json:"value,omitempty"`
	Secret bool   `json:"secret,omitempty"`
}

// Encode writes the file as indented JSON ending in a newline.
func (f File) Encode() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("encode collection file: %w", err)
	}
	return buf.Bytes(), nil
}

// DecodeFile reads and checks a collection file. What is wrong
// with it is an EInvalid *backend.Error for people: not JSON (with the line), not
// a collection file, a version this build cannot read, or the first bad
// example or environment.
func DecodeFile(data []byte) (File, error) {
	if len(data) > MaxFileBytes {
		return File{}, backend.Errorf(backend.EInvalid, "The file is larger than %d MiB.", MaxFileBytes>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return File{}, backend.Errorf(backend.EInvalid, "The file is empty.")
	}
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return File{}, backend.Errorf(backend.EInvalid, "The file is not JSON: %s.", jsonErrorAt(data, err))
	}
	switch {
	case head.Format != FileFormat:
		return File{}, backend.Errorf(backend.EInvalid, "The file is not an MCP Playground collection: its \"format\" is not %q.", FileFormat)
	case head.Version > FileVersion:
		return File{}, backend.Errorf(backend.EInvalid, "The file is of collection format version %d, made by a newer MCP Playground; this one reads version %d and older. Upgrade to import it.", head.Version, FileVersion)
	case head.Version < 1:
		return File{}, backend.Errorf(backend.EInvalid, "The file's collection format version %d is not valid.", head.Version)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return File{}, backend.Errorf(backend.EInvalid, "The file is not a valid collection: %s.", jsonErrorAt(data, err))
	}
	return f, f.check()
}

// jsonErrorAt describes a JSON decoding error for people, with its line
// and column when it has an offset.
func jsonErrorAt(data []byte, err error) string {
	var offset int64 = -1
	msg := err.Error()
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		offset = syn.Offset
	case errors.As(err, &typ):
		offset = typ.Offset
		msg = fmt.Sprintf("%q is %s where %s belongs", typ.Field, withArticle(typ.Value), withArticle(jsonKind(typ.Type.Kind())))
	}
	msg = strings.TrimPrefix(msg, "json: ")
	if offset < 0 || offset > int64(len(data)) {
		return msg
	}
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(offset) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d: %s", line, col, msg)
}

// jsonKind names the JSON type that decodes into a Go kind.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	}
	return "number"
}

func withArticle(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// check reports the first thing wrong in an otherwise well-formed file.
func (f File) check() error {
	if _, err := checkName(f.Name, "name", "collection"); err != nil {
		return backend.Errorf(backend.EInvalid, "The collection has no valid name: %s", backend.ErrorMessageOf(err))
	}
	names := map[string]bool{}
	for i, fe := range f.Examples {
		where := fmt.Sprintf("Example %d (%q)", i+1, fe.Name)
		ex, err := fe.example()
		if err != nil {
			return backend.Errorf(backend.EInvalid, "%s: %s", where, backend.ErrorMessageOf(err))
		}
		if names[ex.Name] {
			return backend.Errorf(backend.EInvalid, "%s: two examples have this name.", where)
		}
		names[ex.Name] = true
	}
	envs := map[string]bool{}
	for i, fe := range f.Environments {
		name, err := checkName(fe.Name, "name", "environment")
		if err != nil {
			return backend.Errorf(backend.EInvalid, "Environment %d: %s", i+1, backend.ErrorMessageOf(err))
		}
		if envs[name] {
			return backend.Errorf(backend.EInvalid, "Environment %d: two environments are named %q.", i+1, name)
		}
		envs[name] = true
		if err := checkEnvValues(fe.environment().Values); err != nil {
			return backend.Errorf(backend.EInvalid, "Environment %q: %s", name, backend.ErrorMessageOf(err))
		}
		if _, err := checkOrigins(fe.Origins); err != nil {
			return backend.Errorf(backend.EInvalid, "Environment %q: %s", name, backend.ErrorMessageOf(err))
		}
	}
	return nil
}

// example is the Example a FileExample describes, checked.
func (fe FileExample) example() (Example, error) {
	name, err := checkName(fe.Name, "name", "example")
	if err != nil {
		return Example{}, err
	}
	ex := Example{Name: name, Description: strings.TrimSpace(fe.Description), Method: strings.TrimSpace(fe.Method),
		Params: fe.Params, Volatile: fe.Volatile, Assertions: fe.Assertions, AssertionsOnly: fe.AssertionsOnly,
		Captures: fe.Captures, ExpectIsError: fe.Expect.IsError}
	if ex.Method == "" {
		return Example{}, backend.Errorf(backend.EInvalid, "it has no method.")
	}
	if len(ex.Params) > 0 && !backend.IsJSONObject(ex.Params) {
		return Example{}, backend.Errorf(backend.EInvalid, "its params are not a JSON object.")
	}
	switch {
	case len(fe.Expect.Result) > 0 && len(fe.Expect.Error) == 0:
		ex.SnapshotKind, ex.Snapshot = SnapshotResult, fe.Expect.Result
	case len(fe.Expect.Error) > 0 && len(fe.Expect.Result) == 0 && backend.IsJSONObject(fe.Expect.Error):
		ex.SnapshotKind, ex.Snapshot = SnapshotError, fe.Expect.Error
	default:
		return Example{}, backend.Errorf(backend.EInvalid, "its \"expect\" holds neither one \"result\" nor one \"error\" object.")
	}
	if ex.Volatile == nil {
		ex.Volatile = []string{}
	}
	for _, p := range ex.Volatile {
		if err := checkVolatile(p); err != nil {
			return Example{}, err
		}
	}
	if err := checkExampleChecks(ex); err != nil {
		return Example{}, err
	}
	return ex, nil
}

func (fe FileEnvironment) environment() Environment {
	e := Environment{Name: strings.TrimSpace(fe.Name), Origins: fe.Origins}
	for _, v := range fe.Values {
		e.Values = append(e.Values, EnvValue{Name: strings.TrimSpace(v.Name), Value: v.Value, Secret: v.Secret})
	}
	return e
}

// Export writes a collection, its examples and environments (secret
// values left out) as a collection file; listing, when not nil, is kept
// as the interface baseline.
func (s *Service) Export(ctx context.Context, collectionID int64, listing *backend.InterfaceListing) (File, error) {
	c, examples, err := s.Get(ctx, collectionID)
	if err != nil {
		return File{}, err
	}
	envs, err := s.store.ListEnvironments(ctx, collectionID)
	if err != nil {
		return File{}, err
	}
	f := File{Format: FileFormat, Version: FileVersion, Name: c.Name, Description: c.Description,
		Examples: make([]FileExample, len(examples)), Interface: listing}
	for i, ex := range examples {
		fe := FileExample{Name: ex.Name, Description: ex.Description, Method: ex.Method, Params: ex.Params,
			Volatile: ex.Volatile, Assertions: ex.Assertions, AssertionsOnly: ex.AssertionsOnly, Captures: ex.Captures}
		if ex.SnapshotKind == SnapshotError {
			fe.Expect.Error = ex.Snapshot
		} else {
			fe.Expect.Result, fe.Expect.IsError = ex.Snapshot, ex.ExpectIsError
		}
		f.Examples[i] = fe
	}
	for _, e := range envs {
		fe := FileEnvironment{Name: e.Name, Values: []FileEnvValue{}, Origins: e.Origins}
		for _, v := range e.Values {
			fe.Values = append(fe.Values, FileEnvValue{Name: v.Name, Value: v.Value, Secret: v.Secret})
		}
		f.Environments = append(f.Environments, fe)
	}
	return f, nil
}

// Import stores a decoded collection file as a new collection, whole or
// not at all. A collection of that name already existing is an EConflict
// *backend.Error; secrets come in without values, to be filled in.
func (s *Service) Import(ctx context.Context, f File) (Collection, error) {
	if err := f.check(); err != nil {
		return Collection{}, err
	}
	now := time.Now()
	c := Collection{Name: strings.TrimSpace(f.Name), Description: strings.TrimSpace(f.Description), Created: now}
	examples := make([]Example, len(f.Examples))
	for i, fe := range f.Examples {
		examples[i], _ = fe.example() // checked above
		examples[i].Created = now
	}
	envs := make([]Environment, len(f.Environments))
	for i, fe := range f.Environments {
		envs[i] = fe.environment()
		envs[i].Origins, _ = checkOrigins(fe.Origins) // checked above
	}
	return s.store.ImportCollection(ctx, c, examples, envs)
}
