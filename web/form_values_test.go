package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/mcp-playground/playground/backend/schemaform"
)

// TestFormValuesWithoutScript posts a schema form as a browser without
// JavaScript does (views.SchemaForm's names, a boolean's hidden "false"
// before its checkbox) and reads it into typed nested arguments.
func TestFormValuesWithoutScript(t *testing.T) {
	form := schemaform.Parse(json.RawMessage(`{"type": "object", "properties": {
		"user": {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}, "required": ["name"]},
		"items": {"type": "array", "items": {"type": "object", "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}}}},
		"tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}},
		"gift": {"type": "boolean"}, "rush": {"type": "boolean"}, "skip": {"type": "boolean"},
		"note": {"type": ["string", "null"]}
	}}`))
	post := url.Values{
		"arg.user.name": {"Ada"}, "arg.user.age": {"36"},
		"arg.items.0?item": {""}, "arg.items.0.sku": {"x-1"}, "arg.items.0.qty": {"2"},
		"arg.items.1?item": {""}, "arg.items.1.sku": {"y-2"}, "arg.items.1.qty": {""},
		"arg.tags[]": {`"c"`, `"a"`},
		"arg.gift":   {"false", "true"}, // checked
		"arg.rush":   {"false"},         // unchecked
		"arg.skip":   {"false"}, "arg.skip?unset": {"on"},
		"arg.note": {"kept out"}, "arg.note?null": {"on"},
		"_raw": {`{"user": {"name": "Bob"}, "coupon": "X"}`},
	}
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(post.Encode()))
	req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationForm)
	c := echo.New().NewContext(req, httptest.NewRecorder())
	args, errs := formArguments(form, formValues(c))
	if errs != nil {
		t.Fatalf("errors: %v", errs)
	}
	var got, want any
	_ = json.Unmarshal(args, &got)
	_ = json.Unmarshal([]byte(`{"user": {"name": "Ada", "age": 36}, "items": [{"sku": "x-1", "qty": 2}, {"sku": "y-2"}],
		"tags": ["a", "c"], "gift": true, "rush": false, "note": null, "coupon": "X"}`), &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("arguments\n%s\nwant\n%v", args, want)
	}

	post.Set("arg.user.name", "")
	post.Set("arg.items.1.qty", "many")
	req = httptest.NewRequest(http.MethodPost, "/", strings.NewReader(post.Encode()))
	req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationForm)
	_, errs = formArguments(form, formValues(echo.New().NewContext(req, httptest.NewRecorder())))
	if want := map[string]string{"items.1.qty": "Enter a whole number."}; !reflect.DeepEqual(errs, want) {
		t.Errorf("errors %v, want %v (form errors first, then the schema's)", errs, want)
	}
	post.Set("arg.items.1.qty", "1")
	req = httptest.NewRequest(http.MethodPost, "/", strings.NewReader(post.Encode()))
	req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationForm)
	_, errs = formArguments(form, formValues(echo.New().NewContext(req, httptest.NewRecorder())))
	if want := map[string]string{"user.name": "This field is required."}; !reflect.DeepEqual(errs, want) {
		t.Errorf("errors %v, want %v: the JSON view's name does not stand in for the form's", errs, want)
	}
}
