package web

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/views"
)

// exampleEditOf reads an example's edit form: the form as typed, to show
// again after a refusal, and the edit it asks for. Assertion rows post as
// the parallel lists a_kind, a_path, a_value, a_pattern and a_maxms,
// capture rows as c_name and c_path; rows left blank are ignored. An
// unchecked "compare" judges the example by its assertions alone. A row
// that cannot be read is an EInvalid *Error for the field "assertions".
func exampleEditOf(c echo.Context) (views.ExampleEditForm, collections.ExampleEdit, error) {
	values, err := c.FormParams()
	if err != nil {
		return views.ExampleEditForm{}, collections.ExampleEdit{}, err
	}
	form := views.ExampleEditForm{
		Description: values.Get("description"), Params: values.Get("params"), Volatile: values.Get("volatile"),
		CompareSnapshot: values.Get("compare") != "",
	}
	edit := collections.ExampleEdit{Description: form.Description, Params: form.Params, Volatile: form.Volatile, AssertionsOnly: !form.CompareSnapshot}
	var bad error
	for i := range values["a_kind"] {
		row := views.AssertionRow{
			Kind: strings.TrimSpace(nth(values["a_kind"], i)), Path: strings.TrimSpace(nth(values["a_path"], i)),
			Value: strings.TrimSpace(nth(values["a_value"], i)), Pattern: nth(values["a_pattern"], i), MaxMS: strings.TrimSpace(nth(values["a_maxms"], i)),
		}
		if row == (views.AssertionRow{}) {
			continue
		}
		form.Assertions = append(form.Assertions, row)
		a, err := assertionOf(row)
		if err != nil && bad == nil {
			msg := fmt.Sprintf("Assertion %d: %v.", len(form.Assertions), err)
			bad = &backend.Error{Code: backend.EInvalid, Message: msg, Fields: map[string]string{"assertions": msg}}
		}
		edit.Assertions = append(edit.Assertions, a)
	}
	for i := range values["c_name"] {
		cp := collections.Capture{Name: strings.TrimSpace(nth(values["c_name"], i)), Path: strings.TrimSpace(nth(values["c_path"], i))}
		if cp != (collections.Capture{}) {
			form.Captures = append(form.Captures, cp)
		}
	}
	edit.Captures = form.Captures
	return form, edit, bad
}

// assertionOf is the assertion a row asks for; it carries only the
// inputs its kind uses.
func assertionOf(row views.AssertionRow) (collections.Assertion, error) {
	a := collections.Assertion{Kind: collections.AssertionKind(row.Kind)}
	switch a.Kind {
	case "":
		return a, fmt.Errorf("pick what it checks")
	case collections.AssertEquals:
		a.Path, a.Value = row.Path, json.RawMessage(row.Value)
		if !json.Valid(a.Value) {
			return a, fmt.Errorf("the expected value %s is not JSON (quote text: \"hi\")", row.Value)
		}
	case collections.AssertMatches:
		a.Path, a.Pattern = row.Path, row.Pattern
	case collections.AssertLatency:
		n, err := strconv.ParseInt(row.MaxMS, 10, 64)
		if err != nil {
			return a, fmt.Errorf("the latency bound %q is not a whole number of milliseconds", row.MaxMS)
		}
		a.MaxMS = n
	case collections.AssertOutputSchema:
	default:
		a.Path = row.Path
	}
	return a, nil
}

// nth is list[i], or "" past its end.
func nth(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}
