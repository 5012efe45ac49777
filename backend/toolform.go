package backend

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// FieldType is the kind of form input a schema property becomes.
type FieldType string

const (
	FieldString  FieldType = "string"
	FieldNumber  FieldType = "number"
	FieldInteger FieldType = "integer"
	FieldBoolean FieldType = "boolean"
	FieldEnum    FieldType = "enum"
	// FieldMulti is an array whose items are choices: several may be
	// picked. Its form text is a JSON array of the chosen members.
	FieldMulti FieldType = "multi"
)

// EnumOption is one choice of an enum field: Value is the member as JSON
// text, Label how it is shown.
type EnumOption struct {
	Value string
	Label string
}

// FormField is one input of a tool's form, made from a top-level property of
// its input schema.
type FormField struct {
	Name        string
	Title       string
	Description string
	Type        FieldType
	Options     []EnumOption // for FieldEnum and FieldMulti
	Default     string       // the schema default as form text ("" when none); for enums, the JSON text of the member
	Required    bool
	// Format is a string's "format" (email, uri, date, date-time, …), which
	// validation asserts.
	Format string
}

// ToolForm is the form generated from a tool's input schema. Properties that
// a flat form cannot express (objects, arrays, unions) are listed in RawOnly
// and are entered in the raw-JSON arguments box.
type ToolForm struct {
	Fields  []FormField
	RawOnly []FormField
}

// RawField is the form key of the raw-JSON arguments box, and the field
// errors key for problems that belong to no single field.
const RawField = "_raw"

type schemaProperty struct {
	Type        json.RawMessage   `json:"type"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Enum        []json.RawMessage `json:"enum"`
	EnumNames   []string          `json:"enumNames"` // labels of Enum's members, by position (a common extension)
	OneOf       []titledConst     `json:"oneOf"`
	AnyOf       []titledConst     `json:"anyOf"`
	Default     json.RawMessage   `json:"default"`
	Format      string            `json:"format"`
	Items       *schemaProperty   `json:"items"`
}

// titledConst is a choice written as {"const": V, "title": "Label"}.
type titledConst struct {
	Const json.RawMessage `json:"const"`
	Title string          `json:"title"`
}

// enumOptions returns the choices of a property given as enum (labelled
// by enumNames when it has one name per member) or as a oneOf or anyOf of
// titled consts; nil when it has none.
func (p schemaProperty) enumOptions() []EnumOption {
	var opts []EnumOption
	if len(p.Enum) > 0 {
		for i, v := range p.Enum {
			label := enumLabel(v)
			if len(p.EnumNames) == len(p.Enum) && p.EnumNames[i] != "" {
				label = p.EnumNames[i]
			}
			opts = append(opts, EnumOption{Value: string(compactJSON(v)), Label: label})
		}
		return opts
	}
	for _, choices := range [][]titledConst{p.OneOf, p.AnyOf} {
		if len(choices) == 0 {
			continue
		}
		for _, c := range choices {
			if len(c.Const) == 0 {
				return nil // not a list of consts: the raw box takes it
			}
			label := c.Title
			if label == "" {
				label = enumLabel(c.Const)
			}
			opts = append(opts, EnumOption{Value: string(compactJSON(c.Const)), Label: label})
		}
		return opts
	}
	return nil
}

// ParseToolForm builds the form of an input schema. Fields keep the order of
// the schema's properties. An unreadable schema yields an empty form, so
// the raw box remains.
func ParseToolForm(inputSchema json.RawMessage) ToolForm {
	var doc struct {
		Properties map[string]schemaProperty `json:"properties"`
		Required   []string                  `json:"required"`
	}
	if json.Unmarshal(inputSchema, &doc) != nil {
		return ToolForm{}
	}
	required := map[string]bool{}
	for _, r := range doc.Required {
		required[r] = true
	}
	var form ToolForm
	for _, name := range propertyOrder(inputSchema, doc.Properties) {
		p := doc.Properties[name]
		f := FormField{Name: name, Title: p.Title, Description: p.Description, Required: required[name]}
		if opts := p.enumOptions(); opts != nil {
			f.Type, f.Options = FieldEnum, opts
			if len(p.Default) > 0 {
				f.Default = string(compactJSON(p.Default))
			}
		} else if p.Items != nil && isArrayType(p.Type) && p.Items.enumOptions() != nil {
			f.Type, f.Options = FieldMulti, p.Items.enumOptions()
			if len(p.Default) > 0 {
				f.Default = string(compactJSON(p.Default))
			}
		} else {
			f.Type = simpleType(p.Type)
			f.Default = defaultText(p.Default)
			if f.Type == FieldString {
				f.Format = p.Format
			}
		}
		if f.Type == "" {
			form.RawOnly = append(form.RawOnly, f)
			continue
		}
		form.Fields = append(form.Fields, f)
	}
	return form
}

// propertyOrder returns the property names in document order.
func propertyOrder(schema json.RawMessage, props map[string]schemaProperty) []string {
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	var wrapper struct {
		Properties json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &wrapper) != nil {
		return names
	}
	dec := json.NewDecoder(bytes.NewReader(wrapper.Properties))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return names
	}
	ordered := make([]string, 0, len(props))
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return names
		}
		key, _ := t.(string)
		ordered = append(ordered, key)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return names
		}
	}
	return ordered
}

// isArrayType reports whether a schema "type" is "array" (alone, or with
// "null").
func isArrayType(raw json.RawMessage) bool {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one == "array"
	}
	var many []string
	if json.Unmarshal(raw, &many) != nil {
		return false
	}
	return slices.Contains(many, "array") && len(many) <= 2 && (len(many) == 1 || slices.Contains(many, "null"))
}

// simpleType maps a schema "type" (a string, or a list with "null") to a
// flat field type, or "" when the property needs the raw box.
func simpleType(raw json.RawMessage) FieldType {
	var one string
	if json.Unmarshal(raw, &one) != nil {
		var many []string
		if json.Unmarshal(raw, &many) != nil {
			return ""
		}
		for _, t := range many {
			if t != "null" {
				if one != "" {
					return ""
				}
				one = t
			}
		}
	}
	switch FieldType(one) {
	case FieldString, FieldNumber, FieldInteger, FieldBoolean:
		return FieldType(one)
	}
	return ""
}

func enumLabel(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(compactJSON(v))
}

func defaultText(v json.RawMessage) string {
	if len(v) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(compactJSON(v))
}

func compactJSON(v json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}

// ArgumentsFromForm turns submitted form values into tool arguments. The raw
// box (values[RawField]), when not blank, must hold a JSON object; form
// fields that were filled in are added to it and win over its keys. Blank
// optional fields are left out. It returns field errors keyed by field name
// (RawField for the box) and no arguments when there are any.
func ArgumentsFromForm(form ToolForm, values map[string]string) (json.RawMessage, map[string]string) {
	errs := map[string]string{}
	args := map[string]json.RawMessage{}
	if raw := strings.TrimSpace(values[RawField]); raw != "" {
		if err := json.Unmarshal([]byte(raw), &args); err != nil {
			errs[RawField] = "Arguments must be a JSON object: " + jsonErrorText(err)
		} else if args == nil { // the box held null
			errs[RawField] = "Arguments must be a JSON object, not null."
		}
		if args == nil {
			args = map[string]json.RawMessage{}
		}
	}
	for _, f := range form.Fields {
		text := strings.TrimSpace(values[f.Name])
		if text == "" {
			if _, inRaw := args[f.Name]; f.Required && !inRaw {
				errs[f.Name] = "This field is required."
			}
			continue
		}
		v, err := fieldValue(f, text)
		if err != nil {
			errs[f.Name] = err.Error()
			continue
		}
		args[f.Name] = v
	}
	for _, f := range form.RawOnly {
		if _, ok := args[f.Name]; f.Required && !ok && errs[RawField] == "" {
			errs[RawField] = fmt.Sprintf("%q is required: give it in the JSON arguments.", f.Name)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	out, err := json.Marshal(args)
	if err != nil {
		return nil, map[string]string{RawField: err.Error()}
	}
	return out, nil
}

func fieldValue(f FormField, text string) (json.RawMessage, error) {
	switch f.Type {
	case FieldString:
		return json.Marshal(text)
	case FieldNumber:
		n, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
			return nil, errors.New("Enter a number.")
		}
		return json.RawMessage(strconv.FormatFloat(n, 'g', -1, 64)), nil
	case FieldInteger:
		n, err := strconv.ParseInt(text, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return nil, fmt.Errorf("Enter a whole number from %d to %d.", math.MinInt64, math.MaxInt64)
		}
		if err != nil {
			return nil, errors.New("Enter a whole number.")
		}
		return json.RawMessage(strconv.FormatInt(n, 10)), nil
	case FieldBoolean:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, errors.New("Choose true or false.")
		}
		return json.RawMessage(strconv.FormatBool(b)), nil
	case FieldEnum:
		for _, o := range f.Options {
			if o.Value == text {
				return json.RawMessage(o.Value), nil
			}
		}
		return nil, errors.New("Choose one of the listed values.")
	case FieldMulti:
		chosen, err := ChosenMembers(text)
		if err != nil {
			return nil, errors.New("Choose among the listed values.")
		}
		out := []json.RawMessage{}
		for _, o := range f.Options { // in the listed order, each once
			if chosen[o.Value] {
				out = append(out, json.RawMessage(o.Value))
				delete(chosen, o.Value)
			}
		}
		if len(chosen) > 0 {
			return nil, errors.New("Choose among the listed values.")
		}
		return json.Marshal(out)
	}
	return nil, fmt.Errorf("unsupported field type %q", f.Type)
}

func jsonErrorText(err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("%s (at byte %d)", syn.Error(), syn.Offset)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return "expected an object, got " + typ.Value
	}
	return err.Error()
}

// ValidateArguments checks args against a tool's input schema (JSON Schema
// 2020-12 unless the schema names another draft). It returns field errors
// keyed by the name of the form's field they concern, and under RawField
// those of everything the form has no field for (nested properties of a
// JSON-only argument among them, each named by its path), or nil when the
// arguments are valid. A schema that cannot be compiled is not enforced:
// the server is the judge then.
func ValidateArguments(form ToolForm, inputSchema, args json.RawMessage) map[string]string {
	errs := validateArguments(inputSchema, args)
	if errs == nil {
		return nil
	}
	fields := map[string]bool{RawField: true}
	for _, f := range form.Fields {
		fields[f.Name] = true
	}
	placed := map[string]string{}
	for key, msg := range errs {
		if fields[key] {
			addFieldError(placed, key, msg)
		} else if strings.HasPrefix(msg, "/") {
			addFieldError(placed, RawField, msg)
		} else {
			addFieldError(placed, RawField, "/"+key+": "+msg)
		}
	}
	return placed
}

// validateArguments is ValidateArguments with errors keyed by top-level
// property name (RawField for the rest).
func validateArguments(inputSchema, args json.RawMessage) map[string]string {
	if len(bytes.TrimSpace(inputSchema)) == 0 {
		return nil
	}
	sch, err := compileSchema(inputSchema, "urn:playground:tool-input")
	if err != nil {
		return nil
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return map[string]string{RawField: "Arguments are not valid JSON."}
	}
	var verr *jsonschema.ValidationError
	if err := sch.Validate(inst); !errors.As(err, &verr) {
		return nil
	}
	errs := map[string]string{}
	p := message.NewPrinter(language.English)
	collectLeaves(verr, func(e *jsonschema.ValidationError) {
		key := RawField
		if missing := requiredMissing(e); len(missing) > 0 {
			for _, m := range missing {
				if len(e.InstanceLocation) == 0 {
					addFieldError(errs, m, "This field is required.")
				} else {
					addFieldError(errs, e.InstanceLocation[0], "/"+strings.Join(e.InstanceLocation, "/")+": "+strconv.Quote(m)+" is required.")
				}
			}
			return
		}
		if len(e.InstanceLocation) > 0 {
			key = e.InstanceLocation[0]
		}
		msg := e.ErrorKind.LocalizedString(p)
		if len(e.InstanceLocation) > 1 {
			msg = "/" + strings.Join(e.InstanceLocation, "/") + ": " + msg
		}
		addFieldError(errs, key, msg)
	})
	if len(errs) == 0 {
		errs[RawField] = verr.Error()
	}
	return errs
}

// ChosenMembers reads a multi-choice field's form text, a JSON array, as
// the set of its members' compact JSON texts.
func ChosenMembers(text string) (map[string]bool, error) {
	var members []json.RawMessage
	if err := json.Unmarshal([]byte(text), &members); err != nil {
		return nil, err
	}
	chosen := make(map[string]bool, len(members))
	for _, m := range members {
		chosen[string(compactJSON(m))] = true
	}
	return chosen, nil
}

// noLoader refuses every $ref outside the schema itself: a schema comes
// from a server, and must not make the playground read its host's files
// (the library's default) or fetch URLs.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema references %s: only references within the schema are followed", url)
}

// Defaults returns the form's default values as form text, by field name,
// for a form that nobody has filled in yet: what the schema suggests is
// there to be seen, changed and sent.
func (f ToolForm) Defaults() map[string]string {
	values := map[string]string{}
	for _, field := range f.Fields {
		if field.Default != "" {
			values[field.Name] = field.Default
		}
	}
	return values
}

// requiredMissing returns the property names a "required" error reports missing.
func requiredMissing(e *jsonschema.ValidationError) []string {
	if r, ok := e.ErrorKind.(*kind.Required); ok {
		return r.Missing
	}
	return nil
}

func collectLeaves(e *jsonschema.ValidationError, visit func(*jsonschema.ValidationError)) {
	if len(e.Causes) == 0 {
		visit(e)
		return
	}
	for _, c := range e.Causes {
		collectLeaves(c, visit)
	}
}

func addFieldError(errs map[string]string, key, msg string) {
	if prev, ok := errs[key]; ok {
		if !strings.Contains(prev, msg) {
			errs[key] = prev + "; " + msg
		}
		return
	}
	errs[key] = msg
}
