package web

import (
	"encoding/json"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend/schemaform"
)

// formValues collects a schema form's inputs (views.SchemaForm), keyed by
// field path: an input named "arg."+path gives its last value (a
// boolean's checkbox follows its hidden "false"), a multi-choice field's
// checkboxes ("arg."+path+"[]") one JSON array of the chosen members. The
// JSON view is under schemaform.RawField.
func formValues(c echo.Context) map[string]string {
	values := map[string]string{}
	form, err := c.FormParams()
	if err != nil {
		return values
	}
	for k, v := range form {
		name, ok := strings.CutPrefix(k, "arg.")
		switch {
		case !ok || len(v) == 0:
		case strings.HasSuffix(name, "[]"):
			// Each value is a member's JSON text; together they are the
			// field's form text.
			values[strings.TrimSuffix(name, "[]")] = "[" + strings.Join(v, ",") + "]"
		default:
			values[name] = v[len(v)-1]
		}
	}
	values[schemaform.RawField] = form.Get(schemaform.RawField)
	return values
}

// formArguments reads a submitted schema form into arguments and checks
// them against the form's schema; the errors are keyed by field path, and
// nothing is to be sent while there are any.
func formArguments(form schemaform.Form, values map[string]string) (json.RawMessage, map[string]string) {
	args, errs := schemaform.Arguments(form, values)
	if errs != nil {
		return nil, errs
	}
	return args, schemaform.Validate(form, args)
}
