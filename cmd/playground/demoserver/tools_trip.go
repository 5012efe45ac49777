package demoserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// planTripSchema shows the schema features beyond flat forms: $defs and
// $ref, allOf, an object holding an array of objects, a oneOf of objects
// told apart by a const, a nullable field, formats and bounds.
var planTripSchema = json.RawMessage(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {
    "person": {"type": "object", "properties": {"name": {"type": "string", "minLength": 1}}, "required": ["name"]},
    "stop": {
      "type": "object",
      "title": "stop",
      "properties": {
        "city": {"type": "string", "minLength": 1},
        "nights": {"type": "integer", "minimum": 1, "maximum": 30, "default": 1}
      },
      "required": ["city"]
    }
  },
  "properties": {
    "traveler": {
      "description": "Who travels.",
      "allOf": [{"$ref": "#/$defs/person"}, {"properties": {"email": {"type": "string", "format": "email"}}}]
    },
    "itinerary": {
      "type": "object",
      "properties": {
        "start": {"type": "string", "format": "date"},
        "stops": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/stop"}}
      },
      "required": ["stops"]
    },
    "transport": {
      "type": "object",
      "oneOf": [
        {"title": "Train", "properties": {"mode": {"const": "train"}, "class": {"enum": ["first", "second"], "enumNames": ["First class", "Second class"], "default": "second"}}, "required": ["mode"]},
        {"title": "Car", "properties": {"mode": {"const": "car"}, "seats": {"type": "integer", "minimum": 1, "maximum": 9}}, "required": ["mode", "seats"]}
      ]
    },
    "notes": {"type": ["string", "null"], "description": "Anything to add; null says there is nothing."}
  },
  "required": ["traveler", "itinerary"]
}`)

// addTripTools registers plan_trip on s.
func addTripTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "plan_trip", Title: "Plan trip",
		Description: "Pretends to plan a trip and answers with the arguments it got (nested objects, a list of objects, a choice of transport, a nullable note).",
		InputSchema: planTripSchema, Annotations: &mcp.ToolAnnotations{IdempotentHint: true, DestructiveHint: new(false), OpenWorldHint: new(false)}}, planTrip)
}

// planTrip answers with its arguments, indented, keys sorted.
func planTrip(_ context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
	out, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	return textResult("Trip planned:\n" + string(out)), nil, nil
}
