package views

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/mcp-playground/playground/backend/schemaform"
)

// sfName is the form name of the input of a field at path; web reads it
// back with the "arg." prefix cut.
func sfName(path string) string { return "arg." + path }

// sfID is the element id of the input at path inside the form whose ids
// start with id.
func sfID(id, path string) string { return id + "-" + path }

// sfLabel is what a field's label says: its title, else its name, else
// (for an array's items) "item".
func sfLabel(f *schemaform.Field) string {
	if f.Title != "" {
		return f.Title
	}
	if f.Name != "" {
		return f.Name
	}
	return "item"
}

// sfTypeLabel names a field's type as its label shows it.
func sfTypeLabel(f *schemaform.Field) string {
	var t string
	switch f.Kind {
	case schemaform.KindMulti:
		t = "choose any"
	case schemaform.KindEnum:
		t = "choose one"
	case schemaform.KindArray:
		t = "list"
	default:
		t = string(f.Kind)
	}
	if f.Format != "" {
		t += " · " + f.Format
	}
	if f.Nullable {
		t += " · or null"
	}
	return t
}

// sfConstraints says a field's limits in words: range, lengths, pattern,
// item counts.
func sfConstraints(f *schemaform.Field) string {
	var parts []string
	num := func(p *float64) string { return strconv.FormatFloat(*p, 'g', -1, 64) }
	switch {
	case f.Minimum != nil && f.Maximum != nil:
		parts = append(parts, "from "+num(f.Minimum)+" to "+num(f.Maximum))
	case f.Minimum != nil:
		parts = append(parts, "at least "+num(f.Minimum))
	case f.Maximum != nil:
		parts = append(parts, "at most "+num(f.Maximum))
	}
	count := func(min, max *int, unit string) {
		units := func(n int) string {
			if n == 1 {
				return strconv.Itoa(n) + " " + unit
			}
			return strconv.Itoa(n) + " " + unit + "s"
		}
		switch {
		case min != nil && max != nil:
			parts = append(parts, strconv.Itoa(*min)+" to "+units(*max))
		case min != nil && *min == 1 && unit == "character":
			parts = append(parts, "not empty")
		case min != nil && *min > 0:
			parts = append(parts, "at least "+units(*min))
		case max != nil:
			parts = append(parts, "at most "+units(*max))
		}
	}
	count(f.MinLength, f.MaxLength, "character")
	count(f.MinItems, f.MaxItems, "item")
	if f.Pattern != "" {
		parts = append(parts, "matching "+f.Pattern)
	}
	if f.Default != nil {
		parts = append(parts, "default "+sfDefaultText(f))
	}
	return strings.Join(parts, " · ")
}

// sfDefaultText is a field's default as the user sees it: an enum's or a
// multi-choice's members by the names its options show (the compact JSON
// of the default for any other field, or a member no option has).
func sfDefaultText(f *schemaform.Field) string {
	label := func(value string) (string, bool) {
		for _, o := range f.Options {
			if o.Value == value {
				return o.Label, true
			}
		}
		return "", false
	}
	switch f.Kind {
	case schemaform.KindEnum:
		if l, ok := label(string(f.Default)); ok {
			return l
		}
	case schemaform.KindMulti:
		chosen, err := schemaform.ChosenMembers(string(f.Default))
		if err != nil || len(chosen) == 0 {
			break
		}
		var names []string
		for _, o := range f.Options {
			if chosen[o.Value] {
				names = append(names, o.Label)
				delete(chosen, o.Value)
			}
		}
		if len(chosen) == 0 {
			return strings.Join(names, ", ")
		}
	}
	return string(f.Default)
}

// sfInputType is the HTML input type of a leaf field: the browser's own
// pickers and keyboards for the formats it knows; validation is the
// server's, against the schema.
func sfInputType(f *schemaform.Field) string {
	switch f.Kind {
	case schemaform.KindNumber, schemaform.KindInteger:
		return "number"
	}
	switch f.Format {
	case "email":
		return "email"
	case "uri", "url":
		return "url"
	case "date":
		return "date"
	}
	return "text"
}

// sfInputAttrs are a leaf input's limits as HTML attributes, for the
// browser's pickers and keyboards.
func sfInputAttrs(f *schemaform.Field) templ.Attributes {
	attrs := templ.Attributes{}
	num := func(p *float64) string { return strconv.FormatFloat(*p, 'g', -1, 64) }
	switch f.Kind {
	case schemaform.KindInteger:
		attrs["step"], attrs["inputmode"] = "1", "numeric"
	case schemaform.KindNumber:
		attrs["step"], attrs["inputmode"] = "any", "decimal"
	}
	if f.Minimum != nil {
		attrs["min"] = num(f.Minimum)
	}
	if f.Maximum != nil {
		attrs["max"] = num(f.Maximum)
	}
	if f.MaxLength != nil {
		attrs["maxlength"] = strconv.Itoa(*f.MaxLength)
	}
	return attrs
}

// sfPlaceholder hints at what a text field takes: an example of its format.
func sfPlaceholder(f *schemaform.Field) string {
	switch f.Format {
	case "date-time":
		return "2025-01-31T12:00:00Z"
	case "time":
		return "12:00:00Z"
	case "email":
		return "name@example.com"
	case "uri", "url":
		return "https://example.com/"
	}
	return ""
}

// sfBlankOption is the text of a select's "nothing chosen" option.
func sfBlankOption(f *schemaform.Field) string {
	if f.Required {
		return "— choose —"
	}
	return "— not sent —"
}

// sfChosen is the set of members a multi-choice field's form text picks.
func sfChosen(value string) map[string]bool {
	set, err := schemaform.ChosenMembers(value)
	if err != nil {
		return nil
	}
	return set
}

// sfFieldClass is a field wrapper's class, marked when the field is in error.
func sfFieldClass(kind string, errs map[string]string, path string) string {
	if _, ok := errs[path]; ok {
		return kind + " invalid"
	}
	return kind
}

// sfBranchNames lists, as a JSON array, the names of every field of a
// union's branches: the page's JSON view leaves those keys to the form.
func sfBranchNames(f *schemaform.Field) string {
	var names []string
	for _, b := range f.Branches {
		for _, c := range b.Fields {
			names = append(names, c.Name)
		}
	}
	out, _ := json.Marshal(names)
	return string(out)
}
