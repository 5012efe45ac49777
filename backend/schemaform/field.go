// Package schemaform turns a JSON Schema (draft-07 or 2020-12) into a form
// and back: Parse builds the form's fields, Arguments reads submitted form
// values into typed JSON, ValuesOf and Defaults fill a form from JSON, and
// Validate checks arguments against the schema, each error keyed by the
// path of the field it belongs to. Tool arguments, elicitation content,
// template variables and prompt arguments all use this one machine.
package schemaform

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Kind is the kind of input a schema becomes.
type Kind string

const (
	KindString  Kind = "string"
	KindNumber  Kind = "number"
	KindInteger Kind = "integer"
	KindBoolean Kind = "boolean"
	KindEnum    Kind = "enum"  // one of Options
	KindMulti   Kind = "multi" // an array of distinct Options; its form text is a JSON array
	KindObject  Kind = "object"
	KindArray   Kind = "array" // items made from Item, added and removed by the user
	KindJSON    Kind = "json"  // a schema a form cannot express: typed as JSON text
)

// Option is one choice of an enum or multi field: Value is the member as
// compact JSON text, Label how it is shown.
type Option struct {
	Value string
	Label string
}

// Field is one input of a form, made from a property (or an array's items)
// of a schema. Objects hold Fields and, for a oneOf/anyOf of object
// schemas, Branches among which the user chooses.
type Field struct {
	Name        string // the property name; "" for an array's Item
	Title       string
	Description string
	Kind        Kind
	Required    bool
	Nullable    bool            // the schema admits null: the user may choose to send it
	Default     json.RawMessage // compact JSON, nil when none
	Format      string          // a string's format (date, date-time, email, uri, …)
	Options     []Option        // KindEnum, KindMulti
	Fields      []*Field        // KindObject: its properties, in schema order
	Branches    []Branch        // KindObject: alternatives of a oneOf/anyOf, each adding its own fields
	Item        *Field          // KindArray
	Minimum     *float64
	Maximum     *float64
	MinLength   *int
	MaxLength   *int
	Pattern     string
	MinItems    *int
	MaxItems    *int
	Note        string // why a KindJSON field has no finer input
}

// Branch is one alternative of a union object.
type Branch struct {
	Title  string
	Fields []*Field
}

// Form is the form of an object schema: Root is the object, whose path is
// "". Schema is the schema itself, against which Validate checks arguments.
type Form struct {
	Root   Field
	Schema json.RawMessage
}

// RawField is the values key of the JSON view of the whole arguments, and
// the errors key of problems that belong to no single field.
const RawField = "_raw"

// Values keys of a field's path P besides P itself: P+NullSuffix is set
// when the user chose null, P+UnsetSuffix when an optional boolean is left
// out, P+ChoiceSuffix holds the chosen branch's index of a union, and
// P+ItemSuffix marks an array item as present however blank it is.
const (
	ItemSuffix   = "?item"
	NullSuffix   = "?null"
	UnsetSuffix  = "?unset"
	ChoiceSuffix = "?choice"
)

// Join returns the path of property name under the path prefix ("" is the
// root). Names are escaped so that a "." or "?" in one cannot be taken for
// a separator.
func Join(prefix, name string) string {
	name = pathEscaper.Replace(name)
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// Index returns the path of item i of the array at prefix.
func Index(prefix string, i int) string { return Join(prefix, strconv.Itoa(i)) }

// Placeholder is the index segment written in the <template> of a new
// array item at nesting depth (0 for an array in no array item); the page
// replaces it with the item's index.
func Placeholder(depth int) string { return "__i" + strconv.Itoa(depth) + "__" }

var pathEscaper = strings.NewReplacer("%", "%25", ".", "%2E", "?", "%3F", "[", "%5B")

// splitPath is the inverse of Join: the unescaped segments of a path.
func splitPath(path string) []string {
	if path == "" {
		return nil
	}
	segs := strings.Split(path, ".")
	for i, s := range segs {
		if strings.Contains(s, "%") {
			segs[i] = pathUnescaper.Replace(s)
		}
	}
	return segs
}

var pathUnescaper = strings.NewReplacer("%25", "%", "%2E", ".", "%3F", "?", "%5B", "[")
