package demoserver

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestBigResultHasTheAskedSize(t *testing.T) {
	cs := mustConnect(t, newDemo(t.Context(), time.Hour), nil, "")
	res := mustCall(t, cs, "big_result", map[string]any{"kib": 3})
	text := res.Content[0].(*mcp.TextContent).Text
	if len(text) != 3<<10 || !strings.HasPrefix(text, "line 0000001: ") {
		t.Errorf("big_result gave %d bytes starting %q, want 3072 of numbered lines", len(text), text[:20])
	}
}

func TestRichResultHasEveryKindOfBlock(t *testing.T) {
	cs := mustConnect(t, newDemo(t.Context(), time.Hour), nil, "")
	res := mustCall(t, cs, "rich_result", map[string]any{})
	if len(res.Content) != 4 {
		t.Fatalf("rich_result gave %d blocks, want 4", len(res.Content))
	}
	if txt := res.Content[0].(*mcp.TextContent); !strings.HasPrefix(txt.Text, "# ") || txt.Annotations == nil || txt.Annotations.Priority != 0.8 {
		t.Errorf("text block = %+v, want Markdown with priority 0.8", txt)
	}
	if a := res.Content[1].(*mcp.AudioContent); a.MIMEType != "audio/wav" || !bytes.HasPrefix(a.Data, []byte("RIFF")) {
		t.Errorf("audio block = %s, %q…, want a WAV", a.MIMEType, a.Data[:4])
	}
	if l := res.Content[2].(*mcp.ResourceLink); l.URI != readmeURI || l.Description == "" {
		t.Errorf("resource link = %+v", l)
	}
	if e := res.Content[3].(*mcp.EmbeddedResource); e.Resource.URI != configURI || e.Resource.Text != config {
		t.Errorf("embedded resource = %+v", e.Resource)
	}
	if res.Meta["demo/generatedBy"] != "rich_result" {
		t.Errorf("_meta = %v", res.Meta)
	}
}
