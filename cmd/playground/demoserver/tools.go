package demoserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Input schemas are written out by hand so that a playground sees exactly
// the JSON Schema features it must render: enums, defaults, bounds, required
// fields, nested objects and arrays. The SDK validates arguments against them
// and fills in defaults before a handler runs.
var (
	echoSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "message": {"type": "string", "description": "Text to send back."}
  },
  "required": ["message"]
}`)

	addSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "a": {"type": "number", "description": "First addend."},
    "b": {"type": "number", "description": "Second addend."}
  },
  "required": ["a", "b"]
}`)

	greetSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "name": {"type": "string", "description": "Who to greet.", "minLength": 1},
    "times": {"type": "integer", "description": "How many times to greet.", "default": 1, "minimum": 1, "maximum": 5},
    "shout": {"type": "boolean", "description": "Greet in upper case."},
    "language": {"type": "string", "description": "Greeting language (English when omitted).", "enum": ["en", "fr", "de"]}
  },
  "required": ["name"]
}`)

	createUserSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "name": {"type": "string", "description": "Full name.", "minLength": 1},
    "age": {"type": "integer", "description": "Age in years.", "minimum": 0},
    "admin": {"type": "boolean", "description": "Grant administrator rights.", "default": false},
    "role": {"type": "string", "description": "Access role.", "enum": ["viewer", "editor", "owner"], "default": "viewer"},
    "tags": {"type": "array", "description": "Free-form labels.", "items": {"type": "string"}},
    "address": {
      "type": "object",
      "description": "Postal address.",
      "properties": {
        "street": {"type": "string"},
        "city": {"type": "string"},
        "zip": {"type": "string"}
      },
      "required": ["city"]
    }
  },
  "required": ["name"]
}`)

	weatherSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "city": {"type": "string", "description": "City name, e.g. Paris.", "minLength": 1}
  },
  "required": ["city"]
}`)

	tinyImageSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "color": {"type": "string", "description": "Square colour.", "enum": ["red", "green", "blue"], "default": "blue"}
  }
}`)

	failSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "reason": {"type": "string", "description": "Error text to return."}
  }
}`)
	protocolErrorSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "code": {"type": "integer", "description": "JSON-RPC error code to answer with.", "default": -32603},
    "message": {"type": "string", "description": "Error message.", "default": "the protocol_error tool answers with a JSON-RPC error"}
  }
}`)
)

// addTools registers every demo tool on s.
func addTools(s *mcp.Server) {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Title: "Echo", Description: "Returns the message unchanged.",
		InputSchema: echoSchema, Annotations: readOnly}, echo)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Title: "Add", Description: "Adds two numbers and returns the sum as text.",
		InputSchema: addSchema, Annotations: readOnly}, add)
	mcp.AddTool(s, &mcp.Tool{Name: "greet", Title: "Greet", Description: "Greets someone, possibly several times, loudly, in another language.",
		InputSchema: greetSchema, Annotations: readOnly}, greet)
	mcp.AddTool(s, &mcp.Tool{Name: "create_user", Title: "Create user", Description: "Pretends to create a user and summarises the input (nested object, array, enum, defaults).",
		InputSchema: createUserSchema}, createUser)
	mcp.AddTool(s, &mcp.Tool{Name: "weather", Title: "Weather", Description: "Made-up weather for a city, as structured content with an output schema.",
		InputSchema: weatherSchema, Annotations: readOnly}, weather)
	mcp.AddTool(s, &mcp.Tool{Name: "tiny_image", Title: "Tiny image", Description: "Returns a 16x16 PNG square.",
		InputSchema: tinyImageSchema, Annotations: readOnly}, tinyImage)
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Title: "Fail", Description: "Always fails with an isError result carrying the reason.",
		InputSchema: failSchema}, fail)
	mcp.AddTool(s, &mcp.Tool{Name: "protocol_error", Title: "Protocol error",
		Description: "Answers with a JSON-RPC error instead of a result, unlike fail, whose tool error is a result.",
		InputSchema: protocolErrorSchema}, protocolError)
	addSessionTools(s)
	addTripTools(s)
	addResultTools(s)      // tools_results.go
	addDestructiveTools(s) // tools_destructive.go
}

type echoIn struct {
	Message string `json:"message"`
}

// echo returns the message as text.
func echo(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
	return textResult(in.Message), nil, nil
}

type addIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

// add returns a+b as text, formatted in the shortest exact form ("5", "0.3").
func add(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, any, error) {
	return textResult(strconv.FormatFloat(in.A+in.B, 'g', -1, 64)), nil, nil
}

type greetIn struct {
	Name     string `json:"name"`
	Times    int    `json:"times"`
	Shout    bool   `json:"shout"`
	Language string `json:"language"`
}

var greetings = map[string]string{"en": "Hello", "fr": "Bonjour", "de": "Hallo"}

// greet returns "Hello, NAME!" (or Bonjour, Hallo) on times lines.
func greet(_ context.Context, _ *mcp.CallToolRequest, in greetIn) (*mcp.CallToolResult, any, error) {
	word, ok := greetings[in.Language]
	if !ok {
		word = greetings["en"]
	}
	line := fmt.Sprintf("%s, %s!", word, in.Name)
	if in.Shout {
		line = strings.ToUpper(line)
	}
	lines := make([]string, max(in.Times, 1))
	for i := range lines {
		lines[i] = line
	}
	return textResult(strings.Join(lines, "\n")), nil, nil
}

type createUserIn struct {
	Name    string     `json:"name"`
	Age     *int       `json:"age"`
	Admin   bool       `json:"admin"`
	Role    string     `json:"role"`
	Tags    []string   `json:"tags"`
	Address *addressIn `json:"address"`
}

type addressIn struct {
	Street string `json:"street"`
	City   string `json:"city"`
	Zip    string `json:"zip"`
}

// createUser summarises its input, one field per line.
func createUser(_ context.Context, _ *mcp.CallToolRequest, in createUserIn) (*mcp.CallToolResult, any, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Created user %q\n", in.Name)
	fmt.Fprintf(&b, "role: %s\n", in.Role)
	fmt.Fprintf(&b, "admin: %t\n", in.Admin)
	if in.Age != nil {
		fmt.Fprintf(&b, "age: %d\n", *in.Age)
	} else {
		b.WriteString("age: (not given)\n")
	}
	if len(in.Tags) > 0 {
		fmt.Fprintf(&b, "tags: %s\n", strings.Join(in.Tags, ", "))
	} else {
		b.WriteString("tags: (none)\n")
	}
	if a := in.Address; a != nil {
		fmt.Fprintf(&b, "address: %s", strings.Join(nonEmpty(a.Street, a.City, a.Zip), ", "))
	} else {
		b.WriteString("address: (none)")
	}
	return textResult(b.String()), nil, nil
}

type weatherIn struct {
	City string `json:"city"`
}

// weatherOut is the structured result of the weather tool; its output
// schema is inferred from this type.
type weatherOut struct {
	City         string  `json:"city" jsonschema:"the city asked about"`
	TemperatureC float64 `json:"temperatureC" jsonschema:"temperature in degrees Celsius"`
	Conditions   string  `json:"conditions" jsonschema:"sky conditions, e.g. sunny"`
}

var conditions = []string{"sunny", "cloudy", "rainy", "windy", "snowy", "foggy"}

// weather returns deterministic made-up weather for the city. The SDK puts
// the result in structuredContent and a JSON copy in a text content block.
func weather(_ context.Context, _ *mcp.CallToolRequest, in weatherIn) (*mcp.CallToolResult, weatherOut, error) {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(in.City)))
	n := h.Sum32()
	return nil, weatherOut{
		City:         in.City,
		TemperatureC: float64(n%400)/10 - 5, // -5.0 .. 34.9
		Conditions:   conditions[(n/400)%uint32(len(conditions))],
	}, nil
}

type tinyImageIn struct {
	Color string `json:"color"`
}

// squares returns the tiny_image PNGs, encoded on first use (not at init:
// every command of the binary would pay for them).
var squares = sync.OnceValue(func() map[string][]byte {
	return map[string][]byte{
		"red":   pngSquare(16, color.RGBA{R: 0xe5, G: 0x39, B: 0x35, A: 0xff}),
		"green": pngSquare(16, color.RGBA{R: 0x43, G: 0xa0, B: 0x47, A: 0xff}),
		"blue":  pngSquare(16, color.RGBA{R: 0x1e, G: 0x88, B: 0xe5, A: 0xff}),
	}
})

// tinyImage returns a 16x16 PNG square of the chosen colour plus a caption.
func tinyImage(_ context.Context, _ *mcp.CallToolRequest, in tinyImageIn) (*mcp.CallToolResult, any, error) {
	data, ok := squares()[in.Color]
	if !ok {
		return nil, nil, fmt.Errorf("unknown color %q", in.Color)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.ImageContent{Data: data, MIMEType: "image/png"},
		&mcp.TextContent{Text: fmt.Sprintf("A 16x16 %s square (%d bytes of PNG).", in.Color, len(data))},
	}}, nil, nil
}

type failIn struct {
	Reason string `json:"reason"`
}

// fail always returns an isError result whose text is the reason.
func fail(_ context.Context, _ *mcp.CallToolRequest, in failIn) (*mcp.CallToolResult, any, error) {
	reason := in.Reason
	if reason == "" {
		reason = "the fail tool always fails"
	}
	return errorResult(reason), nil, nil
}

type protocolErrorIn struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

// protocolError answers with a JSON-RPC error carrying the given code and
// message, and data naming the tool.
func protocolError(_ context.Context, _ *mcp.CallToolRequest, in protocolErrorIn) (*mcp.CallToolResult, any, error) {
	return nil, nil, &jsonrpc.Error{Code: in.Code, Message: in.Message, Data: json.RawMessage(`{"tool":"protocol_error"}`)}
}

// textResult is a result holding one text content block.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// nonEmpty returns the non-empty strings among ss, in order.
func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// pngSquare encodes a size×size square of colour c as PNG. It panics if
// encoding fails, which cannot happen for an in-memory RGBA image.
func pngSquare(size int, c color.Color) []byte {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(fmt.Sprintf("demoserver: encoding PNG: %v", err))
	}
	return buf.Bytes()
}
