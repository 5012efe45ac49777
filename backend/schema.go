package backend

import (
	"bytes"
	"encoding/json"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compileSchema compiles a JSON Schema a server sent, under the name url.
// Formats are asserted, and no $ref leaves the schema (noLoader): a
// schema must not make the playground read files or fetch URLs.
func compileSchema(schema json.RawMessage, url string) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseLoader(noLoader{})
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
}
