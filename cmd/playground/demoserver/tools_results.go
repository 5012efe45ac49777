package demoserver

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	bigResultSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "kib": {"type": "integer", "description": "Size of the text to return, in KiB.", "default": 5120, "minimum": 1, "maximum": 65536}
  }
}`)
	richResultSchema = json.RawMessage(`{"type": "object", "properties": {}}`)
)

// addResultTools registers the tools whose results exercise a client's
// rendering: every kind of content block, and a very big result.
func addResultTools(s *mcp.Server) {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true}
	mcp.AddTool(s, &mcp.Tool{Name: "rich_result", Title: "Rich result",
		Description: "Returns one content block of each kind: Markdown text with annotations, audio, a resource link and an embedded resource, with _meta.",
		InputSchema: richResultSchema, Annotations: readOnly}, richResult)
	mcp.AddTool(s, &mcp.Tool{Name: "big_result", Title: "Big result",
		Description: "Returns a text block of the given size in KiB (5 MiB by default), numbered lines.",
		InputSchema: bigResultSchema, Annotations: readOnly}, bigResult)
}

// richMarkdown is the Markdown text rich_result returns.
const richMarkdown = "# Demo report\n\nThe demo server offers **tools**, *resources* and `prompts`.\n\n" +
	"- Read the [specification](https://modelcontextprotocol.io/specification)\n- Try the `rich_result` tool\n\n" +
	"```go\nfmt.Println(\"hello\")\n```\n"

// richResult returns Markdown text, a short tone, a link to the readme and
// the configuration embedded.
func richResult(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
	size := int64(len(readme))
	return &mcp.CallToolResult{
		Meta: mcp.Meta{"demo/generatedBy": "rich_result"},
		Content: []mcp.Content{
			&mcp.TextContent{Text: richMarkdown, Annotations: &mcp.Annotations{Audience: []mcp.Role{"user"}, Priority: 0.8}},
			&mcp.AudioContent{Data: toneWAV(), MIMEType: "audio/wav"},
			&mcp.ResourceLink{URI: readmeURI, Name: "readme", Title: "Read me", Description: "What this server offers.",
				MIMEType: "text/markdown", Size: &size},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: configURI, MIMEType: "application/json", Text: config},
				Meta: mcp.Meta{"demo/embedded": true}},
		},
	}, nil, nil
}

type bigResultIn struct {
	KiB int `json:"kib"`
}

// bigResult returns one text block of in.KiB KiB of numbered lines.
func bigResult(_ context.Context, _ *mcp.CallToolRequest, in bigResultIn) (*mcp.CallToolResult, any, error) {
	n := max(in.KiB, 1) << 10
	var b strings.Builder
	b.Grow(n + 64)
	for line := 1; b.Len() < n; line++ {
		fmt.Fprintf(&b, "line %07d: the quick brown fox jumps over the lazy dog\n", line)
	}
	return textResult(b.String()[:n]), nil, nil
}

// toneWAV returns a fifth of a second of a 440 Hz tone, 8 kHz 8-bit mono
// WAV, made on first use.
var toneWAV = sync.OnceValue(func() []byte {
	const rate, samples = 8000, 1600
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(36+samples))
	b.WriteString("WAVEfmt ")
	_ = binary.Write(&b, binary.LittleEndian, struct {
		Size                  uint32
		Format, Channels      uint16
		Rate, ByteRate        uint32
		BlockAlign, BitsPerSm uint16
	}{16, 1, 1, rate, rate, 1, 8})
	b.WriteString("data")
	_ = binary.Write(&b, binary.LittleEndian, uint32(samples))
	for i := range samples {
		b.WriteByte(byte(128 + 60*math.Sin(2*math.Pi*440*float64(i)/rate)))
	}
	return b.Bytes()
})
